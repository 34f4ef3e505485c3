import Foundation
import GeofencingSinks
import GeofencingStore

/// Delivers one sink's events from the store's outbox, on a thread of its own, in sequence order, at least once:
/// the sink's delivery cursor moves only past events the sink has accepted, so a crash repeats at most the events
/// of one batch (up to `batchSize`) after a restart (consumers drop repeats by `seq`) and never skips one.
///
/// A sink that fails (a command exiting non-zero, an MQTT broker away) keeps its events queued in the store; the
/// worker logs the failure (again only when the sink's `SinkError.state` changes) and retries after a wait that
/// doubles from 0.25 s up to 30 s. Sinks are independent: a
/// broker away holds back neither standard output nor `--exec`.
final class DeliveryWorker: @unchecked Sendable {
    // @unchecked: `sink` and the store connection are used only on the worker's thread (but `interrupt()`, which
    // any thread may call); the flags only under `condition`.
    private let sink: any EventSink
    private let storePath: String
    private let condition = NSCondition()
    private var wakeRequested = false
    private var draining = false
    private var finished = false
    /// Set by `abandon`: stop at once, whatever is queued.
    private var abandoned = false
    /// Batches delivered so far: a drain waits while this grows.
    private var batches = 0
    private var thread: Thread?

    static let batchSize = 64
    static let maximumBackoff = 30.0

    let name: String

    init(sink: any EventSink, storePath: String) {
        self.sink = sink
        self.name = sink.name
        self.storePath = storePath
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "delivery \(name)"
        self.thread = thread
        thread.start()
    }

    /// New events are in the store.
    func wake() {
        condition.lock()
        wakeRequested = true
        condition.signal()
        condition.unlock()
    }

    /// Asks the worker to deliver what is queued and stop; waits for as long as it makes progress, and gives up
    /// after `timeout` seconds without a delivered batch. Returns whether it finished (false: the sink is failing
    /// or stuck; the rest stays queued for the next start).
    func drainAndStop(timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        draining = true
        condition.broadcast()
        var progress = batches
        var deadline = Date(timeIntervalSinceNow: timeout)
        while !finished {
            if !condition.wait(until: deadline) {
                guard batches > progress else { break }
                progress = batches
                deadline = Date(timeIntervalSinceNow: timeout)
            }
        }
        return finished
    }

    private func run() {
        var backoff = 0.25
        var store: GeofenceStore?
        var failing = false
        /// The `SinkError.state` last logged: a failing sink is logged again when its state changes (the broker's
        /// certificate replaced by a refused password), not at every retry.
        var failingState: String?
        // The last event the sink accepted in this process; nil before the first. It runs ahead of the stored
        // cursor when the cursor cannot be written (a full or read-only file system): the next batches start after
        // it, so nothing is delivered again meanwhile (a restart repeats what the stored cursor had not passed, as
        // after a crash), and the stored cursor is written again at each new batch.
        var accepted: UInt64?
        var cursorFailing = false
        /// Writes the cursor; a failure is logged once and leaves `accepted` to keep the place.
        func recordCursor(_ sequence: UInt64) {
            do {
                try store?.markDelivered(sink: name, through: sequence)
                if cursorFailing { Console.error("geofence run: sink \(name): delivery cursor recorded again") }
                cursorFailing = false
            } catch {
                if !cursorFailing {
                    Console.error("geofence run: sink \(name): cannot record the delivery cursor (\(error)); "
                        + "delivered events are not sent again before a restart")
                }
                cursorFailing = true
            }
        }
        while !isDone() {
            do {
                if store == nil { store = try GeofenceStore(path: storePath, create: false) }
                let batch = try accepted.map { try store!.events(after: $0, limit: Self.batchSize) }
                    ?? store!.undelivered(sink: name, limit: Self.batchSize)
                if batch.isEmpty {
                    if isDraining() { break }  // everything queued is delivered
                    waitForWork(upTo: 1)
                    continue
                }
                // The cursor moves once per batch (one fsync'd commit per batch, not per event); a sink that fails
                // part-way still gets the cursor moved past what it accepted.
                var delivered: UInt64?
                defer {
                    if let delivered {
                        accepted = delivered
                        recordCursor(delivered)
                    }
                }
                // A buffering sink (standard output) has handed the batch over only once flushed: one write per
                // batch, which is at least once per fix that stored events.
                var passed: UInt64?
                do {
                    for event in batch {
                        try sink.deliver(event)
                        passed = event.sequence
                    }
                } catch {
                    if (try? sink.flush()) != nil { delivered = passed }
                    throw error
                }
                try sink.flush()
                delivered = passed
                condition.lock()
                batches += 1
                condition.unlock()
                if failing { Console.error("geofence run: sink \(name): delivering again") }
                failing = false
                failingState = nil
                backoff = 0.25
            } catch {
                let state = (error as? SinkError)?.state
                if !failing || (state != nil && state != failingState) {
                    Console.error("geofence run: sink \(name): \(error); events stay queued, retrying")
                }
                failing = true
                failingState = state
                // At shutdown too the sink is retried: drainAndStop decides when to stop waiting for it.
                waitForWork(upTo: backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
        sink.close()
        store = nil
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Gives up on what is still queued (after `drainAndStop` returned false): the delivery in progress is
    /// interrupted (a command still running is stopped: `ExecSink.terminationGrace`), the thread ends, and this
    /// waits up to `timeout` seconds for it. Returns whether the thread ended.
    func abandon(timeout: Double) -> Bool {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
        sink.interrupt()
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !finished && condition.wait(until: deadline) {}
        return finished
    }

    private func isDone() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished || abandoned
    }

    private func isDraining() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return draining
    }

    private func waitForWork(upTo seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !wakeRequested && !draining && !abandoned && condition.wait(until: deadline) {}
        wakeRequested = false
    }
}
