// Restoring states after a restart (RegionMonitor.restoreMonitoring): the first fix confirms a restored state
// silently, reports a change that happened meanwhile as inferred, and keeps the dwell clock.
import Foundation
import Geofencing
import Testing

@Suite("Restoring states")
struct RestoreTests {
    private let plane = LocalPlane(origin: .brisbane)

    private func fix(north: Double, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds,
            horizontalAccuracy: 3)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var restored: RegionState
        var north: Double  // first fix after the restart (region radius 100 m)
        var expected: [String]  // kind, state, inferred
        var testDescription: String { name }
    }

    @Test("the first fix after a restore", arguments: [
        Case(name: "inside, still inside: nothing", restored: .inside, north: 40, expected: []),
        Case(name: "outside, still outside: nothing", restored: .outside, north: 300, expected: []),
        Case(name: "inside, now outside: inferred exit", restored: .inside, north: 300,
             expected: ["exit outside true"]),
        Case(name: "outside, now inside: inferred enter", restored: .outside, north: 20,
             expected: ["enter inside true"]),
        Case(name: "inside, fix within the hysteresis outside: stays inside", restored: .inside, north: 105,
             expected: []),
        Case(name: "unknown: a first determination", restored: .unknown, north: 40,
             expected: ["determined inside false"]),
    ])
    func firstFix(_ c: Case) throws {
        let harness = try MonitorHarness()
        try harness.monitor.restoreMonitoring(for: .test("A"), state: RegionStateRecord(state: c.restored))
        #expect(harness.monitor.state(for: "A") == .unknown, "unknown until a fix confirms it")
        harness.feed([fix(north: c.north, at: 0)])
        #expect(harness.events(of: "A").map { "\($0.kind.rawValue) \($0.state.rawValue) \($0.inferred)" } == c.expected)
        let expectedState: RegionState = c.expected.first.map { $0.contains("outside") ? .outside : .inside } ?? c.restored
        #expect(harness.monitor.state(for: "A") == expectedState)
        // Afterwards the usual rules: leaving gives a plain exit.
        harness.feed([fix(north: 40, at: 1), fix(north: 300, at: 2)])
        #expect(harness.events(of: "A").last.map { "\($0.kind.rawValue) \($0.inferred)" } == "exit false")
    }

    @Test func dwellClockRunsAcrossTheRestart() throws {
        let harness = try MonitorHarness()
        let since = TrackBuilder.epoch - 50
        try harness.monitor.restoreMonitoring(
            for: .test("A", dwellTime: 60), state: RegionStateRecord(state: .inside, insideSince: since))
        harness.feed((0...15).map { fix(north: 10, at: Double($0)) })
        let dwell = harness.events(of: "A").filter { $0.kind == .dwell }
        #expect(dwell.map(\.time) == [TrackBuilder.epoch + 10], "60 s after the stored insideSince, not after the restart")
    }

    @Test func reportedDwellIsNotRepeated() throws {
        let harness = try MonitorHarness()
        try harness.monitor.restoreMonitoring(
            for: .test("A", dwellTime: 5),
            state: RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch - 100, dwellReported: true))
        harness.feed((0...10).map { fix(north: 10, at: Double($0)) })
        #expect(harness.events(of: "A").isEmpty)
    }

    @Test func restoringAMonitoredRegionKeepsItsLiveState() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 10, at: 0)])
        try harness.monitor.restoreMonitoring(for: .test("A", radius: 120), state: RegionStateRecord(state: .outside))
        #expect(harness.monitor.state(for: "A") == .inside)
    }
}
