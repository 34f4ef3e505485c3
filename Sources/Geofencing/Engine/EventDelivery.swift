/// Hands the monitor's events to its delegate and to every event stream, one at a time, in the order they were
/// enqueued, with no monitor lock held during a callback.
///
/// Whoever enqueues events also tries to drain: if another thread (or an outer frame of this one, when a callback
/// calls back into the monitor) is already draining, the events are left for that drainer, which delivers them after
/// the callback in progress. So order is kept and a re-entrant callback cannot deadlock.
final class EventDelivery: Sendable {
    private struct WeakDelegate {
        weak var value: (any RegionMonitorDelegate)?
    }

    private struct State {
        var queue: [MonitorEvent] = []
        var draining = false
        var delegate = WeakDelegate()
        var streams: [Int: AsyncStream<MonitorEvent>.Continuation] = [:]
        var nextStreamID = 0
    }

    private let state = Locked(State())

    var delegate: (any RegionMonitorDelegate)? {
        get { state.withLock { $0.delegate.value } }
        set { state.withLock { $0.delegate.value = newValue } }
    }

    /// A new stream that receives every event delivered from now on (unbounded buffer: nothing is dropped).
    func makeStream() -> AsyncStream<MonitorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MonitorEvent.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextStreamID
            state.nextStreamID += 1
            state.streams[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Appends events in order. Cheap; callers hold their own lock while enqueueing so that the queue order is the
    /// order in which the events happened.
    func enqueue(_ events: some Sequence<MonitorEvent>) {
        state.withLock { $0.queue.append(contentsOf: events) }
    }

    /// Delivers everything enqueued, unless someone else is already doing so. Call with no lock held.
    func drain(from monitor: RegionMonitor) {
        let claimed = state.withLock { state -> Bool in
            if state.draining || state.queue.isEmpty { return false }
            state.draining = true
            return true
        }
        guard claimed else { return }
        var batch: [MonitorEvent] = []
        while true {
            let (delegate, streams) = state.withLock { state in
                swap(&batch, &state.queue)
                if batch.isEmpty { state.draining = false }
                return (state.delegate.value, Array(state.streams.values))
            }
            if batch.isEmpty { return }
            for event in batch {
                for stream in streams { stream.yield(event) }
                if let delegate { Self.call(delegate, with: event, from: monitor) }
            }
            batch.removeAll(keepingCapacity: batch.capacity <= 4096)
        }
    }

    /// Finishes every stream (the monitor is going away).
    func finish() {
        let streams = state.withLock { state in
            let streams = Array(state.streams.values)
            state.streams.removeAll()
            return streams
        }
        for stream in streams { stream.finish() }
    }

    private static func call(_ delegate: any RegionMonitorDelegate, with event: MonitorEvent, from monitor: RegionMonitor) {
        switch event {
        case .region(let regionEvent):
            let region = regionEvent.region
            switch regionEvent.kind {
            case .enter: delegate.regionMonitor(monitor, didEnterRegion: region, event: regionEvent)
            case .exit: delegate.regionMonitor(monitor, didExitRegion: region, event: regionEvent)
            case .dwell: delegate.regionMonitor(monitor, didDwellIn: region, event: regionEvent)
            case .approach: delegate.regionMonitor(monitor, didApproach: region, event: regionEvent)
            case .overspeed: delegate.regionMonitor(monitor, didExceedSpeedLimitIn: region, event: regionEvent)
            case .overspeedEnd: delegate.regionMonitor(monitor, didEndOverspeedIn: region, event: regionEvent)
            case .determined:
                delegate.regionMonitor(monitor, didDetermineState: regionEvent.state, for: region, event: regionEvent)
            }
        case .didStartMonitoring(let region):
            delegate.regionMonitor(monitor, didStartMonitoringFor: region)
        case .monitoringDidFail(let region, let error):
            delegate.regionMonitor(monitor, monitoringDidFailFor: region, withError: error)
        }
    }
}
