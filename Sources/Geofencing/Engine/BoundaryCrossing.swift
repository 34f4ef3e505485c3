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
    /// Bisection on the side of the core's signed distance at points along the path: 20 halvings find a crossing
    /// to 2^-20 of the time between the fixes (10 µs of a 10 s gap). Where the path crosses several times (a
    /// concave polygon, a curve that leaves and re-enters), one of them. The error against the true crossing is
    /// then the vehicle's departure from the path and the fixes' own error, divided by its speed across the
    /// boundary. Runs once per stretch beyond the boundary; the path is a value (no allocation).
    func crossingTime(
        _ slot: Int, leaving side: RegionState, from start: (fix: Fix, point: gf_point),
        to end: (fix: Fix, point: gf_point)
    ) -> Date? {
        let handle = regions.handles[slot]
        // The side only: a 1 m search limit is exact within 1 m and of the right sign beyond.
        func beyond(_ point: gf_point) -> Bool {
            Self.isBeyond(table.distance(from: point, to: handle, limit: 1), leaving: side)
        }
        guard !beyond(start.point) else { return nil }
        let path = CrossingPath(from: start.fix, to: end.fix)
        var low = 0.0, high = 1.0
        for _ in 0..<20 {
            let middle = (low + high) / 2
            guard let point = CoreFenceTable.point(path.coordinate(at: middle)) else { break }
            if beyond(point) { high = middle } else { low = middle }
        }
        let duration = end.fix.timestamp.timeIntervalSince(start.fix.timestamp)
        return start.fix.timestamp + (low + high) / 2 * max(0, duration)
    }
}
