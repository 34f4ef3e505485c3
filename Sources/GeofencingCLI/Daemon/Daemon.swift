import Foundation
import Geofencing
import GeofencingEvents
import GeofencingGPSD
import GeofencingInputs
import GeofencingSinks
import GeofencingStore

/// `geofence run`: the vehicle unit's daemon. Restores regions and their states from the store, reads fixes, and
/// for every fix stores the events it causes (with the regions' new states, in one transaction) before any sink
/// sees them; one `DeliveryWorker` per sink then delivers them at least once, in order.
///
/// What a restart (or kill -9, or a power cut) keeps: every event committed to the store is delivered, after the
/// restart if not before; sequence numbers continue without a gap (`MonitorConfiguration.firstSequence` is the
/// store's last sequence + 1); a region the vehicle was inside is restored inside, so no enter repeats, and a change
/// that happened while the daemon was down is reported on the first fix, flagged `inferred`. Events of a fix
/// whose transaction did not commit are not lost either: the stored states are still the old ones, so the next fix
/// after the restart finds the change again (as an inferred event).
final class Daemon: Sendable {
    struct Options: Sendable {
        var storePath: String
        var fencesPath: String?
        var radius: Double = 100
        /// The datum of --fences' coordinates.
        var datum: Datum = .wgs84
        /// An approach alarm for every region of --fences (stored with them).
        var approach: ApproachAlarm?
        var input: ObservationInput
        var format: EventFormat = .text
        var execCommand: [String]?
        var mqttURL: String?
        var mqttSecurity = MQTTSecurity()
        var mqttFormat = MQTTFormat.geofence
        /// How many delivered events the outbox keeps for inspection.
        var keepDelivered = 10_000
        /// How long a stop waits for the sinks to deliver what is queued.
        var drainTimeout = 10.0
        /// Seconds between two statuses on the MQTT sink's BASE/status while connected (0: at connection and on
        /// change only).
        var statusInterval = 60
        /// The largest fence set or patch taken (`FenceSetApplier`); larger ones are rejected unread, and the MQTT
        /// sink asks the broker not to send them (`MQTTSink.maximumFenceSetBytes`).
        var maxFenceSetBytes = FenceSetApplier.defaultMaximumBytes
    }

    private let options: Options
    private let reloadRequested = Flag()
    /// The MQTT sink, once made: SIGHUP has it read its files again.
    private let mqttSink = Locked<MQTTSink?>(nil)
    /// The unit's status, published by the MQTT sink.
    private let statusBoard = UnitStatusBoard()
    /// Where fence sets are applied, one at a time.
    private let fenceSetQueue = DispatchQueue(label: "geofence.fence-sets")
    /// The running monitor, for the fence-set queue to compare the store's regions with (set by `run`).
    private let runningMonitor = Locked<RegionMonitor?>(nil)
    /// The changes of the fence set applied last, read from the store on the fence-set queue, for the fix loop to
    /// make between two fixes (`ReloadPlan`); nil when there are none waiting.
    private let plannedReload = Locked<ReloadPlan?>(nil)
    /// Counts the reloads the fix loop has made: a plan read while the loop reloaded (its comparison may have seen
    /// the monitor half before, half after) is not applied; the loop reads the store itself instead.
    private let reloadGeneration = Locked(0)

    init(options: Options) {
        self.options = options
    }

    /// Asks the daemon to re-read the store's regions at the next fix (SIGHUP, after `geofence fences import`).
    func requestReload() {
        reloadRequested.set()
        mqttSink.withLock { $0?.reload() }
    }

    /// Applies a fence set or patch from the back-end (`FenceSetApplier`) on its own connection to the store, and
    /// when it changed the regions reads them back (`ReloadPlan.read`) for the fix loop to take at the next fix
    /// (states of identifiers that stay are kept, as for SIGHUP): the loop then only changes the monitor, without
    /// reading the store between two fixes. Blocks for the time of the transaction and the read: call it off the
    /// fix loop (`receiveFenceSet`). The ack goes out after the read, so a set acknowledged as applied is the one
    /// the next fix sees.
    func applyFenceSet(_ payload: [UInt8]) -> FenceSetAck {
        let store: GeofenceStore
        do { store = try GeofenceStore(path: options.storePath, create: false) } catch {
            return FenceSetAck(version: nil, status: .rejected, fences: 0,
                               error: "store \(options.storePath): \(error)")
        }
        let ack = FenceSetApplier(store: store, maximumBytes: options.maxFenceSetBytes).apply(payload)
        if ack.status == .applied {
            planReload(from: store)
            // The set's count at once (the monitor takes the set at the next fix, and then counts what it holds).
            updateStatus {
                $0.fenceSetVersion = ack.version
                $0.fences = ack.fences
            }
        }
        Console.error("geofence run: fence set \(ack.version.map(PrintableText.escaped) ?? "(unread)"): "
            + "\(ack.status.rawValue)\(ack.error.map { ": \($0)" } ?? "")")
        return ack
    }

    /// Reads what the fix loop must change in the monitor for the store's regions (on the fence-set queue); when
    /// the store cannot be read or no monitor runs yet, the loop reads the store itself at the next fix.
    private func planReload(from store: GeofenceStore) {
        guard let monitor = runningMonitor.withLock({ $0 }) else {
            reloadRequested.set()
            return
        }
        let generation = reloadGeneration.withLock { $0 }
        do {
            let plan = try ReloadPlan.read(store, against: monitor, generation: generation)
            plannedReload.withLock { $0 = plan }
        } catch {
            Console.error("geofence run: reload: cannot read the store's regions off the fix loop (\(error)); "
                + "reading them at the next fix")
            reloadRequested.set()
        }
    }

    /// Applies a message (as `applyFenceSet`) on a background queue, one message at a time in arrival order, so that
    /// neither the caller's thread (the MQTT network thread) nor the fix loop waits for it; `answer` gets the ack.
    func receiveFenceSet(_ payload: [UInt8], answer: @escaping @Sendable (FenceSetAck) -> Void) {
        fenceSetQueue.async { answer(self.applyFenceSet(payload)) }
    }

    /// Runs until the input ends or the task is cancelled (SIGTERM, SIGINT); then lets the sinks deliver what is
    /// queued (while they make progress, giving up after `drainTimeout` without any), interrupts a delivery still in
    /// progress (an `--exec` command gets SIGTERM, then SIGKILL after `ExecSink.terminationGrace`) and returns.
    func run() async throws {
        // The first line of the log says what runs: version, commit, traits (as `geofence --version`).
        Console.error("geofence run: \(Version.logLine)")
        // The whole command line is checked before the store is opened or changed: every sink is made first (the
        // command resolved in PATH, the MQTT URL parsed), then the fence file is read whole, and only then imported.
        let sinks = try makeSinks()
        let lock: StoreLock
        let store: GeofenceStore
        do {
            let regions = try options.fencesPath.map { fencesPath in
                FenceLoading.withApproach(
                    try FenceLoading.regions(from: fencesPath, defaultRadius: options.radius, datum: options.datum),
                    options.approach)
            }
            // Claimed before the store is opened, held until the daemon returns (released by deinit on a throw): a
            // second daemon on the same store stops here, before it could import --fences or give out sequence
            // numbers the first one also uses.
            do { lock = try StoreLock(storePath: options.storePath) } catch {
                throw CLIError.failure(
                    "geofence run: \(error); stop that daemon first, or give this one another --store")
            }
            store = try Self.open(options.storePath)
            if let regions, let fencesPath = options.fencesPath {
                let (added, replaced) = try storeCall { try store.upsertRegions(regions) }
                Console.error("geofence run: imported \(fencesPath): \(added) added, \(replaced) replaced")
            }
        } catch {
            for sink in sinks { sink.close() }
            throw error
        }
        defer { lock.release() }  // also keeps the lock alive to the end (a local's lifetime ends at its last use)
        let storedCount = try storeCall { try store.regionCount() }
        let configuration = try storeCall { try Self.monitorConfiguration(store: store, regions: storedCount) }
        let monitor = try RegionMonitor(configuration: configuration)
        defer { runningMonitor.withLock { $0 = nil } }
        // In chunks as read: the monitor's own records are the only lasting copy of the regions the daemon keeps.
        try storeCall { try restoreAll(from: store, count: storedCount, into: monitor) }
        // The status goes out only through the MQTT sink; its backlog is read through a connection of its own,
        // closed before the daemon's (the defer holds `store` until then).
        if options.mqttURL != nil { statusBoard.attach(storePath: options.storePath) }
        defer { withExtendedLifetime(store) { statusBoard.detach() } }
        runningMonitor.withLock { $0 = monitor }
        let fenceSetVersion = try storeCall { try store.fenceSetVersion() }
        updateStatus { [count = monitor.monitoredRegionCount] in
            $0.fences = count
            $0.fenceSetVersion = fenceSetVersion
        }
        // Fence sets from the back-end (BASE/fences): applied off the fix loop, one at a time, answered on
        // BASE/fences/ack; the monitor takes an applied set at the next fix, as after SIGHUP.
        if let sink = mqttSink.withLock({ $0 }) {
            sink.onFenceSetMessage = { [self] payload in
                receiveFenceSet(payload) { ack in sink.publishAck(ack.json) }
            }
        }
        if storedCount == 0 { Console.error("geofence run: warning: the store holds no regions (add them with --fences)") }

        let workers = try sinks.map { sink in
            try storeCall { try store.registerSink(sink.name) }
            return DeliveryWorker(sink: sink, storePath: options.storePath)
        }
        for worker in workers { worker.start() }
        Console.error("geofence run: \(storedCount) regions from \(options.storePath); reading \(options.input)")

        // What the store has not taken yet: the events in order; the regions whose records changed are listed by
        // the monitor until they are stored (`returnsChangedStates` false), and read from it in parts.
        var pending: [EventRecord] = []
        var sincePrune = 0
        var timeWarnings = GNSSTimeWarnings(command: "geofence run", configuration: configuration)
        let (source, gpsdWarnings) = try options.input.start()
        var reportWarnings = gpsdWarnings
        if let reconnecting = source as? any ReconnectingObservationSource {
            Self.logConnectionStates(of: reconnecting, name: options.input.sourceName)
        }
        for try await observation in source.erasedObservationStream() {
            reportWarnings?.check()
            // Between two fixes: a fence set's changes, read on the fence-set queue; a SIGHUP (or a plan read while
            // the loop reloaded) reads the store here.
            let plan = plannedReload.withLock { plan in
                defer { plan = nil }
                return plan
            }
            let readHere = reloadRequested.take()
            if readHere || plan != nil {
                if let plan, !readHere, plan.generation == reloadGeneration.withLock({ $0 }) {
                    apply(plan, to: monitor)
                } else {
                    reload(from: store, into: monitor)
                }
                reloadGeneration.withLock { $0 += 1 }
                updateStatus { [count = monitor.monitoredRegionCount] in $0.fences = count }
            }
            let outcome = monitor.process(observation)
            updateStatus { status in
                status.lastFixTime = observation.time
                status.lastFixMode = UnitStatus.FixMode(observation)
            }
            timeWarnings.check(monitor.timeStatistics)
            pending += outcome.events.map(EventRecord.init)
            let changedStates = monitor.changedStateCount
            guard !pending.isEmpty || changedStates > 0 else { continue }
            do {
                try store.append(pending, stateParts: Self.changedStateParts(of: monitor))
                sincePrune += pending.count
                monitor.clearChangedStates()
                if !pending.isEmpty {
                    pending.removeAll()
                    for worker in workers { worker.wake() }
                }
            } catch {
                // Disk full, store locked: events and states wait in memory, in order, and go with the next fix's.
                let what = pending.isEmpty ? "the states of \(changedStates) regions" : "\(pending.count) events"
                Console.error("geofence run: cannot store \(what) (kept, retried at the next fix): \(error)")
            }
            if sincePrune >= 1_000 {
                sincePrune = 0
                _ = try? store.pruneDelivered(keeping: options.keepDelivered)
            }
        }
        // Events still unstored at the stop (a full or read-only file system) are lost with the process: the sinks
        // get what is stored, and the exit status says that something was not.
        var unstored: CLIError?
        if !pending.isEmpty || monitor.changedStateCount > 0 {
            do {
                try store.append(pending, stateParts: Self.changedStateParts(of: monitor))
            } catch where !pending.isEmpty {
                unstored = .failure("geofence run: \(pending.count) events could not be stored before stopping: \(error)")
            } catch {
                // Only states: the next start restores the older ones, and its first fix finds the change again.
                Console.error("geofence run: the states of \(monitor.changedStateCount) regions could not be stored "
                    + "before stopping: \(error)")
            }
        }
        if let summary = GNSSTimeWarnings.summary(monitor.timeStatistics) { Console.error("geofence run: \(summary)") }
        for worker in workers { worker.wake() }
        for worker in workers where !worker.drainAndStop(timeout: options.drainTimeout) {
            Console.error("geofence run: sink \(worker.name): undelivered events stay queued for the next start")
            // A command still running gets SIGTERM, then SIGKILL after the grace: none outlives the daemon.
            if !worker.abandon(timeout: ExecSink.terminationGrace + 5) {
                Console.error("geofence run: sink \(worker.name): the delivery in progress did not end")
            }
        }
        if let sink = mqttSink.withLock({ $0 }), sink.unpublishedEvents > 0 {
            Console.error("geofence run: sink \(sink.name): \(sink.unpublishedEvents) events not published (no form "
                + "in the \(sink.format.name) format)")
        }
        if let unstored { throw unstored }
        Console.error("geofence run: stopped")
    }

    /// Opens the store for a command: `readOnly` for one that only reads, `create: false` for one that writes but
    /// must not make a new store (removing a region from a store that does not exist).
    static func open(_ path: String, readOnly: Bool = false, create: Bool = true) throws -> GeofenceStore {
        do {
            return try GeofenceStore(path: path, readOnly: readOnly, create: create)
        } catch {
            throw CLIError.failure("geofence: \(error)")
        }
    }

    private func storeCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as CLIError { throw error } catch {
            throw CLIError.failure("geofence run: store \(options.storePath): \(error)")
        }
    }

    /// Restores every stored region with its state, in the store's order, reporting each refused one. The rows
    /// are decoded on a thread of their own while the monitor restores the ones before them
    /// (`StoredRegionStream`), and go to the monitor in one `restoreMonitoring(_:)` call, which sizes its tables
    /// once for the store's count.
    private func restoreAll(from store: GeofenceStore, count: Int, into monitor: RegionMonitor) throws(StoreError) {
        let stream = StoredRegionStream(store: store, expectedCount: count)
        reportRefused(monitor.restoreMonitoring(stream))
        try stream.finish()
    }

    /// Reports each region the monitor refused to restore (`RefusalReport`: standard error, and the JSON Lines stream).
    private func reportRefused(_ refused: [(region: Region, error: RegionMonitorError)]) {
        for entry in refused {
            RefusalReport.report(entry.region, entry.error, command: "run", format: options.format)
        }
    }

    /// Applies the store's regions to the monitor, read here (`ReloadPlan`): new and changed ones restored with
    /// their stored states, removed ones stopped. One whose definition the monitor already has is left as it is:
    /// its state in the monitor is the newest (the store's is what the monitor reported, or older when storing it
    /// failed), and a large fence set that keeps most regions reloads in the time of reading it.
    func reload(from store: GeofenceStore, into monitor: RegionMonitor) {
        let plan: ReloadPlan
        do { plan = try ReloadPlan.read(store, against: monitor, generation: 0) } catch {
            Console.error("geofence run: reload: cannot read the store's regions (\(error)); keeping the current ones")
            return
        }
        apply(plan, to: monitor)
    }

    /// Makes the changes of `plan` (read against this monitor, as it still is) in the monitor.
    private func apply(_ plan: ReloadPlan, to monitor: RegionMonitor) {
        for identifier in plan.removed { monitor.stopMonitoring(identifier: identifier) }
        reportRefused(monitor.restoreMonitoring(plan.changed.lazy.map { (region: $0.region, state: $0.stateRecord) }))
        Console.error("geofence run: reloaded \(plan.storedCount) regions (\(plan.changed.count) new or changed, "
            + "\(plan.removed.count) removed)")
    }

    /// The determinations the daemon reports (and `geofence replay` by default, so that it prints what the daemon
    /// would): only those of regions found inside. A unit with 10^6 fences would otherwise store and deliver 10^6
    /// "state outside" events at its first fix, and as many after every outage; consumers learn of a region when
    /// the vehicle enters it. Every region's state is still stored (`ObservationOutcome.changedStates`), so a
    /// restart knows "outside" without an event.
    static let determinations = MonitorConfiguration.DeterminationReporting.insideOnly

    /// The daemon's monitor settings for a store holding `regions` regions (`determinations`, the sequence
    /// numbers after the store's, room for the largest fence set).
    static func monitorConfiguration(store: GeofenceStore, regions: Int) throws -> MonitorConfiguration {
        var configuration = MonitorConfiguration()
        configuration.determinations = determinations
        configuration.firstSequence = try store.lastSequence() + 1
        // The changed records stay listed in the monitor until stored (`changedStateParts`): a first fix over 10^6
        // regions is stored a part at a time, never held in one dictionary beside the monitor.
        configuration.returnsChangedStates = false
        // Room for the largest fence set the daemon may be sent while it runs (the capacity is a bound, not memory).
        configuration.capacity = min(Int(UInt32(1) << 24) - 1, max(FenceSetApplier.maximumFences, 2 * regions))
        return configuration
    }

    /// How many changed state records are read from the monitor and written at a time: a few megabytes held.
    static let statePart = 16_384

    /// The records of the regions changed since the last store, read from the monitor `statePart` at a time as
    /// the store's transaction writes them (the monitor is only changed on the fix loop, which is storing).
    static func changedStateParts(of monitor: RegionMonitor) -> some Sequence<[String: RegionStateRecord]> {
        stride(from: 0, to: monitor.changedStateCount, by: statePart).lazy.map { start in
            monitor.changedStates(from: start, limit: statePart)
        }
    }

    /// Changes the unit's status; publishes it at once when a part that is published on change changed.
    private func updateStatus(_ change: (inout UnitStatus) -> Void) {
        guard statusBoard.update(change) else { return }
        mqttSink.withLock { sink in
            if let sink { sink.publishStatus(statusBoard.json(online: true)) }
        }
    }

    private func makeSinks() throws -> [any EventSink] {
        var sinks: [any EventSink] = [options.format.standardOutputSink()]
        do {
            if let command = options.execCommand { sinks.append(try ExecSink(command: command)) }
            if let url = options.mqttURL {
                let status = MQTTStatusReporting(interval: options.statusInterval) { [statusBoard] online in
                    statusBoard.json(online: online)
                }
                let sink = try MQTTSink(
                    url: url, security: options.mqttSecurity, format: options.mqttFormat, status: status,
                    maximumFenceSetBytes: options.maxFenceSetBytes)
                if case .owntracks = options.mqttFormat {
                    Console.error("geofence run: sink \(sink.name): OwnTracks transitions for enters and exits; dwell, "
                        + "approach and state events have no OwnTracks form and are not published")
                }
                mqttSink.withLock { $0 = sink }
                sinks.append(sink)
            }
        } catch {
            throw CLIError.failure("geofence run: \(error)")
        }
        return sinks
    }

    /// Logs every connection change of a source that reconnects by itself (gpsd) as it happens, until it stops.
    private static func logConnectionStates(of source: some ReconnectingObservationSource, name: String) {
        let states = source.connectionStates
        Task.detached {
            for await state in states { Console.error("geofence run: \(name): \(state)") }
        }
    }
}

/// A flag one thread sets and another takes.
final class Flag: @unchecked Sendable {
    // @unchecked: `value` only under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    /// Returns whether the flag was set, and clears it.
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let was = value
        value = false
        return was
    }
}
