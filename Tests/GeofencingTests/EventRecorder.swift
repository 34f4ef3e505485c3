// Test support: a delegate that records every callback, in order, for comparing with the event stream.
import Foundation
@testable import Geofencing

/// One delegate callback as it arrived. Keeps which method was called, so a test can check that the method
/// matches the event it carries (didEnterRegion carries an enter, and so on).
enum Callback: Sendable, Hashable {
    case enter(Region, RegionEvent)
    case exit(Region, RegionEvent)
    case dwell(Region, RegionEvent)
    case approach(Region, RegionEvent)
    case overspeed(Region, RegionEvent)
    case overspeedEnd(Region, RegionEvent)
    case determined(RegionState, Region, RegionEvent)
    case started(Region)
    case failed(Region, RegionMonitorError)

    /// The `MonitorEvent` an event stream should have received for this callback.
    var monitorEvent: MonitorEvent {
        switch self {
        case .enter(_, let event), .exit(_, let event), .dwell(_, let event), .approach(_, let event),
             .overspeed(_, let event), .overspeedEnd(_, let event), .determined(_, _, let event):
            .region(event)
        case .started(let region): .didStartMonitoring(region)
        case .failed(let region, let error): .monitoringDidFail(region, error)
        }
    }

    var regionEvent: RegionEvent? {
        if case .region(let event) = monitorEvent { event } else { nil }
    }

    /// Whether the method called fits the event passed (kind, state and region agree).
    var isConsistent: Bool {
        switch self {
        case .enter(let region, let event):
            event.kind == .enter && event.state == .inside && event.region == region
        case .exit(let region, let event):
            event.kind == .exit && event.state == .outside && event.region == region
        case .dwell(let region, let event):
            event.kind == .dwell && event.state == .inside && event.region == region
        case .approach(let region, let event):
            event.kind == .approach && event.state == .outside && event.region == region
        case .overspeed(let region, let event):
            event.kind == .overspeed && event.state == .inside && event.region == region
        case .overspeedEnd(let region, let event):
            event.kind == .overspeedEnd && event.region == region
        case .determined(let state, let region, let event):
            event.kind == .determined && event.state == state && event.region == region
        case .started, .failed:
            true
        }
    }
}

/// A `RegionMonitorDelegate` that appends every callback to a log. Sendable through the package's `Locked`: the monitor calls
/// it from whichever task caused the events. An optional `reaction` runs after recording, for delegates that call
/// back into the monitor.
final class EventRecorder: RegionMonitorDelegate {
    typealias Reaction = @Sendable (RegionMonitor, Callback) -> Void

    private let log = Locked<[Callback]>([])
    private let reaction: Reaction?

    init(reaction: Reaction? = nil) {
        self.reaction = reaction
    }

    /// Every callback so far, in arrival order.
    var callbacks: [Callback] { log.withLock { $0 } }

    /// The region events (enter, exit, dwell, approach, determined) so far, in arrival order.
    var regionEvents: [RegionEvent] { callbacks.compactMap(\.regionEvent) }

    /// What an event stream should have seen.
    var monitorEvents: [MonitorEvent] { callbacks.map(\.monitorEvent) }

    /// The region events of one region.
    func events(of identifier: String) -> [RegionEvent] {
        regionEvents.filter { $0.regionIdentifier == identifier }
    }

    /// The enter and exit events of one region.
    func transitions(of identifier: String) -> [RegionEvent] {
        events(of: identifier).filter { $0.kind == .enter || $0.kind == .exit }
    }

    private func record(_ callback: Callback, from monitor: RegionMonitor) {
        log.withLock { $0.append(callback) }
        reaction?(monitor, callback)
    }

    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {
        record(.enter(region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent) {
        record(.exit(region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didDwellIn region: Region, event: RegionEvent) {
        record(.dwell(region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didApproach region: Region, event: RegionEvent) {
        record(.approach(region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didExceedSpeedLimitIn region: Region, event: RegionEvent) {
        record(.overspeed(region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didEndOverspeedIn region: Region, event: RegionEvent) {
        record(.overspeedEnd(region, event), from: monitor)
    }

    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
        record(.determined(state, region, event), from: monitor)
    }

    func regionMonitor(_ monitor: RegionMonitor, didStartMonitoringFor region: Region) {
        record(.started(region), from: monitor)
    }

    func regionMonitor(
        _ monitor: RegionMonitor, monitoringDidFailFor region: Region, withError error: RegionMonitorError
    ) {
        record(.failed(region, error), from: monitor)
    }
}
