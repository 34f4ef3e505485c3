// Test support: a monitor wired to an EventRecorder, the setup nearly every test starts from.
import Foundation
import Geofencing

/// A `RegionMonitor` whose delegate is an `EventRecorder` (held here: the monitor holds its delegate weakly).
struct MonitorHarness {
    let monitor: RegionMonitor
    let recorder: EventRecorder

    init(configuration: MonitorConfiguration = MonitorConfiguration(), reaction: EventRecorder.Reaction? = nil) throws {
        monitor = try RegionMonitor(configuration: configuration)
        recorder = EventRecorder(reaction: reaction)
        monitor.delegate = recorder
    }

    /// Starts each region through the reporting API (failures go to the recorder).
    func start(_ regions: Region...) {
        for region in regions { monitor.startMonitoring(for: region) }
    }

    /// Feeds fixes in order.
    func feed(_ fixes: [Fix]) {
        for fix in fixes { monitor.process(fix) }
    }

    var regionEvents: [RegionEvent] { recorder.regionEvents }

    func events(of identifier: String) -> [RegionEvent] { recorder.events(of: identifier) }

    func transitions(of identifier: String) -> [RegionEvent] { recorder.transitions(of: identifier) }

    /// The region events that happened at or after `time` (to look at what a later part of a track caused).
    func events(of identifier: String, from time: Date) -> [RegionEvent] {
        events(of: identifier).filter { $0.time >= time }
    }
}

extension Region {
    /// A region centred on `center` (Brisbane GPO unless told), the default shape of hand-made tests.
    static func test(
        _ identifier: String, radius: Double = 100, center: Coordinate = .brisbane, dwellTime: Double? = nil,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, hysteresis: Double? = nil
    ) -> Region {
        Region(
            center: center, radius: radius, identifier: identifier, notifyOnEntry: notifyOnEntry,
            notifyOnExit: notifyOnExit, dwellTime: dwellTime, hysteresis: hysteresis)
    }
}

extension RegionEvent {
    /// "#12 enter stop-1 inside t+14.000s d=-17.7 inferred": for failure messages and printed logs.
    var summary: String {
        let seconds = time.timeIntervalSince(TrackBuilder.epoch)
        let offset = String(format: "%.3f", seconds)
        var text = "#\(sequence) \(kind.rawValue) \(regionIdentifier) \(state.rawValue) t+\(offset)s"
        if let distance { text += " d=\(String(format: "%.1f", distance))" }
        if inferred { text += " inferred" }
        if interpolated { text += " interpolated" }
        return text
    }
}

extension Array where Element == RegionEvent {
    /// One event per line, for `#expect` comments.
    var summary: String { isEmpty ? "(no events)" : map(\.summary).joined(separator: "\n") }

    var kinds: [RegionEvent.Kind] { map(\.kind) }
}

/// Every event of a stream until it ends. A stream ends when its monitor is deallocated, so the caller must have
/// released every strong reference to the monitor, or this waits forever (hence the time limits on those tests).
func collectUntilEnd(_ stream: AsyncStream<MonitorEvent>) async -> [MonitorEvent] {
    var events: [MonitorEvent] = []
    for await event in stream { events.append(event) }
    return events
}
