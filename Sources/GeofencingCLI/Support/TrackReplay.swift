import Foundation
import Geofencing
import GeofencingEvents
import GeofencingMap
import GeofencingStore

/// Replays observations through a fresh `RegionMonitor`: the events, and the track marked inside/outside for the
/// map. Shared by `replay`, `demo` and `map`, so they all show what the daemon would have reported (`replay` with
/// the daemon's determinations by default; `demo` and `map` with every region's, the library's default).
struct TrackReplay {
    var events: [EventRecord] = []
    var track: [MapTrackPoint] = []
    /// Regions the monitor refused, with the reason (the fence readers validate first, so normally none).
    var failures: [(region: Region, error: RegionMonitorError)] = []
    /// What the monitor's GNSS time guard dropped, adopted and held (see `RegionMonitor.timeStatistics`).
    var timeStatistics = GNSSTimeStatistics()

    /// - Parameters:
    ///   - onRefusal: called, before any event, for each region the monitor refuses.
    ///   - onTime: called after each observation with the time guard's statistics (to warn as they change).
    ///   - onEvents: called with each fix's events as they happen, once per fix that caused any (to print while
    ///     replaying a long log, one write per fix).
    init(
        regions: [Region], observations: [Observation],
        configuration: MonitorConfiguration = MonitorConfiguration(),
        onRefusal: (Region, RegionMonitorError) -> Void = { _, _ in },
        onTime: ((GNSSTimeStatistics) -> Void)? = nil,
        onEvents: ([EventRecord]) -> Void = { _ in }
    ) throws {
        var configuration = configuration
        configuration.capacity = max(1, regions.count)
        // Nothing is stored: a first fix over 10^6 regions builds no dictionary of their records.
        configuration.returnsChangedStates = false
        let monitor = try RegionMonitor(configuration: configuration)
        // All at once (the monitor's tables sized once for all of them, not grown as they come); the refusals come
        // to the delegate, in order, before the call returns.
        let refusals = RefusalCollector()
        monitor.delegate = refusals
        monitor.startMonitoring(regions)
        monitor.delegate = nil
        failures = refusals.failures.withLock { $0 }
        for failure in failures { onRefusal(failure.region, failure.error) }

        // Regions inside, from the events: one set update per event instead of asking every region at every fix.
        var inside = Set<String>()
        for observation in observations {
            let fixEvents = monitor.process(observation).events
            for event in fixEvents {
                if event.state == .inside { inside.insert(event.regionIdentifier) } else {
                    inside.remove(event.regionIdentifier)
                }
            }
            if !fixEvents.isEmpty {
                let records = fixEvents.map(EventRecord.init)
                events += records
                onEvents(records)
            }
            onTime?(monitor.timeStatistics)
            if let fix = observation.fix {
                track.append(MapTrackPoint(coordinate: fix.coordinate, time: fix.timestamp, inside: !inside.isEmpty))
            }
        }
        timeStatistics = monitor.timeStatistics
    }
}

/// Collects the regions a monitor refuses (`monitoringDidFailFor`), in the order it reports them.
private final class RefusalCollector: RegionMonitorDelegate {
    let failures = Locked<[(region: Region, error: RegionMonitorError)]>([])

    func regionMonitor(
        _ monitor: RegionMonitor, monitoringDidFailFor region: Region, withError error: RegionMonitorError
    ) {
        failures.withLock { $0.append((region, error)) }
    }
}
