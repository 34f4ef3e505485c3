import CGeofence
import Foundation

/// Everything `RegionMonitor` guards with its lock: the core's fence table, the regions, and the rules that turn
/// fixes into events. Not thread-safe on its own.
///
/// The rules (README "Event semantics"; s = signed distance from the boundary, negative inside; h = the region's
/// hysteresis; a = the fix's horizontal accuracy, 0 when unknown; threshold = max(h, a)):
/// - inside -> outside (exit)  when s >= +threshold
/// - outside -> inside (enter) when s <= -threshold
/// - unknown, first determination: inside when s <= -a, outside when s > a (no hysteresis: nothing to flap from);
///   otherwise it stays unknown. A `determined` event (an enter with `reportsInitialInsideAsEnter`); with
///   `determinations = .insideOnly` only when found inside (the state changes silently otherwise).
/// - unknown after an outage (or a restore): the last known state stands unless the fix is past the boundary by
///   the threshold, which is an enter or exit flagged `inferred`; otherwise a `determined` event with that state.
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
/// - A region with a speed limit: overspeed and overspeedEnd while inside (`SpeedLimitRule`).
/// - A region with a schedule: no event outside its windows, a determination when one opens (`ScheduleWindows`,
///   `RegionEvent.Kind.determined`).
/// Work per fix: the core's query (fences near the fix), the regions inside, the regions not yet determined; with
/// approach alarms, the tracker's own query of the regions that have one.
///
/// This file holds the engine's state and the order of work for each observation; the regions are kept in
/// RegionRegistry.swift, the rules for one fix in TransitionRules.swift, the passes between fixes in
/// InterpolatedPasses.swift. The state is internal rather than private only so that those extensions reach it:
/// nothing outside the engine touches it.
struct MonitorEngine {
    let configuration: MonitorConfiguration
    let table: CoreFenceTable
    /// The regions, by record slot (`RegionTable`: dense arrays of what every region needs).
    var regions: RegionTable
    /// GNSS time since which the vehicle has been inside (for dwell): only the regions inside (or restored inside).
    var insideSince: [Int32: Date] = [:]
    /// Where the fixes since the last one on the state's side of the boundary crossed it (`BoundaryWatch`): only the
    /// regions with such a stretch under way, a few near the vehicle. Its storage is reserved so that a stretch
    /// starting (at a fix without events) allocates nothing.
    var boundaryWatches: [Int32: BoundaryWatch] = Dictionary(minimumCapacity: 64)
    /// The slots whose `RegionFlags.seenAtFix` is set (the current fix's hits), to clear them after the fix.
    var seen: [Int32] = []
    /// The slots whose `RegionFlags.eventAtFix` is set, to clear them when the fix number advances.
    var spoke: [Int32] = []
    /// Record slot of each core slot's fence (-1: none): the core's hits name core slots.
    var recordSlotByCoreSlot: [Int32] = []
    /// Record slot of each identifier (keyed by the identifiers `regions` holds: no identifier is kept twice).
    var slotByIdentifier = IdentifierIndex()
    var inside = SlotList()
    var undetermined: SlotList
    var dwelling = SlotList()  // inside, with a dwell time, not yet reported
    var requested = SlotList()  // requestState(for:) before any usable fix
    let approach: ApproachTracker
    /// Regions with a speed limit (`SpeedLimitRule.swift`) and with a schedule (`ScheduleWindows.swift`): out of
    /// line, empty when no region has one.
    var speedRule = SpeedLimitRule()
    var schedules = ScheduleWindows()
    var fixNumber: UInt64 = 0
    var lastUsable: (fix: Fix, point: gf_point)?
    private var lastObservation: Date?
    private var inOutage = false
    private var timeGuard: GNSSTimeGuard
    private var nextSequence: UInt64
    var events: [RegionEvent] = []
    /// Regions whose `stateRecord` changed during the current observation (`observe(_:)` reports them).
    var changed = SlotList()

    init(configuration: MonitorConfiguration) throws(RegionMonitorError) {
        guard configuration.capacity >= 1, configuration.capacity <= Int(GF_CAPACITY_MAX) else {
            throw .capacityReached(configuration.capacity)
        }
        self.configuration = configuration
        self.table = try CoreFenceTable(capacity: configuration.capacity)
        self.regions = RegionTable(configuration: configuration)
        self.undetermined = SlotList(capacityLimit: configuration.capacity)
        seen.reserveCapacity(64)
        spoke.reserveCapacity(64)
        self.approach = ApproachTracker(capacity: configuration.capacity)
        self.nextSequence = configuration.firstSequence
        self.timeGuard = GNSSTimeGuard(
            maximumStep: configuration.outageTimeout, confirmations: configuration.timeBaseConfirmation)
    }

    // MARK: - Observations

    /// What the GNSS time guard saw so far.
    var timeStatistics: GNSSTimeStatistics { timeGuard.statistics }

    /// Passes one observation through the GNSS time guard (`GNSSTimeGuard`) and applies what it lets through;
    /// returns the events caused, in order, and the records of the regions it changed.
    mutating func observe(_ observation: Observation) -> ObservationOutcome {
        var caused: [RegionEvent] = []
        switch timeGuard.admit(observation) {
        case .none:
            break
        case .this:
            caused = apply(observation)
        case .adopted(let admitted, let step):
            if step < 0 { shiftTimeBase(by: step) }
            for observation in admitted { caused += apply(observation) }
        }
        return outcome(of: caused)
    }

    /// `observe(.fix(fix))`, with the common case (a fix whose time continues the base) inlined: no observation is
    /// made of it, none taken apart.
    @inline(__always)
    mutating func observe(_ fix: Fix) -> ObservationOutcome {
        guard timeGuard.admitsAtOnce(fix.timestamp) else { return observeAsObservation(fix) }
        processInPlace(fix)
        // `events` read in place: the array `process(_:)` returns would cost a release here, empty or not, and a
        // quiet fix's outcome (`ObservationOutcome.none`) holds nothing its caller releases.
        guard events.isEmpty, !configuration.returnsChangedStates || changed.count == 0 else {
            return outcome(of: eventsCaused)
        }
        return .none
    }

    /// `observe(.fix(fix))` out of line: inlined, the observation's copy of the fix was made at every fix.
    @inline(never)
    private mutating func observeAsObservation(_ fix: Fix) -> ObservationOutcome {
        observe(.fix(fix))
    }

    private mutating func outcome(of events: [RegionEvent]) -> ObservationOutcome {
        ObservationOutcome(
            events: events, changedStates: configuration.returnsChangedStates ? takeChangedStates() : [:])
    }

    private mutating func apply(_ observation: Observation) -> [RegionEvent] {
        switch observation {
        case .fix(let fix): process(fix)
        case .noFix(let time): processNoFix(at: time)
        }
    }

    /// The records of the regions `changed` lists, by identifier; empties the list.
    private mutating func takeChangedStates() -> [String: RegionStateRecord] {
        guard changed.count > 0 else { return Dictionary() }  // the empty one, without a literal's initialiser
        defer { changed.removeAll() }
        return changedStates(from: 0, limit: changed.count)
    }

    /// Up to `limit` records of the regions `changed` lists, from its `start`th member on, by identifier; leaves
    /// the list as it is (`MonitorConfiguration.returnsChangedStates` false: the caller clears it once stored).
    func changedStates(from start: Int, limit: Int) -> [String: RegionStateRecord] {
        guard start >= 0, limit > 0, start < changed.count else { return [:] }
        let end = start + min(limit, changed.count - start)
        var states: [String: RegionStateRecord] = [:]
        states.reserveCapacity(end - start)
        for slot in changed.slots[start..<end] where regions.isOccupied(slot) {
            states[regions.identifiers[slot]] = stateRecord(of: slot)
        }
        return states
    }

    /// What a store keeps of the region in `slot`: its record's state, with the episode of its speed limit.
    func stateRecord(of slot: Int) -> RegionStateRecord {
        var state = regionStateRecord(slot)
        if speedRule.limitedRegions > 0 { state.overspeed = speedRule.episodes[slot]?.stored }
        return state
    }

    /// The region's own part of its state record (without the speed limit's episode).
    func regionStateRecord(_ slot: Int) -> RegionStateRecord {
        let flags = regions.flags[slot]
        return RegionStateRecord(
            state: flags.state, lastKnownState: flags.lastKnownState, insideSince: insideSince[Int32(slot)],
            dwellReported: flags.dwellReported)
    }

    /// Moves every time the rules keep by `step` seconds, for a time base adopted backwards: the rules go on as if
    /// no time had passed between the old base's last observation and the new base's first (how much did is not
    /// known). The states stand (the next fix judges them with the hysteresis, as always); a dwell clock keeps the
    /// time it has counted; the outage clock runs from the last usable fix as before; nothing is interpolated
    /// across the step (the last usable fix and the first new one are at most zero seconds apart); the approach
    /// alarms' motion window starts afresh (a velocity fitted across the step would be wrong); an overspeed episode
    /// keeps its times relative to the new base (and its record is reported changed, as a moved dwell clock is).
    private mutating func shiftTimeBase(by step: TimeInterval) {
        lastObservation = lastObservation.map { $0 + step }
        if let last = lastUsable {
            var fix = last.fix
            fix.timestamp += step
            lastUsable = (fix, last.point)
        }
        // In slot order, as every other walk over the regions (the side tables' order is the hashing's).
        for slot in insideSince.keys.sorted() {
            insideSince[slot]! += step
            changed.insert(Int(slot))
        }
        for slot in boundaryWatches.keys where boundaryWatches[slot]!.since != nil {
            boundaryWatches[slot]!.since! += step
        }
        approach.shiftTimeBase(by: step)
        speedRule.shiftTimeBase(by: step)
        for slot in speedRule.watched.slots where speedRule.episodes[slot]?.latestFix != nil { changed.insert(slot) }
        schedules.shiftTimeBase()
    }

    /// Applies one fix; returns the events it caused, in order.
    mutating func process(_ fix: Fix) -> [RegionEvent] {
        processInPlace(fix)
        return eventsCaused
    }

    /// Applies one fix; leaves the events it caused, in order, in `events`.
    private mutating func processInPlace(_ fix: Fix) {
        if !events.isEmpty || events.capacity > 4096 { events.removeAll(keepingCapacity: events.capacity <= 4096) }
        if let last = lastObservation, fix.timestamp < last { return }  // out of order: ignored
        guard let point = Self.usablePoint(of: fix, maximumAccuracy: configuration.maximumAccuracy) else {
            observeWithoutFix(at: fix.timestamp)
            return
        }
        lastObservation = fix.timestamp
        checkOutage(at: fix.timestamp)
        advanceFixNumber()
        let accuracy = fix.horizontalAccuracy ?? 0
        if !schedules.isEmpty { schedules.advance(to: fix.timestamp) }

        var segmentHits: UnsafeMutableBufferPointer<gf_hit>?
        // The last usable fix's time alone is read here, and the segment's start from `lastUsable` itself: binding
        // the whole tuple copied the fix at every fix.
        if !inOutage, let previousTime = lastUsable?.fix.timestamp,
           fix.timestamp.timeIntervalSince(previousTime) <= configuration.maximumInterpolationGap {
            segmentHits = interpolatePassesFromLastUsable(to: (fix, point), accuracy: accuracy)
        }
        // The fences holding the fix: after a segment query (most fixes of a drive), its hits with a distance of at
        // most 0, since it asked at the fix (with a margin: the hits beyond it are this fix's fences within the
        // margin, not holding it); the distances are the fix's. A fix without one (far from the last) asks with
        // margin 0. Their order is the index order either way. The rules read a hit's distance as a query's (but for
        // the depth of a fix deep inside a polygon, a lower bound that grows with the margin: the rules read it only
        // for a region not yet inside, which `depth` measures again). Nothing below queries the main table again, so
        // the hits stay valid.
        let hits = segmentHits ?? table.hits(at: point, marginMillimetres: 0, following: .fixes)
        for hit in hits where hit.distance_mm <= 0 {
            judgeFixHit(hit.handle, Int64(hit.distance_mm), at: point, fix: fix, accuracy: accuracy)
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
        for slot in seen { regions.flags[Int(slot)].seenAtFix = false }
        if !seen.isEmpty || seen.capacity > 4096 { seen.removeAll(keepingCapacity: seen.capacity <= 4096) }
        if approach.isActive { reportApproaches(at: fix, point: point) }
        if dwelling.count > 0 { reportDwells(at: fix, point: point) }
        if requested.count > 0 { answerRequests(at: fix, point: point) }
        if schedules.opened.count > 0 { reportOpenedWindows(at: fix, point: point) }
        if speedRule.limitedRegions > 0 {
            let speed = ruleSpeed(of: fix)
            if speedRule.watched.count > 0 { reportOverspeeds(at: fix, point: point, speed: speed) }
        }
        lastUsable = (fix, point)
        inOutage = false
    }

    /// Judges a fence the fix lies in (signed distance `millimetres`, at most 0), and marks it seen.
    private mutating func judgeFixHit(_ handle: gf_handle, _ millimetres: Int64, at point: gf_point, fix: Fix,
                                      accuracy: Double) {
        let slot = recordSlot(of: handle)
        regions.flags[slot].seenAtFix = true
        seen.append(Int32(slot))
        let distance = depth(of: slot, hit: Double(millimetres) / 1000, at: point, accuracy: accuracy)
        judge(slot, distance: distance, at: point, fix: fix, accuracy: accuracy)
    }

    /// `events`, for returning: the empty array's shared storage when there are none (most fixes), which the caller
    /// holds without the retain that sharing `events`' own buffer costs.
    private var eventsCaused: [RegionEvent] { events.isEmpty ? [] : events }

    /// A time without a usable fix (gpsd mode 0/1, a fix too inaccurate): only the outage rule can act.
    mutating func processNoFix(at time: Date) -> [RegionEvent] {
        if !events.isEmpty || events.capacity > 4096 { events.removeAll(keepingCapacity: events.capacity <= 4096) }
        if let last = lastObservation, time < last { return [] }
        observeWithoutFix(at: time)
        return eventsCaused
    }

    /// The next usable fix's number: the marks of the events since the last one (`RegionFlags.eventAtFix`) go.
    /// Inlined: most fixes have no marks to clear, and the call cost more than that test.
    @inline(__always)
    private mutating func advanceFixNumber() {
        fixNumber += 1
        if !spoke.isEmpty { clearEventMarks() }  // emptied only here, so never empty with a capacity over 4096
    }

    private mutating func clearEventMarks() {
        for slot in spoke { regions.flags[Int(slot)].eventAtFix = false }
        spoke.removeAll(keepingCapacity: spoke.capacity <= 4096)
    }

    private mutating func observeWithoutFix(at time: Date) {
        lastObservation = time
        checkOutage(at: time)
    }

    /// Static rather than a method: called from a mutating one, a method of this large struct made the compiler copy
    /// all of `self` for the call at every fix.
    private static func usablePoint(of fix: Fix, maximumAccuracy: Double) -> gf_point? {
        // A negative accuracy is CoreLocation's mark of an invalid position; NaN and too-large ones are unusable too.
        if let accuracy = fix.horizontalAccuracy, !(accuracy >= 0 && accuracy <= maximumAccuracy) {
            return nil
        }
        return CoreFenceTable.point(fix.coordinate)
    }

    /// Starts an outage when the last usable fix is older than the timeout: every known state becomes unknown.
    /// Inlined: the test is a few instructions at every observation, the outage (out of line) rare.
    @inline(__always)
    private mutating func checkOutage(at time: Date) {
        guard !inOutage, let lastTime = lastUsable?.fix.timestamp,
              time.timeIntervalSince(lastTime) > configuration.outageTimeout else { return }
        startOutage(at: time, lastFix: lastUsable!.fix)
    }

    private mutating func startOutage(at time: Date, lastFix last: Fix) {
        inOutage = true
        for slot in 0..<regions.slotCount {
            let flags = regions.flags[slot]
            guard flags.isOccupied, flags.state != .unknown else { continue }
            setState(slot, .unknown, since: time)
            guard configuration.reportsDetermination(of: .unknown, before: flags.state) else { continue }
            emit(.determined, slot, state: .unknown, time: time, at: last.coordinate, distance: nil)
        }
    }

    // MARK: - Bookkeeping

    mutating func setState(_ slot: Int, _ state: RegionState, since time: Date) {
        regions.flags[slot].state = state
        if state != .unknown { regions.flags[slot].lastKnownState = state }
        boundaryWatches[Int32(slot)] = nil  // it counts from the side of the state
        changed.insert(slot)
        switch state {
        case .inside:
            inside.insert(slot)
            undetermined.remove(slot)
            insideSince[Int32(slot)] = time
            if approach.isActive { approach.entered(regionSlot: slot) }
            if let speedLimit = regions.speedLimit(slot) { speedRule.watch(slot, speedLimit) }
        case .outside:
            inside.remove(slot)
            undetermined.remove(slot)
            insideSince[Int32(slot)] = nil
            regions.flags[slot].dwellReported = false
        case .unknown:
            inside.remove(slot)
            undetermined.insert(slot)
        }
        updateDwelling(slot)
    }

    /// Keeps `dwelling` = inside, with a dwell time, not yet reported.
    mutating func updateDwelling(_ slot: Int) {
        let flags = regions.flags[slot]
        guard flags.isOccupied else { return }
        if flags.state == .inside, regions.dwellTime(slot) != nil, !flags.dwellReported {
            dwelling.insert(slot)
        } else {
            dwelling.remove(slot)
        }
    }

    mutating func emit(
        _ kind: RegionEvent.Kind, _ slot: Int, state: RegionState, time: Date, at coordinate: Coordinate,
        distance: Double?, inferred: Bool = false, interpolated: Bool = false, crossedAt: Date? = nil,
        maximumSpeed: Double? = nil, overLimitDuration: Double? = nil
    ) {
        // An approach or an overspeed reports no state change: it neither stands for this fix's transition nor
        // answers a state request.
        if kind != .approach, kind != .overspeed, kind != .overspeedEnd, !regions.flags[slot].eventAtFix {
            regions.flags[slot].eventAtFix = true
            spoke.append(Int32(slot))
        }
        // A region outside its schedule's windows reports nothing (its state goes on silently), but the end of an
        // overspeed the closing window cut short.
        if !schedules.isEmpty, kind != .overspeedEnd, !schedules.isActive(slot) { return }
        let event = RegionEvent(
            sequence: nextSequence, kind: kind, region: regions.region(slot), state: state, time: time,
            crossedAt: crossedAt, coordinate: coordinate, distance: distance, inferred: inferred,
            interpolated: interpolated, maximumSpeed: maximumSpeed, overLimitDuration: overLimitDuration)
        nextSequence &+= 1  // wraps after 2^64 - 1 instead of trapping (a restored store may start anywhere)
        events.append(event)
    }

    /// A determination for each region whose schedule window opened at this fix, with its state after the fix's
    /// transitions, unless the fix already reported one for it or the region is still undetermined (its first
    /// determination comes as usual). With `determinations = .insideOnly` only the regions inside: a window opening
    /// is a first determination for its listeners.
    mutating func reportOpenedWindows(at fix: Fix, point: gf_point) {
        for slot in schedules.opened.slots {
            let flags = regions.flags[slot]
            guard flags.isOccupied, !flags.eventAtFix, flags.state != .unknown,
                  configuration.reportsDetermination(of: flags.state, before: .unknown) else { continue }
            emit(.determined, slot, state: flags.state, time: fix.timestamp, at: fix.coordinate,
                 distance: distanceFromBoundary(point, slot))
        }
        schedules.clearOpened()
    }
}
