import CGeofence
import Foundation

/// One monitored region and its state. Its slot in `MonitorEngine.records` is the engine's own (a replaced polygon
/// gets a new core fence, and so a new core slot, but keeps its record slot and its place in every list).
struct RegionRecord {
    var region: Region
    /// The core fence; `MonitorEngine.recordSlotByCoreSlot` maps its slot back to this record.
    var handle: gf_handle
    /// Metres past the boundary a fix must be to change the state.
    var hysteresis: Double
    var state: RegionState = .unknown
    /// The state before an outage made it unknown; a different state found afterwards is an inferred transition.
    var stateBeforeOutage: RegionState?
    /// Restored from a store: a first fix that confirms `stateBeforeOutage` reports nothing (the state never
    /// changed as far as anyone listening knows), so a restart with 100,000 regions is not 100,000 events.
    var confirmsQuietly = false
    /// GNSS time since which the vehicle has been inside (for dwell), nil when outside or unknown.
    var insideSince: Date?
    var dwellReported = false
    /// requestState(for:) came before any usable fix: answer after the next one.
    var stateRequested = false
    /// The fix number at which the core's query last returned this region.
    var seenAtFix: UInt64 = 0
    /// The fix number at which this region last produced an event (one state change per region per fix).
    var eventAtFix: UInt64 = 0
}

/// Everything `RegionMonitor` guards with its lock: the core's fence table, the regions, and the rules that turn
/// fixes into events. Not thread-safe on its own.
///
/// The rules (README "Event semantics"; s = signed distance from the boundary, negative inside; h = the region's
/// hysteresis; a = the fix's horizontal accuracy, 0 when unknown; threshold = max(h, a)):
/// - inside -> outside (exit)  when s >= +threshold
/// - outside -> inside (enter) when s <= -threshold
/// - unknown, first determination: inside when s <= -a, outside when s > a (no hysteresis: nothing to flap from);
///   otherwise it stays unknown. A `determined` event (an enter with `reportsInitialInsideAsEnter`).
/// - unknown after an outage: the state before the outage stands unless the fix is past the boundary by the
///   threshold, which is an enter or exit flagged `inferred`; otherwise a `determined` event with that state.
/// - Observations reach the rules through the GNSS time guard (`GNSSTimeGuard`, `observe(_:)`): a time that jumps
///   forward by more than `outageTimeout` or goes back waits for the observations after it to confirm it.
/// - A fix with an invalid coordinate or accuracy worse than `maximumAccuracy` is not usable: it only advances time.
/// - No usable fix for `outageTimeout` seconds of GNSS time: every known state becomes unknown.
/// - Two consecutive usable fixes at most `maximumInterpolationGap` apart and no faster apart than
///   `maximumInterpolationSpeed`, a region outside at both, and the segment between them passing at least the
///   threshold inside: an enter and an exit, interpolated.
/// - A region with a dwell time: one dwell event once inside for that long.
/// - A region with an approach alarm: one approach event when the vehicle's straight line reaches it within the
///   alarm's lead time (`ApproachTracker`, `RegionEvent.Kind.approach`).
/// Work per fix: the core's query (fences near the fix), the regions inside, the regions not yet determined; with
/// approach alarms, the tracker's own query of the regions that have one.
final class MonitorEngine {
    let configuration: MonitorConfiguration
    private let table: CoreFenceTable
    private var records: [RegionRecord?] = []
    private var freeRecordSlots: [Int] = []
    /// Record slot of each core slot's fence (-1: none): the core's hits name core slots.
    private var recordSlotByCoreSlot: [Int32] = []
    private var slotByIdentifier: [String: Int] = [:]
    private var inside = SlotList()
    private var undetermined = SlotList()
    private var dwelling = SlotList()  // inside, with a dwell time, not yet reported
    private var requested = SlotList()  // requestState(for:) before any usable fix
    private let approach: ApproachTracker
    private var fixNumber: UInt64 = 0
    private var lastUsable: (fix: Fix, point: gf_point)?
    private var lastObservation: Date?
    private var inOutage = false
    private var timeGuard: GNSSTimeGuard
    private var nextSequence: UInt64
    private var events: [MonitorEvent] = []

    init(configuration: MonitorConfiguration) throws(RegionMonitorError) {
        guard configuration.capacity >= 1, configuration.capacity <= Int(GF_CAPACITY_MAX) else {
            throw .capacityReached(configuration.capacity)
        }
        self.configuration = configuration
        self.table = try CoreFenceTable(capacity: configuration.capacity)
        self.approach = ApproachTracker(capacity: configuration.capacity)
        self.nextSequence = configuration.firstSequence
        self.timeGuard = GNSSTimeGuard(
            maximumStep: configuration.outageTimeout, confirmations: configuration.timeBaseConfirmation)
    }

    // MARK: - Regions

    var regions: [Region] { records.compactMap { $0?.region } }

    func state(for identifier: String) -> RegionState? {
        slotByIdentifier[identifier].flatMap { records[$0]?.state }
    }

    /// Adds or replaces a region. Returns the events to deliver (didStartMonitoring).
    func start(_ region: Region) throws(RegionMonitorError) -> [MonitorEvent] {
        let shape = try Self.validate(region)
        let hysteresis = region.hysteresis ?? configuration.hysteresis(for: region.shape)
        if let slot = slotByIdentifier[region.identifier], var record = records[slot] {
            // Replacement keeps the state: the next fix judges the new shape with the usual hysteresis, so a
            // vehicle the new shape still contains sees no exit and enter.
            let handle = try table.replace(record.handle, with: shape)
            do throws(RegionMonitorError) {
                try approach.update(regionSlot: slot, region: region, shape: shape)
            } catch {
                // Out of memory in the alarm table: put the old shape back (one the table held a moment ago), so
                // that a failure changes nothing.
                if let old = try? Self.validate(record.region), let back = try? table.replace(handle, with: old) {
                    link(coreHandle: back, to: slot, replacing: handle)
                    records[slot]!.handle = back
                } else {
                    link(coreHandle: handle, to: slot, replacing: record.handle)
                    records[slot]!.handle = handle
                }
                throw error
            }
            link(coreHandle: handle, to: slot, replacing: record.handle)
            record.region = region
            record.handle = handle
            record.hysteresis = hysteresis
            records[slot] = record
            updateDwelling(slot)
        } else {
            let handle = try table.add(shape)
            let slot = freeRecordSlots.popLast() ?? records.count
            do throws(RegionMonitorError) {
                try approach.update(regionSlot: slot, region: region, shape: shape)
            } catch {
                table.remove(handle)
                if slot < records.count { freeRecordSlots.append(slot) }
                throw error
            }
            if slot == records.count { records.append(nil) }
            records[slot] = RegionRecord(region: region, handle: handle, hysteresis: hysteresis)
            link(coreHandle: handle, to: slot, replacing: nil)
            slotByIdentifier[region.identifier] = slot
            undetermined.insert(slot)
        }
        return [.didStartMonitoring(region)]
    }

    /// Points the core slot of `coreHandle` at record `slot`, and forgets the core slot of `replacing` (when it is
    /// a different fence).
    private func link(coreHandle: gf_handle, to slot: Int, replacing old: gf_handle?) {
        if let old, old != coreHandle { recordSlotByCoreSlot[Self.coreSlot(old)] = -1 }
        let coreSlot = Self.coreSlot(coreHandle)
        if coreSlot >= recordSlotByCoreSlot.count {
            recordSlotByCoreSlot.append(contentsOf: repeatElement(-1, count: coreSlot - recordSlotByCoreSlot.count + 1))
        }
        recordSlotByCoreSlot[coreSlot] = Int32(slot)
    }

    /// The slot part of a core handle (its low 24 bits).
    static func coreSlot(_ handle: gf_handle) -> Int { Int(handle & 0xFF_FFFF) }

    /// The record slot of a core hit's fence.
    private func recordSlot(of handle: gf_handle) -> Int { Int(recordSlotByCoreSlot[Self.coreSlot(handle)]) }

    /// Adds or replaces a region whose state was known before (a restarted daemon's store). The state stands as
    /// after an outage: the first usable fix confirms it silently unless it is past the boundary by the threshold,
    /// which is an enter or exit flagged `inferred`. A replaced region keeps its live state.
    func restore(_ region: Region, _ restored: RestoredRegionState) throws(RegionMonitorError) -> [MonitorEvent] {
        let isNew = slotByIdentifier[region.identifier] == nil
        let events = try start(region)
        guard isNew, restored.state != .unknown, let slot = slotByIdentifier[region.identifier] else { return events }
        records[slot]!.stateBeforeOutage = restored.state
        records[slot]!.confirmsQuietly = true
        if restored.state == .inside {
            records[slot]!.insideSince = restored.insideSince
            records[slot]!.dwellReported = restored.dwellReported
        }
        return events
    }

    func stop(identifier: String) {
        guard let slot = slotByIdentifier.removeValue(forKey: identifier), let record = records[slot] else { return }
        table.remove(record.handle)
        recordSlotByCoreSlot[Self.coreSlot(record.handle)] = -1
        approach.remove(regionSlot: slot)
        records[slot] = nil
        freeRecordSlots.append(slot)
        inside.remove(slot)
        undetermined.remove(slot)
        dwelling.remove(slot)
        requested.remove(slot)
    }

    /// A determined event with the region's current state at the last usable fix, or, before any, after the next.
    func requestState(identifier: String) -> [MonitorEvent] {
        guard let slot = slotByIdentifier[identifier], let record = records[slot] else { return [] }
        guard let last = lastUsable else {
            records[slot]?.stateRequested = true
            requested.insert(slot)
            return []
        }
        let distance = distanceFromBoundary(last.point, record)
        events.removeAll(keepingCapacity: events.capacity <= 4096)
        emit(.determined, slot, state: record.state, time: last.fix.timestamp, at: last.fix.coordinate,
             distance: record.state == .unknown ? nil : distance)
        return events
    }

    /// The region's shape as the core takes it, or why the region is invalid.
    static func validate(_ region: Region) throws(RegionMonitorError) -> CoreShape {
        guard !region.identifier.isEmpty else { throw .emptyIdentifier }
        if let offset = region.identifier.utf8.firstIndex(of: 0) {
            throw .identifierContainsNUL(byteOffset: region.identifier.utf8.distance(
                from: region.identifier.utf8.startIndex, to: offset))
        }
        let shape = try CoreShape.validate(region.shape)
        if let h = region.hysteresis, !(h.isFinite && h >= 0) { throw .invalidHysteresis(h) }
        if let t = region.dwellTime, !(t.isFinite && t >= 0) { throw .invalidDwellTime(t) }
        if let problem = region.approach?.problem { throw problem }
        return shape
    }

    // MARK: - Observations

    /// What the GNSS time guard saw so far.
    var timeStatistics: GNSSTimeStatistics { timeGuard.statistics }

    /// Passes one observation through the GNSS time guard (`GNSSTimeGuard`) and applies what it lets through;
    /// returns the events caused, in order.
    func observe(_ observation: Observation) -> [MonitorEvent] {
        let admission = timeGuard.admit(observation)
        if let step = admission.step, step < 0 { shiftTimeBase(by: step) }
        var caused: [MonitorEvent] = []
        for admitted in admission.observations {
            switch admitted {
            case .fix(let fix): caused += process(fix)
            case .noFix(let time): caused += processNoFix(at: time)
            }
        }
        return caused
    }

    /// Moves every time the rules keep by `step` seconds, for a time base adopted backwards: the rules go on as if
    /// no time had passed between the old base's last observation and the new base's first (how much did is not
    /// known). The states stand (the next fix judges them with the hysteresis, as always); a dwell clock keeps the
    /// time it has counted; the outage clock runs from the last usable fix as before; nothing is interpolated
    /// across the step (the last usable fix and the first new one are at most zero seconds apart); the approach
    /// alarms' motion window starts afresh (a velocity fitted across the step would be wrong).
    private func shiftTimeBase(by step: TimeInterval) {
        lastObservation = lastObservation.map { $0 + step }
        if let last = lastUsable {
            var fix = last.fix
            fix.timestamp += step
            lastUsable = (fix, last.point)
        }
        for slot in records.indices where records[slot]?.insideSince != nil {
            records[slot]!.insideSince! += step
        }
        approach.shiftTimeBase(by: step)
    }

    /// Applies one fix; returns the events it caused, in order.
    func process(_ fix: Fix) -> [MonitorEvent] {
        events.removeAll(keepingCapacity: events.capacity <= 4096)
        if let last = lastObservation, fix.timestamp < last { return [] }  // out of order: ignored
        guard let point = usablePoint(of: fix) else {
            observeWithoutFix(at: fix.timestamp)
            return events
        }
        lastObservation = fix.timestamp
        checkOutage(at: fix.timestamp)
        fixNumber += 1
        let accuracy = fix.horizontalAccuracy ?? 0

        if let previous = lastUsable, !inOutage,
           fix.timestamp.timeIntervalSince(previous.fix.timestamp) <= configuration.maximumInterpolationGap {
            interpolatePasses(from: previous, to: (fix, point), accuracy: accuracy)
        }
        table.query(point, marginMillimetres: 0, following: .fixes) { hits in
            for hit in hits {
                let slot = recordSlot(of: hit.handle)
                records[slot]!.seenAtFix = fixNumber
                let distance = depth(of: slot, hit: Double(hit.distance_mm) / 1000, at: point, accuracy: accuracy)
                judge(slot, distance: distance, fix: fix, accuracy: accuracy)
            }
        }
        // Regions inside or undetermined that the query did not return are outside by more than 0 m: measure them.
        // Downward iteration stays valid while judge() removes the current slot (the last one moves into its place).
        var index = inside.count - 1
        while index >= 0 {
            judgeUnseen(inside.slots[index], at: point, fix: fix, accuracy: accuracy)
            index = min(index - 1, inside.count - 1)
        }
        index = undetermined.count - 1
        while index >= 0 {
            judgeUnseen(undetermined.slots[index], at: point, fix: fix, accuracy: accuracy)
            index = min(index - 1, undetermined.count - 1)
        }
        if approach.isActive { reportApproaches(at: fix, point: point) }
        reportDwells(at: fix, point: point)
        answerRequests(at: fix, point: point)
        lastUsable = (fix, point)
        inOutage = false
        return events
    }

    /// The signed distance the rules need for a hit of the main query. The core measures a polygon's depth inside
    /// only as far as a cell of the polygon's own edge grid (beyond, the query reports a lower bound: a fix deep inside
    /// needs no more to be inside). A region not yet inside needs the depth to decide an enter, and its event the
    /// exact value: measured once to the threshold (cheap: the edges within it), then exactly only when it decides.
    private func depth(of slot: Int, hit distance: Double, at point: gf_point, accuracy: Double) -> Double {
        let record = records[slot]!
        guard distance <= 0, record.state != .inside, !record.region.shape.isCircle else { return distance }
        let threshold = max(record.hysteresis, accuracy)
        let bounded = distanceToDecide(point, record, threshold: threshold)
        return bounded <= -threshold ? distanceFromBoundary(point, record) : bounded
    }

    private func judgeUnseen(_ slot: Int, at point: gf_point, fix: Fix, accuracy: Double) {
        let record = records[slot]!
        guard record.seenAtFix != fixNumber else { return }
        // Outside (the query did not return it): decide on a bounded search, measure exactly only for the event.
        let threshold = max(record.hysteresis, accuracy)
        var distance = distanceToDecide(point, record, threshold: threshold)
        if distance >= threshold || (record.state == .unknown && distance > accuracy) {
            distance = distanceFromBoundary(point, record)
        }
        judge(slot, distance: distance, fix: fix, accuracy: accuracy)
    }

    /// Signed distance in metres from a region's boundary (negative inside), as the core computes it (a polygon
    /// or corridor: exact within 50 km of its boundary, beyond that at least 50 km; its cost grows with the
    /// distance, see `CoreFenceTable.exactDistance`).
    private func distanceFromBoundary(_ point: gf_point, _ record: RegionRecord) -> Double {
        table.exactDistance(from: point, to: record.handle, isCircle: record.region.shape.isCircle)
    }

    /// The signed distance when only whether it reaches `threshold` matters: exact within it, beyond it a value past
    /// it (cheap for a large shape: only the edges within the threshold are searched). The rules' test, made before
    /// the exact distance an event carries.
    private func distanceToDecide(_ point: gf_point, _ record: RegionRecord, threshold: Double) -> Double {
        record.region.shape.isCircle
            ? table.distance(from: point, to: record.handle)
            : table.distance(from: point, to: record.handle, limit: threshold + 1)
    }

    /// A time without a usable fix (gpsd mode 0/1, a fix too inaccurate): only the outage rule can act.
    func processNoFix(at time: Date) -> [MonitorEvent] {
        events.removeAll(keepingCapacity: events.capacity <= 4096)
        if let last = lastObservation, time < last { return [] }
        observeWithoutFix(at: time)
        return events
    }

    private func observeWithoutFix(at time: Date) {
        lastObservation = time
        checkOutage(at: time)
    }

    private func usablePoint(of fix: Fix) -> gf_point? {
        // A negative accuracy is CoreLocation's mark of an invalid position; NaN and too-large ones are unusable too.
        if let accuracy = fix.horizontalAccuracy, !(accuracy >= 0 && accuracy <= configuration.maximumAccuracy) {
            return nil
        }
        return CoreFenceTable.point(fix.coordinate)
    }

    /// Starts an outage when the last usable fix is older than the timeout: every known state becomes unknown.
    private func checkOutage(at time: Date) {
        guard let last = lastUsable, !inOutage,
              time.timeIntervalSince(last.fix.timestamp) > configuration.outageTimeout else { return }
        inOutage = true
        for slot in records.indices {
            guard let record = records[slot], record.state != .unknown else { continue }
            records[slot]!.stateBeforeOutage = record.state
            setState(slot, .unknown, since: time)
            emit(.determined, slot, state: .unknown, time: time, at: last.fix.coordinate, distance: nil)
        }
    }

    // MARK: - Rules

    /// Applies the transition rules to one region for one usable fix.
    private func judge(_ slot: Int, distance: Double, fix: Fix, accuracy: Double) {
        let record = records[slot]!
        guard record.eventAtFix != fixNumber else { return }  // an interpolated pass already spoke for this fix
        let threshold = max(record.hysteresis, accuracy)
        let time = fix.timestamp, at = fix.coordinate
        switch record.state {
        case .inside where distance >= threshold:
            setState(slot, .outside, since: time)
            if record.region.notifyOnExit { emit(.exit, slot, state: .outside, time: time, at: at, distance: distance) }
        case .outside where distance <= -threshold:
            setState(slot, .inside, since: time)
            if record.region.notifyOnEntry { emit(.enter, slot, state: .inside, time: time, at: at, distance: distance) }
        case .unknown:
            records[slot]!.stateRequested = false
            if let before = record.stateBeforeOutage, before != .unknown {
                // Back from an outage: the state before it stands unless this fix is past the boundary by the
                // usual threshold, so a parked vehicle's jitter cannot turn into inferred transitions.
                records[slot]!.stateBeforeOutage = nil
                records[slot]!.confirmsQuietly = false
                let crossed = before == .inside ? distance >= threshold : distance <= -threshold
                let found: RegionState = crossed ? (before == .inside ? .outside : .inside) : before
                // The dwell clock keeps running when the vehicle stayed inside.
                setState(slot, found, since: found == .inside && !crossed ? record.insideSince ?? time : time)
                let notify = found == .inside ? record.region.notifyOnEntry : record.region.notifyOnExit
                if crossed && notify {
                    emit(found == .inside ? .enter : .exit, slot, state: found, time: time, at: at,
                         distance: distance, inferred: true)
                } else if !record.confirmsQuietly {
                    emit(.determined, slot, state: found, time: time, at: at, distance: distance)
                }
            } else {
                // First determination: no state to flap from, so only the fix's own uncertainty matters.
                let found: RegionState
                if distance <= -accuracy { found = .inside } else if distance > accuracy { found = .outside } else { return }
                setState(slot, found, since: time)
                let asEnter = found == .inside && configuration.reportsInitialInsideAsEnter && record.region.notifyOnEntry
                emit(asEnter ? .enter : .determined, slot, state: found, time: time, at: at, distance: distance)
            }
        default:
            break
        }
    }

    /// Enter and exit for regions the straight segment between two usable fixes passes through while both fixes
    /// leave them outside. Candidates come from one query at the segment's midpoint with half its length as margin.
    private func interpolatePasses(from start: (fix: Fix, point: gf_point), to end: (fix: Fix, point: gf_point),
                                   accuracy: Double) {
        let length = CoreFenceTable.distance(start.point, end.point)
        let duration = end.fix.timestamp.timeIntervalSince(start.fix.timestamp)
        guard length > 0, duration > 0, length <= duration * configuration.maximumInterpolationSpeed else { return }
        let mid = SegmentPass.point(at: 0.5, from: start.fix.coordinate, to: end.fix.coordinate)
        guard let midPoint = CoreFenceTable.point(mid) else { return }
        let margin = UInt32(min(Double(GF_MARGIN_MAX_MM), (length / 2 + 1) * 1000))
        let accuracyBoth = max(accuracy, start.fix.horizontalAccuracy ?? 0)
        var crossings: [(time: Date, slot: Int, kind: RegionEvent.Kind, fraction: Double)] = []
        table.query(midPoint, marginMillimetres: margin, following: .segments) { hits in
            for hit in hits {
                let slot = recordSlot(of: hit.handle)
                let record = records[slot]!
                guard record.state == .outside else { continue }
                let depth = max(record.hysteresis, accuracyBoth)
                // The end fix must leave it outside too (otherwise this fix's ordinary enter rule speaks).
                let endDistance = distanceToDecide(end.point, record, threshold: depth)
                guard endDistance > -depth,
                      let pass = pass(through: record, depth: depth, from: start, to: end, length: length)
                else { continue }
                records[slot]!.eventAtFix = fixNumber
                if approach.isActive { approach.entered(regionSlot: slot) }
                if record.region.notifyOnEntry {
                    crossings.append((start.fix.timestamp + pass.entry * duration, slot, .enter, pass.entry))
                }
                if record.region.notifyOnExit {
                    crossings.append((start.fix.timestamp + pass.exit * duration, slot, .exit, pass.exit))
                }
            }
        }
        // In the order the vehicle made them (the core returns hits in index order, and passes through overlapping
        // regions interleave); ties by slot, and a region's enter before its exit.
        crossings.sort { ($0.time, $0.slot, $0.kind == .exit ? 1 : 0) < ($1.time, $1.slot, $1.kind == .exit ? 1 : 0) }
        for crossing in crossings {
            let point = SegmentPass.point(at: crossing.fraction, from: start.fix.coordinate, to: end.fix.coordinate)
            emit(crossing.kind, crossing.slot, state: crossing.kind == .enter ? .inside : .outside,
                 time: crossing.time, at: point, distance: 0, interpolated: true)
        }
    }

    /// Where the segment between two fixes passes through a region at least `depth` inside: a circle's in closed
    /// form, a polygon's or corridor's by stepping along the segment with the core's distances.
    private func pass(through record: RegionRecord, depth: Double, from start: (fix: Fix, point: gf_point),
                      to end: (fix: Fix, point: gf_point), length: Double) -> SegmentPass? {
        if case .circle(let center, let radius) = record.region.shape {
            return SegmentPass.through(
                center: center, radius: radius, depth: depth, from: start.fix.coordinate, to: end.fix.coordinate)
        }
        let limit = length + depth + 1
        return SegmentPass.through(length: length, depth: depth) { u in
            let coordinate = SegmentPass.point(at: u, from: start.fix.coordinate, to: end.fix.coordinate)
            guard let point = CoreFenceTable.point(coordinate) else { return .infinity }
            return table.distance(from: point, to: record.handle, limit: limit)
        }
    }

    /// Approach events of this fix, after its transitions (so an enter at this fix has already spent the alarm).
    private func reportApproaches(at fix: Fix, point: gf_point) {
        let firings = approach.observe(fix, at: point) { slot in records[slot]!.state }
        for firing in firings {
            emit(.approach, firing.regionSlot, state: .outside, time: fix.timestamp, at: fix.coordinate,
                 distance: firing.distance)
        }
    }

    private func reportDwells(at fix: Fix, point: gf_point) {
        var index = dwelling.count - 1
        while index >= 0 {
            let slot = dwelling.slots[index]
            index -= 1
            let record = records[slot]!
            guard let since = record.insideSince, let dwell = record.region.dwellTime,
                  fix.timestamp.timeIntervalSince(since) >= dwell else { continue }
            records[slot]!.dwellReported = true
            dwelling.remove(slot)
            emit(.dwell, slot, state: .inside, time: fix.timestamp, at: fix.coordinate,
                 distance: distanceFromBoundary(point, record))
        }
    }

    private func answerRequests(at fix: Fix, point: gf_point) {
        for slot in requested.slots {
            guard let record = records[slot], record.stateRequested else { continue }
            records[slot]!.stateRequested = false
            guard record.eventAtFix != fixNumber else { continue }  // already reported at this fix
            emit(.determined, slot, state: record.state, time: fix.timestamp, at: fix.coordinate,
                 distance: record.state == .unknown ? nil : distanceFromBoundary(point, record))
        }
        requested = SlotList()
    }

    // MARK: - Bookkeeping

    private func setState(_ slot: Int, _ state: RegionState, since time: Date) {
        records[slot]!.state = state
        switch state {
        case .inside:
            inside.insert(slot)
            undetermined.remove(slot)
            records[slot]!.insideSince = time
            if approach.isActive { approach.entered(regionSlot: slot) }
        case .outside:
            inside.remove(slot)
            undetermined.remove(slot)
            records[slot]!.insideSince = nil
            records[slot]!.dwellReported = false
        case .unknown:
            inside.remove(slot)
            undetermined.insert(slot)
        }
        updateDwelling(slot)
    }

    /// Keeps `dwelling` = inside, with a dwell time, not yet reported.
    private func updateDwelling(_ slot: Int) {
        guard let record = records[slot] else { return }
        if record.state == .inside, record.region.dwellTime != nil, !record.dwellReported {
            dwelling.insert(slot)
        } else {
            dwelling.remove(slot)
        }
    }

    private func emit(
        _ kind: RegionEvent.Kind, _ slot: Int, state: RegionState, time: Date, at coordinate: Coordinate,
        distance: Double?, inferred: Bool = false, interpolated: Bool = false
    ) {
        // An approach reports no state: it neither stands for this fix's transition nor answers a state request.
        if kind != .approach { records[slot]!.eventAtFix = fixNumber }
        let event = RegionEvent(
            sequence: nextSequence, kind: kind, region: records[slot]!.region, state: state, time: time,
            coordinate: coordinate, distance: distance, inferred: inferred, interpolated: interpolated)
        nextSequence &+= 1  // wraps after 2^64 - 1 instead of trapping (a restored store may start anywhere)
        events.append(.region(event))
    }
}
