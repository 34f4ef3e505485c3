import CGeofence
import Foundation

/// What a region remembers to say when the vehicle crossed its boundary: the fixes since the last one on the
/// region's own side (inside for a region inside, outside for one outside) and where they crossed.
///
/// Hysteresis and accuracy decide *whether* a region's state changes, and at which fix; the crossing says *when*:
/// the instant the path from the last fix on the state's side to the first fix beyond the boundary crosses it
/// (`MonitorEngine.crossingTime`, along `CrossingPath`). A vehicle that drives just beyond the boundary for a while,
/// not far enough for the hysteresis, and then further, crossed at the start of that stretch; one that came back to
/// its side in between crossed again, at the start of the last stretch.
///
/// Invariant: `since` belongs to the stretch of fixes beyond the boundary that ends at fix number `lastFix`; a fix
/// numbered `lastFix + 1` beyond the boundary continues the stretch, any other starts a new one. A state change
/// resets the watch (the side it counts from changed).
struct BoundaryWatch {
    /// The estimated crossing at the start of the stretch; nil when none could be made (no fix before it, or the
    /// fix before it was beyond the boundary too: a state found after an outage while already beyond).
    var since: Date?
    /// The number of the last usable fix of the stretch; 0: no stretch.
    var lastFix: UInt64 = 0
}

extension MonitorEngine {
    /// Follows one region's crossings at a usable fix, before the rules judge it: `distance` is the fix's signed
    /// distance (negative inside). Costs nothing while the fix stays on the state's side, and one crossing search
    /// (`crossingTime`) at the first fix of a stretch beyond the boundary.
    mutating func watchBoundary(_ slot: Int, distance: Double, at point: gf_point, fix: Fix) {
        // The state alone read first: this runs for every region near every fix, the watch only beyond the boundary.
        let state = regions.flags[slot].state
        guard state != .unknown, Self.isBeyond(distance, leaving: state) else { return }
        var watch = boundaryWatches[Int32(slot)] ?? BoundaryWatch()
        if watch.lastFix == 0 || watch.lastFix != fixNumber - 1 {
            watch.since = lastUsable.flatMap { previous in
                crossingTime(slot, leaving: state, from: previous, to: (fix, point))
            }
        }
        watch.lastFix = fixNumber
        boundaryWatches[Int32(slot)] = watch
    }

    /// Starts the watch of a region whose state was just set at this fix: empty when the fix is on the state's
    /// side; otherwise (a state that stands after an outage although the fix is already just beyond the boundary)
    /// a stretch that began at this fix, crossed somewhere between the last fix before it and this one.
    mutating func restartBoundaryWatch(_ slot: Int, distance: Double, at point: gf_point, fix: Fix) {
        boundaryWatches[Int32(slot)] = nil
        let state = regions.flags[slot].state
        guard state != .unknown, Self.isBeyond(distance, leaving: state) else { return }
        boundaryWatches[Int32(slot)] = BoundaryWatch(
            since: lastUsable.flatMap { crossingTime(slot, leaving: state, from: $0, to: (fix, point)) },
            lastFix: fixNumber)
    }

    /// Whether a signed distance lies beyond the boundary for a region in `state` (inside or outside): on the
    /// boundary (0) counts as beyond either way.
    static func isBeyond(_ distance: Double, leaving state: RegionState) -> Bool {
        state == .inside ? distance >= 0 : distance <= 0
    }

    /// The time the vehicle crossed the boundary of the region in `slot`, leaving `side`, between the fixes `start`
    /// and `end`, along the path `CrossingPath` takes between them (a Hermite curve from the fixes' speeds and
    /// courses, else the straight segment with the time running evenly); nil when `start` is not on `side` (there
    /// is no crossing from it to find).
    ///
    /// A bracket [low, high] of the fraction of the time, `low` on `side` and `high` beyond (the end fix is beyond:
    /// the callers found it there), narrowed by false position on the core's signed distance at points along the
    /// path (the Illinois variant: the end kept twice in a row counts half, so both ends close in), and by halving
    /// whenever a step left more than half the width of two steps before (a grazing path, a polygon's corner),
    /// until both ends lie within `crossingTolerance` of the boundary or the bracket is at most 2^-20 wide (10 µs of
    /// a 10 s gap); the crossing is then where the distance is 0 on the straight line between its ends. The points
    /// measured are the core's, on a grid of 1e-7 degree (about 1 cm), so the distance along the path is a step
    /// function below a centimetre: the tolerance stops there. Near a crossing the distance is nearly linear in the
    /// fraction, so two or three distances do what 20 halvings did. Where the path crosses several times (a concave
    /// polygon, a curve that leaves and re-enters), one of them. The error against the true crossing is then the
    /// vehicle's departure from the path and the fixes' own error, divided by its speed across the boundary. Runs
    /// once per stretch beyond the boundary; the path is a value (no allocation).
    func crossingTime(
        _ slot: Int, leaving side: RegionState, from start: (fix: Fix, point: gf_point),
        to end: (fix: Fix, point: gf_point)
    ) -> Date? {
        let handle = regions.handles[slot]
        // How far beyond the boundary a point lies (negative on `side`; 0, on the boundary, counts as beyond), exact
        // within the limit and clamped just over it beyond: a step from clamped values only halves less well.
        func beyond(_ point: gf_point) -> Double {
            let distance = table.distance(from: point, to: handle, limit: Self.crossingSearchLimit)
            return side == .inside ? distance : -distance
        }
        var lowBeyond = beyond(start.point)
        guard lowBeyond < 0 else { return nil }
        var highBeyond = max(0, beyond(end.point))
        // The ends' weights in the false position's step: their distances, halved while the other end moves.
        var lowWeight = lowBeyond, highWeight = highBeyond
        let path = CrossingPath(from: start.fix, to: end.fix)
        var low = 0.0, high = 1.0
        var widthBefore = (2.0, 2.0)  // the bracket's width one and two steps back
        var keptLow = false, keptHigh = false  // whether the last step kept that end
        var steps = 0  // the bracket at least halves every two steps: 40 reach 2^-20; 64 leave room to spare
        while high - low > 0x1p-20, highBeyond - lowBeyond > Self.crossingTolerance, steps < 64 {
            steps += 1
            var middle = (low + high) / 2
            if high - low <= widthBefore.1 / 2 {
                // False position, kept a quarter of the tolerance inside the bracket so that it always narrows.
                middle = low + (high - low) * (-lowWeight / (highWeight - lowWeight))
                middle = min(high - 0x1p-22, max(low + 0x1p-22, middle))
            }
            widthBefore = (high - low, widthBefore.0)
            guard let point = CoreFenceTable.point(path.coordinate(at: middle)) else { break }
            let measured = beyond(point)
            if measured >= 0 {
                (high, highBeyond, highWeight) = (middle, measured, measured)
                if keptLow { lowWeight /= 2 }
                keptLow = true
                keptHigh = false
            } else {
                (low, lowBeyond, lowWeight) = (middle, measured, measured)
                if keptHigh { highWeight /= 2 }
                keptHigh = true
                keptLow = false
            }
        }
        let crossing = low + (high - low) * (-lowBeyond / (highBeyond - lowBeyond))
        let duration = end.fix.timestamp.timeIntervalSince(start.fix.timestamp)
        return start.fix.timestamp + crossing * max(0, duration)
    }

    /// The limit of the distances the crossing search measures, in metres: within it a polygon's distance is exact
    /// (a circle's is at any distance), and the few metres next to the boundary, where the steps go, are well inside.
    static let crossingSearchLimit = 16.0

    /// How near the boundary (metres) both ends of the crossing search's bracket must lie: twice the grid of the
    /// core's points.
    static let crossingTolerance = 0.02
}
