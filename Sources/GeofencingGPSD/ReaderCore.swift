import Foundation
import Geofencing

/// The calls the reader makes, by C name: each goes through `LibGPS.call`, the one place where failures become a
/// `GPSDError` and where tests inject faults.
enum LibGPSFunction: String, Sendable, Hashable, CaseIterable {
    case open = "gps_open"
    case stream = "gps_stream"
    case read = "gps_read"
    case close = "gps_close"
    case fcntl = "fcntl"
    case poll = "poll"
    case peek = "recv"
}

/// Debug builds only: tests make a call fail. Asked before each call; a non-nil result makes the call fail with
/// that code (negative: a libgps code such as -6, positive: an errno, 0: the end of the connection for `gps_read`)
/// without calling it. `gps_close` always runs, so an injected failure never leaks the descriptor.
typealias LibGPSFaultHook = @Sendable (LibGPSFunction) -> Int32?

/// The state a `GPSDSource` shares with its reader thread: the streams' continuations, the connection state, the
/// counters and the stop request. Every field of `Shared` is read and written under the lock; the continuations
/// are thread-safe on their own and are fed by the reader thread only, so the states arrive in order.
final class ReaderCore: Sendable {
    let configuration: GPSDConfiguration
    let observationSink: AsyncStream<Observation>.Continuation
    let stateSink: AsyncStream<GPSDConnectionState>.Continuation
    let shared = Locked(Shared())

    struct Shared {
        var phase = Phase.idle
        var stopRequested = false
        /// Wakes the reader from its waits when a stop is requested; open while the reader runs, closed by the
        /// reader when it finishes, under this lock (which `requestStop` signals under).
        var wake: WakeSignal?
        var state = GPSDConnectionState.idle
        var statistics = GPSDStatistics()
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        #if DEBUG
        var faultHook: LibGPSFaultHook?
        #endif
    }

    enum Phase { case idle, running, finished }

    init(
        configuration: GPSDConfiguration, observationSink: AsyncStream<Observation>.Continuation,
        stateSink: AsyncStream<GPSDConnectionState>.Continuation
    ) {
        self.configuration = configuration
        self.observationSink = observationSink
        self.stateSink = stateSink
    }

    /// Marks the reader running and opens its wake signal; false if it already ran (or was stopped before).
    func beginRunning() throws(GPSDError) -> Bool {
        try shared.withLock { (shared) throws(GPSDError) -> Bool in
            guard case .idle = shared.phase, !shared.stopRequested else { return false }
            do throws(WakeSignal.Failure) {
                shared.wake = try WakeSignal()
            } catch {
                throw .callFailed(function: "pipe", code: error.code, message: String(cString: strerror(error.code)))
            }
            shared.phase = .running
            return true
        }
    }

    var isStopRequested: Bool { shared.withLock { $0.stopRequested } }

    /// Asks the reader to stop and wakes it; finishes at once if it never started. Never blocks on the reader.
    func requestStop() {
        let finishNow = shared.withLock { shared -> Bool in
            shared.stopRequested = true
            shared.wake?.signal()
            if case .idle = shared.phase { return true }
            return false
        }
        if finishNow { finish() }
    }

    /// The reader's last act (or `requestStop`'s before a start): closes the wake signal, publishes `.stopped`,
    /// ends both streams and resumes `waitUntilStopped` callers.
    func finish() {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>]? in
            if case .finished = shared.phase { return nil }
            shared.phase = .finished
            shared.wake?.close()
            shared.wake = nil
            shared.state = .stopped
            defer { shared.stopWaiters = [] }
            return shared.stopWaiters
        }
        guard let waiters else { return }
        stateSink.yield(.stopped)
        stateSink.finish()
        observationSink.finish()
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = shared.withLock { shared -> Bool in
                if case .finished = shared.phase { return true }
                shared.stopWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    func publish(_ state: GPSDConnectionState) {
        shared.withLock { $0.state = state }
        stateSink.yield(state)
    }

    func count(_ update: (inout GPSDStatistics) -> Void) {
        shared.withLock { update(&$0.statistics) }
    }

    /// Passes an observation on; counts it if the consumer is `bufferLimit` behind and the oldest is dropped.
    func deliver(_ observation: Observation) {
        if case .dropped = observationSink.yield(observation) {
            count { $0.droppedObservations += 1 }
        }
    }

    /// The wake signal's descriptor to poll on, -1 once closed.
    var wakeDescriptor: Int32 { shared.withLock { $0.wake?.readDescriptor ?? -1 } }

    #if DEBUG
    var faultHook: LibGPSFaultHook? {
        get { shared.withLock { $0.faultHook } }
        set { shared.withLock { $0.faultHook = newValue } }
    }
    #endif
}
