// MonitorConfiguration.determinations: the default reports every region's didDetermineState; `.insideOnly` (the
// daemon's choice) reports only regions found inside, while every region's state is still kept and reported as
// changed. And a restored state that the first fix confirms is not reported as changed (nothing to store again).
import Foundation
import Geofencing
import Testing

@Suite("Determinations: every region or inside only")
struct InsideOnlyDeterminationTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// Regions "in" (containing the origin) and "out-0" ... "out-(count-1)" (1 km north and beyond), radius 100 m.
    private func regions(outside count: Int) -> [Region] {
        [.test("in")] + (0..<count).map { index in
            .test("out-\(index)", center: plane.coordinate(east: Double(index) * 300, north: 1_000))
        }
    }

    private func fix(north: Double = 0, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds,
            horizontalAccuracy: 3)
    }

    private static var insideOnly: MonitorConfiguration {
        var configuration = MonitorConfiguration()
        configuration.determinations = .insideOnly
        return configuration
    }

    @Test("by default every region gets didDetermineState at the first fix, inside or outside")
    func defaultDeterminesEveryRegion() throws {
        let harness = try MonitorHarness()
        let all = regions(outside: 5)
        for region in all { harness.start(region) }
        harness.feed([fix(at: 0)])
        let determined = harness.recorder.callbacks.compactMap { callback -> String? in
            guard case .determined(let state, let region, _) = callback else { return nil }
            return "\(region.identifier) \(state.rawValue)"
        }
        #expect(Set(determined) == Set(["in inside"] + (0..<5).map { "out-\($0) outside" }))
        #expect(determined.count == all.count, "one didDetermineState per region")
    }

    @Test("inside only: the first fix reports the region inside, and keeps every region's state")
    func insideOnlyReportsInsideAndStoresEveryState() throws {
        let harness = try MonitorHarness(configuration: Self.insideOnly)
        for region in regions(outside: 5) { harness.start(region) }
        let outcome = harness.monitor.process(fix(at: 0))
        #expect(outcome.events.map { "\($0.kind.rawValue) \($0.regionIdentifier) \($0.state.rawValue)" }
                == ["determined in inside"])
        #expect(outcome.changedStates.count == 6, "every region's new state is reported for the store")
        #expect(outcome.changedStates["out-3"] == RegionStateRecord(state: .outside))
        #expect(outcome.changedStates["in"]?.state == .inside)
        #expect(harness.monitor.state(for: "out-0") == .outside)
        // Entering a region found outside is an enter as always.
        harness.feed([fix(north: 1_000, at: 1)])
        #expect(harness.events(of: "out-0").map(\.kind) == [.enter])
    }

    @Test("inside only: an outage reports unknown for the regions that were inside, not for those outside")
    func insideOnlyOutage() throws {
        let harness = try MonitorHarness(configuration: Self.insideOnly)
        for region in regions(outside: 3) { harness.start(region) }
        harness.feed([fix(at: 0)])
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 61)
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 62)
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 63)
        #expect(harness.regionEvents.map { "\($0.kind.rawValue) \($0.regionIdentifier) \($0.state.rawValue)" }
                == ["determined in inside", "determined in unknown"], "\(harness.regionEvents.summary)")
        #expect(harness.monitor.state(for: "out-1") == .unknown)
        // Back: the region inside is determined inside again; those outside change silently.
        harness.feed([fix(at: 64)])
        #expect(harness.regionEvents.last.map { "\($0.kind.rawValue) \($0.regionIdentifier) \($0.state.rawValue)" }
                == "determined in inside")
        #expect(harness.regionEvents.count == 3)
        #expect(harness.monitor.state(for: "out-1") == .outside)
    }

    @Test("inside only: a requested state is answered for a region outside")
    func insideOnlyAnswersRequests() throws {
        let harness = try MonitorHarness(configuration: Self.insideOnly)
        let all = regions(outside: 2)
        for region in all { harness.start(region) }
        harness.monitor.requestState(for: all[1])  // before any fix: answered by the first one
        harness.feed([fix(at: 0)])
        #expect(harness.events(of: "out-0").map { "\($0.kind.rawValue) \($0.state.rawValue)" }
                == ["determined outside"])
        #expect(harness.events(of: "out-1").isEmpty)
        harness.monitor.requestState(for: all[2])
        #expect(harness.events(of: "out-1").map { "\($0.kind.rawValue) \($0.state.rawValue)" }
                == ["determined outside"])
    }

    @Test("a restored state the first fix confirms is not reported as changed; a changed one is")
    func confirmedRestoreChangesNothing() throws {
        let monitor = try RegionMonitor(configuration: Self.insideOnly)
        let since = TrackBuilder.epoch - 100
        try monitor.restoreMonitoring(for: .test("in"), state: RegionStateRecord(state: .inside, insideSince: since))
        try monitor.restoreMonitoring(for: .test("out", center: plane.coordinate(east: 0, north: 1_000)),
                                      state: RegionStateRecord(state: .outside))
        // Stored while an outage had made the state unknown: confirming it changes the stored record.
        try monitor.restoreMonitoring(
            for: .test("was-outage", center: plane.coordinate(east: 0, north: 2_000)),
            state: RegionStateRecord(state: .unknown, lastKnownState: .outside))
        // Left inside while the monitor was down: an inferred exit, and a changed record.
        try monitor.restoreMonitoring(for: .test("left", center: plane.coordinate(east: 0, north: 3_000)),
                                      state: RegionStateRecord(state: .inside, insideSince: since))
        let outcome = monitor.process(fix(at: 0))
        #expect(outcome.events.map { "\($0.kind.rawValue) \($0.regionIdentifier) \($0.inferred)" } == ["exit left true"])
        #expect(Set(outcome.changedStates.keys) == ["was-outage", "left"])
        #expect(outcome.changedStates["was-outage"] == RegionStateRecord(state: .outside))
        #expect(monitor.state(for: "in") == .inside && monitor.state(for: "out") == .outside)
    }
}
