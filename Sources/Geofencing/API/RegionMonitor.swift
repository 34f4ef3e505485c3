import Foundation

/// Monitors circular regions against a stream of GNSS fixes: CoreLocation's region monitoring for Linux vehicle
/// units, without its limits (a million regions, no added latency, events that neither flap nor go missing).
///
/// ```swift
/// let monitor = try RegionMonitor()
/// monitor.delegate = self
/// monitor.startMonitoring(for: Region(center: stop, radius: 100, identifier: "stop-1234"))
/// for fix in fixes { monitor.process(fix) }            // from gpsd, a log, the simulator
/// for await event in monitor.events { ... }            // or the same events as a stream
/// let events = monitor.process(fix).events             // or those of one fix, returned
/// ```
///
/// Threading: the monitor is `Sendable`. One task feeds fixes while others start and stop regions; every call takes
/// one lock for its own work, then delivers the events it caused (to the delegate and every stream, in one order)
/// with no lock held. See `RegionMonitorDelegate` for re-entrant callbacks.
///
/// Order: the events an observation causes form one run in the monitor's event order, with no other call's events
/// between them. `process(_:)` returns them in that order (`ObservationOutcome.events`), the delegate's callbacks
/// come in that order, and every stream yields them in that order: the returned array, the delegate's calls and a
/// stream's elements for one observation are the same events, in the same order, with the same sequence numbers.
///
/// Event rules (hysteresis, accuracy, outages, interpolated passes, dwell): see `MonitorConfiguration` and README.md.
public final class RegionMonitor: Sendable {
    /// The largest radius accepted, in metres: the bound of the core's accuracy contract.
    public static let maximumRegionMonitoringDistance: Double = 50_000

    /// The largest radius accepted, in metres (as `CLLocationManager.maximumRegionMonitoringDistance`).
    public var maximumRegionMonitoringDistance: Double { Self.maximumRegionMonitoringDistance }

    public let configuration: MonitorConfiguration
    private let engine: Locked<MonitorEngine>
    private let delivery = EventDelivery()

    /// Creates a monitor. Throws `capacityReached` for a capacity below 1 or above 16,777,215, `outOfMemory` if the
    /// core cannot allocate its table.
    public init(configuration: MonitorConfiguration = MonitorConfiguration()) throws(RegionMonitorError) {
        self.configuration = configuration
        self.engine = Locked(try MonitorEngine(configuration: configuration))
    }

    deinit {
        delivery.finish()
    }

    /// Receives the events, weakly held.
    public var delegate: (any RegionMonitorDelegate)? {
        get { delivery.delegate }
        set { delivery.delegate = newValue }
    }

    /// A new stream of every event from now on, in the order the delegate sees them (unbounded buffer: nothing is
    /// dropped). Ends when the monitor is deallocated.
    public var events: AsyncStream<MonitorEvent> { delivery.makeStream() }

    /// The regions being monitored.
    public var monitoredRegions: Set<Region> { engine.withLock { Set($0.allRegions) } }

    /// How many regions are monitored (without making `monitoredRegions`' set).
    public var monitoredRegionCount: Int { engine.withLock { $0.regionCount } }

    /// The monitored region with this identifier, nil if there is none (a lookup, without making
    /// `monitoredRegions`' set).
    public func monitoredRegion(identifier: String) -> Region? {
        engine.withLock { $0.region(identifier: identifier) }
    }

    /// The identifiers of the monitored regions, in no particular order (cheaper than `monitoredRegions` when
    /// only the names are needed: a daemon reloading 10^6 regions finds the removed ones with it).
    public var monitoredIdentifiers: [String] { engine.withLock { $0.identifiers } }

    /// The current state of a region, nil if no region has this identifier.
    public func state(for identifier: String) -> RegionState? {
        engine.withLock { $0.state(for: identifier) }
    }

    /// Starts monitoring a region, replacing a monitored one with the same identifier (keeping its state, so a
    /// vehicle the new shape still contains sees no exit and enter). Reports `didStartMonitoringFor`, or
    /// `monitoringDidFailFor` with the reason; a failure changes nothing already monitored.
    public func startMonitoring(for region: Region) {
        engine.withLock { engine in
            do throws(RegionMonitorError) {
                delivery.enqueue(try engine.start(region))
            } catch {
                delivery.enqueue([.monitoringDidFail(region, error)])
            }
        }
        delivery.drain(from: self)
    }

    /// Like `startMonitoring(for:)`, but a failure is thrown to the caller instead of reported to the delegate.
    public func startMonitoringOrThrow(for region: Region) throws(RegionMonitorError) {
        try engine.withLock { engine throws(RegionMonitorError) in delivery.enqueue(try engine.start(region)) }
        delivery.drain(from: self)
    }

    /// Starts monitoring a region with the state it had before the process stopped (a daemon restoring its store),
    /// so that a restart repeats no enter. Until the first usable fix the region's state is unknown; that fix
    /// confirms the restored state without an event (nothing changed), or, if it is past the boundary by the
    /// threshold, reports the change that happened while the process was down as an enter or exit flagged
    /// `inferred`. A restored state of `unknown` is determined as for a new region (a `determined` event). A
    /// confirmation that leaves the record as given (its `state` was its `lastKnownState`) is not reported in
    /// `ObservationOutcome.changedStates` either: a store holding 10^6 records has none to write again.
    /// Replacing a monitored region keeps its live state instead. Throws what `startMonitoringOrThrow(for:)` throws.
    ///
    /// - Parameter state: the region's record as the monitor last reported it (`ObservationOutcome.changedStates`):
    ///   its `lastKnownState`, `insideSince` and `dwellReported` are restored; its current `state` is not (the
    ///   region's state is unknown until the first usable fix).
    public func restoreMonitoring(for region: Region, state: RegionStateRecord) throws(RegionMonitorError) {
        try engine.withLock { engine throws(RegionMonitorError) in delivery.enqueue(try engine.restore(region, state)) }
        delivery.drain(from: self)
    }

    /// How many regions a bulk start or restore adds under one hold of the lock before it delivers their events and
    /// lets other calls (a fix) in: large enough that the lock and delivery cost little per region, small enough
    /// that the events waiting stay a few hundred kilobytes and a fix waits a few milliseconds at most.
    static let bulkChunk = 4096

    /// Starts monitoring every region of `regions`, in order, as `startMonitoring(for:)` each (replacing a monitored
    /// one with the same identifier; each `didStartMonitoringFor` or `monitoringDidFailFor` in that order), at a
    /// fraction of the cost per region of calling it for each: the tables are sized for them at once, and the lock
    /// is taken once per `bulkChunk` regions. A fix from another thread can come between two chunks.
    public func startMonitoring(_ regions: some Sequence<Region>) {
        inChunks(regions) { engine, chunk, events in engine.start(chunk, into: &events) }
    }

    /// Restores every region of `entries`, in order, as `restoreMonitoring(for:state:)` each, at a fraction of the
    /// cost per region (see `startMonitoring(_:)`: the same chunks under the lock). A daemon restarting with 10^6
    /// stored regions restores them with one call.
    ///
    /// - Returns: the entries refused, with what `restoreMonitoring(for:state:)` would have thrown for each; the
    ///   others are monitored.
    @discardableResult
    public func restoreMonitoring(
        _ entries: some Sequence<(region: Region, state: RegionStateRecord)>
    ) -> [(region: Region, error: RegionMonitorError)] {
        var failures: [(region: Region, error: RegionMonitorError)] = []
        inChunks(entries) { engine, chunk, events in engine.restore(chunk, into: &events, failures: &failures) }
        return failures
    }

    /// Feeds `elements` to `body` in chunks of `bulkChunk`, each under the lock, with the tables sized for all of
    /// them first; delivers each chunk's events (the ones `body` appends) after it.
    private func inChunks<Element>(
        _ elements: some Sequence<Element>,
        _ body: (inout MonitorEngine, [Element], inout [MonitorEvent]) -> Void
    ) {
        var expected = elements.underestimatedCount
        var remaining = elements.makeIterator()
        var chunk: [Element] = []
        chunk.reserveCapacity(Self.bulkChunk)
        while true {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < Self.bulkChunk, let element = remaining.next() { chunk.append(element) }
            if chunk.isEmpty { return }
            engine.withLock { engine in
                if expected > 0 { engine.reserve(expected) }
                var events: [MonitorEvent] = []
                events.reserveCapacity(chunk.count)
                body(&engine, chunk, &events)
                delivery.enqueue(events)
            }
            expected = 0
            delivery.drain(from: self)
        }
    }

    /// Stops monitoring the region with this region's identifier. Unknown identifiers are ignored.
    public func stopMonitoring(for region: Region) {
        stopMonitoring(identifier: region.identifier)
    }

    /// Stops monitoring the region with this identifier. Unknown identifiers are ignored.
    public func stopMonitoring(identifier: String) {
        engine.withLock { $0.stop(identifier: identifier) }
    }

    /// Asks for a `didDetermineState` of the region: at once with the state at the last usable fix, or after the
    /// next usable fix if there has been none.
    public func requestState(for region: Region) {
        engine.withLock { engine in
            delivery.enqueue(engine.requestState(identifier: region.identifier).lazy.map(MonitorEvent.region))
        }
        delivery.drain(from: self)
    }

    /// Feeds one fix. Events it causes are delivered before this returns (unless another thread is delivering at
    /// the same moment; it then delivers them).
    ///
    /// - Returns: the fix's events, in the order the delegate and the streams receive them, and the records of the
    ///   regions whose state it changed. A fix that changes nothing returns an empty outcome, without allocating.
    ///
    /// Time: a fix whose time jumps forward by more than `MonitorConfiguration.outageTimeout`, or goes backwards,
    /// is held until the fixes after it confirm it (`MonitorConfiguration.timeBaseConfirmation`: then it and they
    /// are processed, in order) or continue the old time (then it is dropped). Fixes still held when the input
    /// ends are never processed: nothing confirmed their time. What happened is counted in `timeStatistics`.
    @discardableResult
    public func process(_ fix: Fix) -> ObservationOutcome {
        observe { engine in engine.observe(fix) }
    }

    /// Tells the monitor the receiver had no fix at this GNSS time (gpsd mode 0 or 1), so an outage can be noticed
    /// while no positions arrive. Its time is guarded as a fix's (see `process(_:)`), and it returns what that does.
    @discardableResult
    public func processNoFix(at time: Date) -> ObservationOutcome {
        observe { engine in engine.observe(.noFix(time)) }
    }

    /// Applies an observation (`apply`: the engine's `observe`) and delivers its events: enqueued under the engine's
    /// lock (so that they keep their place in the event order), delivered after it.
    @inline(__always)
    private func observe(_ apply: (inout MonitorEngine) -> ObservationOutcome) -> ObservationOutcome {
        let outcome = engine.withLock { engine in
            let outcome = apply(&engine)
            if outcome.hasEvents { delivery.enqueue(outcome.events.lazy.map(MonitorEvent.region)) }
            return outcome
        }
        // Nothing enqueued, nothing to drain: whoever enqueued other events drains them (`EventDelivery`), so a
        // quiet fix takes no lock but the engine's.
        if outcome.hasEvents { delivery.drain(from: self) }
        return outcome
    }

    /// With `MonitorConfiguration.returnsChangedStates` false: how many regions' records changed since
    /// `clearChangedStates()` (some may have been stopped since; `changedStates(from:limit:)` leaves those out).
    public var changedStateCount: Int { engine.withLock { $0.changed.count } }

    /// With `MonitorConfiguration.returnsChangedStates` false: the current records of the regions changed since
    /// `clearChangedStates()`, the `start`th to the `start + limit - 1`th of them, by identifier. Reading them in
    /// parts (start 0, limit, 2 * limit, ... up to `changedStateCount`) gives each region once, in the same order
    /// run after run, as long as no observation and no start, restore or stop comes in between.
    public func changedStates(from start: Int, limit: Int) -> [String: RegionStateRecord] {
        engine.withLock { $0.changedStates(from: start, limit: limit) }
    }

    /// Forgets the regions changed so far (their records are stored); the next observations list their own.
    public func clearChangedStates() {
        engine.withLock { $0.changed.removeAll() }
    }

    /// What the monitor's GNSS time guard dropped, held and adopted so far.
    public var timeStatistics: GNSSTimeStatistics { engine.withLock { $0.timeStatistics } }
}
