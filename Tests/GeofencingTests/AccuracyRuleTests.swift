// Accuracy: fixes worse than maximumAccuracy do not move states; a fix whose uncertainty straddles the boundary
// causes no transition there.
import Foundation
import Geofencing
import Testing

@Suite("Accuracy")
struct AccuracyRuleTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// A fix `north` metres north of the centre of a 100 m region at `seconds` after the epoch.
    private func fix(north: Double, accuracy: Double?, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds,
            horizontalAccuracy: accuracy)
    }

    /// A monitor with region A (100 m) determined inside at t = 0 by a fix 50 m inside.
    private func insideHarness() throws -> MonitorHarness {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 50, accuracy: 5, at: 0)])
        try #require(harness.monitor.state(for: "A") == .inside)
        return harness
    }

    @Test("fixes with accuracy worse than maximumAccuracy are ignored for transitions")
    func inaccurateFixesIgnored() throws {
        let harness = try insideHarness()
        // 20 s of fixes 150 m outside (s = +50) but with 150 m accuracy: ignored.
        harness.feed((1...20).map { fix(north: 150, accuracy: 150, at: Double($0)) })
        #expect(harness.transitions(of: "A").isEmpty, "\(harness.events(of: "A").summary)")
        #expect(harness.monitor.state(for: "A") == .inside)
        // The same position with 5 m accuracy: exit on that fix.
        harness.feed([fix(north: 150, accuracy: 5, at: 21)])
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.exit], "\(transitions.summary)")
        #expect(transitions.first?.time == TrackBuilder.epoch + 21)
    }

    @Test("maximumAccuracy is inclusive, and configurable")
    func accuracyLimitBoundary() throws {
        // Accuracy exactly 100 m is usable: threshold max(10, 100) = 100, and s = +150 passes it.
        let atLimit = try insideHarness()
        atLimit.feed([fix(north: 250, accuracy: 100, at: 1)])
        #expect(atLimit.transitions(of: "A").kinds == [.exit])
        // 100.5 m is not usable.
        let beyond = try insideHarness()
        beyond.feed([fix(north: 250, accuracy: 100.5, at: 1)])
        #expect(beyond.transitions(of: "A").isEmpty)
        // With the limit at 20 m, a 25 m fix is ignored and a 15 m fix counts.
        var configuration = MonitorConfiguration()
        configuration.maximumAccuracy = 20
        let strict = try MonitorHarness(configuration: configuration)
        strict.start(.test("A"))
        strict.feed([fix(north: 50, accuracy: 5, at: 0), fix(north: 250, accuracy: 25, at: 1)])
        #expect(strict.transitions(of: "A").isEmpty)
        strict.feed([fix(north: 250, accuracy: 15, at: 2)])
        #expect(strict.transitions(of: "A").kinds == [.exit])
    }

    @Test("inaccurate fixes do not determine a new region either")
    func inaccurateFixesDoNotDetermine() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 500, accuracy: 300, at: 0), fix(north: 500, accuracy: .nan, at: 1)])
        #expect(harness.regionEvents.isEmpty, "\(harness.regionEvents.summary)")
        #expect(harness.monitor.state(for: "A") == .unknown)
    }

    @Test("a fix 12 m inside with 30 m accuracy does not enter; the same fix with 8 m accuracy does")
    func straddlingFixDoesNotEnter() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 150, accuracy: 5, at: 0)])
        try #require(harness.monitor.state(for: "A") == .outside)
        harness.feed((1...10).map { fix(north: 88, accuracy: 30, at: Double($0)) })
        #expect(harness.transitions(of: "A").isEmpty, "\(harness.events(of: "A").summary)")
        #expect(harness.monitor.state(for: "A") == .outside)
        harness.feed([fix(north: 88, accuracy: 8, at: 11)])
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.enter], "\(transitions.summary)")
        #expect(transitions.first?.time == TrackBuilder.epoch + 11)
    }

    @Test("a fix 12 m outside with 30 m accuracy does not exit; one 35 m outside with 30 m accuracy does")
    func straddlingFixDoesNotExit() throws {
        let harness = try insideHarness()
        harness.feed((1...10).map { fix(north: 112, accuracy: 30, at: Double($0)) })
        #expect(harness.transitions(of: "A").isEmpty, "\(harness.events(of: "A").summary)")
        harness.feed([fix(north: 135, accuracy: 30, at: 11)])
        #expect(harness.transitions(of: "A").kinds == [.exit])
    }

    @Test("a fix without accuracy uses the hysteresis alone")
    func missingAccuracyUsesHysteresis() throws {
        let harness = try insideHarness()
        harness.feed([fix(north: 108, accuracy: nil, at: 1)])  // s = +8 < 10
        #expect(harness.transitions(of: "A").isEmpty)
        harness.feed([fix(north: 111, accuracy: nil, at: 2)])  // s = +11
        #expect(harness.transitions(of: "A").kinds == [.exit])
    }
}
