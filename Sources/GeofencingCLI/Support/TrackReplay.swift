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
        let monitor = try RegionMonitor(configuration: configuration)
        for region in regions {
            do throws(RegionMonitorError) {
                try monitor.startMonitoringOrThrow(for: region)
            } catch {
                failures.append((region, error))
            }
        }
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
