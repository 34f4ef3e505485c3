import CGeofence
import Foundation

/// The approach alarms of one monitor: which regions have one, which are armed, and when each fires. `MonitorEngine`
/// calls it under its lock; it is idle (no table, no work per fix) until a region with an alarm is added.
///
/// Cost: the regions with an alarm live in a second core table of their own, so the monitor's main query (margin 0)
/// and its work for regions without an alarm are exactly what they were. Per usable fix, while any alarm exists:
/// the motion window (at most 64 fixes), and, when the vehicle is moving, one query of the alarm table with margin
/// speed × (largest lead time + half a fix interval) + 100 m: the only regions it could reach within a lead time,
/// since the straight line to a circle is never shorter than the distance to it (at 160 km/h and 60 s: 2.8 km; the
/// margin is capped at the core's 50 km, which 300 s at 100 m/s stays inside). Plus the regions whose alarm is spent
/// (recently fired, or the vehicle is inside), which are checked every fix until they re-arm: a few, near the vehicle.
///
/// Time to the boundary: from the smoothed position, along the current velocity, to where that straight line meets
/// the region (nil when it misses the region or points away: a vehicle passing by tangentially or leaving is not
/// approaching, however close). A circle's is computed in the tangent plane at the vehicle with the core's geodesic
/// distance to the centre: the only approximation is the direction to the centre (fractions of a degree at 50 km).
/// A polygon's or corridor's by stepping along the line with the core's signed distance (sphere tracing: a step of
/// the distance to the boundary cannot cross it), as far as the vehicle gets in twice the largest lead time: a line
/// that does not meet the shape by then counts as not approaching.
final class ApproachTracker {
    /// Seconds of GNSS time a spent alarm must see the vehicle not approaching (while outside) before it re-arms.
    static let rearmTime: Double = 10
    /// Metres added to the query margin for the smoothing of the position (the median can sit a few metres from
    /// the newest fix; an outlier fix up to 80 m).
    static let marginSlack: Double = 100

    /// One region with an alarm.
    private struct Entry {
        let regionSlot: Int
        var handle: gf_handle
        var alarm: ApproachAlarm
        /// A circle's centre and radius (closed-form time to the boundary); nil for a polygon or corridor.
        var circle: (center: gf_point, centerCoordinate: Coordinate, radius: Double)?
        /// Fires at the next approach; false once fired or entered, until `rearmTime` of not approaching.
        var armed = true
        /// Spent: GNSS time of the first of the fixes since which the vehicle has not been approaching.
        var notApproachingSince: Date?
    }

    /// An alarm that fired at this fix: the region's slot in the monitor, and the fix's distance to the boundary.
    struct Firing {
        let regionSlot: Int
        let distance: Double
    }

    private let capacity: Int
    private var table: CoreFenceTable?
    private var entries: [Entry?] = []  // by slot in `table`
    // Read at every fix (`isActive`). The tracker is used only under the monitor's lock, so the runtime's exclusivity
    // check of each access (swift_beginAccess: tens of instructions) is left out.
    @exclusivity(unchecked) private var slotByRegion: [Int: Int] = [:]
    private var spent = SlotList()  // slots in `table` whose alarm is not armed
    private var leadTimeCounts: [Double: Int] = [:]
    private var largestLeadTime: Double = 0
    private var window = MotionWindow()

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether any region has an alarm (otherwise the monitor skips the tracker).
    var isActive: Bool { !slotByRegion.isEmpty }

    // MARK: - Regions

    /// Gives the region in `regionSlot` the alarm `region.approach` (adding, moving or removing its entry). A region
    /// keeps its armed state when replaced. Throws only when the core cannot allocate; nothing changes then.
    func update(regionSlot: Int, region: Region, shape: CoreShape) throws(RegionMonitorError) {
        guard let alarm = region.approach else {
            remove(regionSlot: regionSlot)
            return
        }
        var circle: (center: gf_point, centerCoordinate: Coordinate, radius: Double)?
        if case .circle(let center, let radiusMillimetres) = shape {
            circle = (center, region.center, Double(radiusMillimetres) / 1000)
        }
        if let slot = slotByRegion[regionSlot], var entry = entries[slot] {
            let handle = try table!.replace(entry.handle, with: shape)
            countLeadTime(entry.alarm.leadTime, by: -1)
            entry.alarm = alarm
            entry.circle = circle
            if handle != entry.handle {
                // A new fence in the alarm table: the entry moves to its slot.
                entries[slot] = nil
                spent.remove(slot)
                entry.handle = handle
                store(entry)
            } else {
                entries[slot] = entry
            }
            countLeadTime(alarm.leadTime, by: 1)
            return
        }
        if table == nil { table = try CoreFenceTable(capacity: capacity) }
        let handle = try table!.add(shape)
        store(Entry(regionSlot: regionSlot, handle: handle, alarm: alarm, circle: circle))
        countLeadTime(alarm.leadTime, by: 1)
    }

    /// Puts an entry at the slot of its fence in the alarm table.
    private func store(_ entry: Entry) {
        let slot = CoreFenceTable.slot(of: entry.handle)
        if slot >= entries.count { entries.append(contentsOf: repeatElement(nil, count: slot - entries.count + 1)) }
        entries[slot] = entry
        slotByRegion[entry.regionSlot] = slot
        if !entry.armed { spent.insert(slot) }
    }

    /// Forgets the alarm of the region in `regionSlot`, if it has one.
    func remove(regionSlot: Int) {
        guard let slot = slotByRegion.removeValue(forKey: regionSlot), let entry = entries[slot] else { return }
        table!.remove(entry.handle)
        entries[slot] = nil
        spent.remove(slot)
        countLeadTime(entry.alarm.leadTime, by: -1)
        if slotByRegion.isEmpty { window = MotionWindow() }  // a later alarm starts from fresh fixes
    }

    /// A time base adopted backwards by `step` seconds (`MonitorEngine.shiftTimeBase`): the motion window starts
    /// afresh, and spent alarms keep the time they have counted towards re-arming.
    func shiftTimeBase(by step: TimeInterval) {
        window = MotionWindow()
        for slot in spent.slots where entries[slot]?.notApproachingSince != nil {
            entries[slot]!.notApproachingSince! += step
        }
    }

    /// The vehicle entered the region in `regionSlot` (an enter, or an interpolated pass): its alarm is spent, so
    /// no approach follows an enter.
    func entered(regionSlot: Int) {
        guard let slot = slotByRegion[regionSlot] else { return }
        spend(slot)
    }

    // MARK: - Fixes

    /// Takes one usable fix (after the monitor has judged the states for it) and returns the alarms it fires, in
    /// the core's hit order. `state` gives a region's current state by its slot in the monitor.
    func observe(_ fix: Fix, at point: gf_point, state: (Int) -> RegionState) -> [Firing] {
        guard let motion = window.append(fix), let table, let here = CoreFenceTable.point(motion.position) else {
            return []
        }
        var firings: [Firing] = []
        if motion.isMoving {
            let reach = motion.speed * (largestLeadTime + motion.interval / 2) + Self.marginSlack
            let margin = UInt32(min(Double(GF_MARGIN_MAX_MM), (reach * 1000).rounded(.up)))
            table.query(point, marginMillimetres: margin, following: .fixes) { hits in
                for hit in hits {
                    let slot = CoreFenceTable.slot(of: hit.handle)
                    guard let entry = entries[slot], entry.armed else { continue }
                    let distance = Double(hit.distance_mm) / 1000
                    switch state(entry.regionSlot) {
                    case .inside:
                        spend(slot)
                    case .outside:
                        if fires(entry, distance: distance, motion: motion, from: here) {
                            spend(slot)
                            firings.append(Firing(regionSlot: entry.regionSlot, distance: distance))
                        }
                    case .unknown:
                        break
                    }
                }
            }
        }
        // Spent alarms re-arm after `rearmTime` of the vehicle outside and not approaching. Downward iteration stays
        // valid while re-arming removes the current slot (the last one moves into its place).
        var index = spent.count - 1
        while index >= 0 {
            let slot = spent.slots[index]
            index -= 1
            guard var entry = entries[slot] else { continue }
            switch state(entry.regionSlot) {
            case .inside:
                entry.notApproachingSince = nil
            case .outside:
                if motion.isMoving, timeToBoundary(entry, motion: motion, from: here) != nil {
                    entry.notApproachingSince = nil
                } else {
                    let since = entry.notApproachingSince ?? motion.time
                    entry.notApproachingSince = since
                    if motion.time.timeIntervalSince(since) >= Self.rearmTime {
                        entry.armed = true
                        entry.notApproachingSince = nil
                        spent.remove(slot)
                    }
                }
            case .unknown:
                break  // nothing known: neither counts
            }
            entries[slot] = entry
        }
        return firings
    }

    /// Whether an armed alarm fires now: the fix outside the boundary, within the distance limit, and the straight
    /// line reaching the circle within the lead time. "Within" is to the nearest fix: the estimate crosses the
    /// lead time between two fixes, so firing when it is within half a fix interval of it centres the error on 0.
    private func fires(_ entry: Entry, distance: Double, motion: MotionEstimate, from here: gf_point) -> Bool {
        guard distance > 0, distance <= entry.alarm.maximumDistance ?? .infinity,
              distance <= motion.speed * (entry.alarm.leadTime + motion.interval / 2) + Self.marginSlack,
              let time = timeToBoundary(entry, motion: motion, from: here) else { return false }
        return time - motion.interval / 2 <= entry.alarm.leadTime
    }

    /// Seconds until the straight line from the smoothed position (`here`) along the current velocity meets the
    /// circle; 0 when that position is already inside and moving inwards; nil when the line misses the circle or
    /// points away from it.
    ///
    /// With D the distance to the centre, r the radius and a the angle between the velocity and the direction to the
    /// centre, the line meets the circle after L = D cos a - sqrt(r² - D² sin² a), computed as
    /// (D² - r²) / (D cos a + sqrt(r² - D² sin² a)) to keep its precision when D - r is small against r.
    private func timeToBoundary(_ entry: Entry, motion: MotionEstimate, from here: gf_point) -> Double? {
        guard let circle = entry.circle else { return timeToShape(entry, motion: motion, from: here) }
        let d = CoreFenceTable.distance(here, circle.center), r = circle.radius
        let plane = LocalTangentPlane(latitude: (motion.position.latitude + circle.centerCoordinate.latitude) / 2)
        let toCenter = plane.offset(of: circle.centerCoordinate, from: motion.position)
        let length = (toCenter.east * toCenter.east + toCenter.north * toCenter.north).squareRoot()
        let speed = motion.speed
        guard speed > 0, length > 0 else { return d <= r ? 0 : nil }
        let cosine = (motion.east * toCenter.east + motion.north * toCenter.north) / (speed * length)
        guard cosine > 0 else { return nil }
        if d <= r { return 0 }
        let offLine = d * d * (1 - cosine * cosine)  // squared distance of the line's closest point from the centre
        guard offLine <= r * r else { return nil }
        let travel = (d - r) * (d + r) / (d * cosine + (r * r - offLine).squareRoot())
        return travel / speed
    }

    /// `timeToBoundary` of a polygon or corridor: sphere tracing along the velocity line from the smoothed position,
    /// at most as far as the vehicle gets in twice the largest lead time (and 50 km), to within 0.5 m of the
    /// boundary; at most 200 steps (a line grazing the boundary: not approaching).
    private func timeToShape(_ entry: Entry, motion: MotionEstimate, from here: gf_point) -> Double? {
        guard let table else { return nil }
        let speed = motion.speed
        let reach = min(50_000, speed * 2 * largestLeadTime + Self.marginSlack)
        let start = table.distance(from: here, to: entry.handle, limit: reach)
        if start <= 0 { return speed > 0 ? 0 : nil }
        guard speed > 0 else { return nil }
        let plane = LocalTangentPlane(latitude: motion.position.latitude)
        let east = motion.east / speed, north = motion.north / speed
        var travelled = 0.0, distance = start
        for _ in 0..<200 {
            if distance <= 0.5 { return travelled / speed }
            travelled += distance
            guard travelled <= reach else { return nil }
            let ahead = plane.coordinate(east: east * travelled, north: north * travelled, from: motion.position)
            guard let point = CoreFenceTable.point(ahead) else { return nil }
            distance = table.distance(from: point, to: entry.handle, limit: reach)
        }
        return nil
    }

    private func spend(_ slot: Int) {
        entries[slot]!.armed = false
        entries[slot]!.notApproachingSince = nil
        spent.insert(slot)
    }

    /// Keeps `largestLeadTime` = the largest lead time of any alarm (the query margin's), counting equal ones.
    private func countLeadTime(_ leadTime: Double, by change: Int) {
        let count = (leadTimeCounts[leadTime] ?? 0) + change
        leadTimeCounts[leadTime] = count > 0 ? count : nil
        largestLeadTime = leadTimeCounts.keys.max() ?? 0
    }
}
