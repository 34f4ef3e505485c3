// Real data: the Brisbane car log (1 Hz, 155 s) over the 12,866 South East Queensland stops at 100 m: stable across
// runs, every enter matched by an exit (or ending inside), no flapping, and the drive does pass stops.
import Foundation
import Geofencing
import GeofencingInputs
import Testing
import GeofencingTestSupport

@Suite("Real drive: Brisbane car log over the SEQ stops",
       .enabled(if: SharedData.isAvailable("nmea/nmealog.txt", "pois/seq-stops.txt"),
                SharedData.skipMessage("nmea/nmealog.txt", "pois/seq-stops.txt")))
struct RealDriveTests {
    static let radius = 100.0

    /// Replays the log over the stops on a fresh monitor; returns what the delegate saw and the final states.
    private func replay(_ fixes: [Fix], _ stops: [Region]) throws
        -> (events: [MonitorEvent], final: [String: RegionState])
    {
        let harness = try MonitorHarness()
        for stop in stops { harness.monitor.startMonitoring(for: stop) }
        harness.feed(fixes)
        let touched = Set(harness.regionEvents.filter { $0.kind != .determined }.map(\.regionIdentifier))
        let final = Dictionary(uniqueKeysWithValues: touched.map { ($0, harness.monitor.state(for: $0) ?? .unknown) })
        return (harness.recorder.monitorEvents, final)
    }

    @Test("the log and the stops file read as expected")
    func inputs() throws {
        let log = try NMEAReader.read(path: SharedData.url("nmea/nmealog.txt").path)
        let fixes = log.observations.compactMap(\.fix)
        #expect(log.statistics.checksumFailures == 0)
        #expect(fixes.count >= 150)
        let steps = zip(fixes, fixes.dropFirst()).map { $1.timestamp.timeIntervalSince($0.timestamp) }
        #expect(steps.allSatisfy { $0 == 1 }, "1 Hz")
        let stops = try TestStops.regions(from: SharedData.url("pois/seq-stops.txt"), radius: Self.radius)
        #expect(stops.count == 12_866)
        #expect(Set(stops.map(\.identifier)).count == stops.count, "stop_id is unique")
    }

    @Test("stable across two runs, every enter matched, no flapping, at least one enter")
    func stopsAlongTheDrive() throws {
        let fixes = try NMEAReader.read(path: SharedData.url("nmea/nmealog.txt").path).observations.compactMap(\.fix)
        let stops = try TestStops.regions(from: SharedData.url("pois/seq-stops.txt"), radius: Self.radius)
        try #require(!fixes.isEmpty && !stops.isEmpty)

        let first = try replay(fixes, stops), second = try replay(fixes, stops)
        #expect(first.events == second.events, "identical events, in the same order, in both runs")
        #expect(first.final == second.final)

        let events = first.events.compactMap { if case .region(let event) = $0 { event } else { nil } }
        #expect(events.filter { $0.kind == .determined }.count == stops.count, "one first determination per stop")
        #expect(TransitionChecker().problems(in: events) == [])

        let transitions = events.filter { $0.kind == .enter || $0.kind == .exit }
        let byStop = Dictionary(grouping: transitions, by: \.regionIdentifier)
        #expect(transitions.contains { $0.kind == .enter }, "the drive passes stops")
        for (stop, stopEvents) in byStop {
            let kinds = stopEvents.map(\.kind)
            #expect(kinds.filter { $0 == .enter }.count <= 1, "\(stop) flaps: \(stopEvents.summary)")
            // Enter then exit, or an enter that ends inside; an exit alone must follow a first determination inside.
            switch kinds {
            case [.enter, .exit], [.exit]:
                #expect(first.final[stop] == .outside)
            case [.enter]:
                #expect(first.final[stop] == .inside, "\(stop) ends inside")
            default:
                Issue.record("\(stop): unexpected transitions \(stopEvents.summary)")
            }
            #expect(stopEvents.allSatisfy { !$0.inferred }, "the log has no outage")
        }

        print("Brisbane car log over \(stops.count) SEQ stops at \(Int(Self.radius)) m: \(fixes.count) fixes "
              + "\(fixes.first!.timestamp.formatted(.iso8601)) ... \(fixes.last!.timestamp.formatted(.iso8601))")
        for event in events where event.kind != .determined || event.state == .inside {
            let distance = event.distance.map { String(format: "%.1f m", $0) } ?? "-"
            let kind = event.kind == .determined ? "determined(\(event.state.rawValue))" : event.kind.rawValue
            let flags = event.interpolated ? " interpolated" : ""
            print("  stop \(event.regionIdentifier)  \(kind)  \(event.time.formatted(.iso8601))  d=\(distance)\(flags)")
        }
    }
}
