import Foundation
import Geofencing

/// A `RegionMonitor` delegate that keeps what the monitor reports until it is taken, so a command can feed a fix and
/// then handle that fix's events in order on its own thread (the delegate is called synchronously inside
/// `process(_:)`).
final class EventCollector: RegionMonitorDelegate, @unchecked Sendable {
    // @unchecked: `events` and `failures` are only touched under `lock`.
    private let lock = NSLock()
    private var events: [RegionEvent] = []
    private var failures: [(region: Region, error: RegionMonitorError)] = []

    /// Removes and returns the events reported since the last call, in order.
    func takeEvents() -> [RegionEvent] {
        lock.lock()
        defer { lock.unlock() }
        let taken = events
        events.removeAll(keepingCapacity: true)
        return taken
    }

    /// Removes and returns the regions the monitor refused since the last call.
    func takeFailures() -> [(region: Region, error: RegionMonitorError)] {
        lock.lock()
        defer { lock.unlock() }
        let taken = failures
        failures.removeAll()
        return taken
    }

    private func append(_ event: RegionEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {
        append(event)
    }

    func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent) {
        append(event)
    }

    func regionMonitor(_ monitor: RegionMonitor, didDwellIn region: Region, event: RegionEvent) {
        append(event)
    }

    func regionMonitor(_ monitor: RegionMonitor, didApproach region: Region, event: RegionEvent) {
        append(event)
    }

    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
        append(event)
    }

    func regionMonitor(
        _ monitor: RegionMonitor, monitoringDidFailFor region: Region, withError error: RegionMonitorError
    ) {
        lock.lock()
        failures.append((region, error))
        lock.unlock()
    }
}
