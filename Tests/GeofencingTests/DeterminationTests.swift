// The first determination after start: didDetermineState, not an enter (CoreLocation), unless asked for.
import Foundation
import Geofencing
import Testing

@Suite("First determination")
struct DeterminationTests {
    /// One fix `north` metres north of the region's centre (radius 100 m), with an optional accuracy.
    private func fix(north: Double, accuracy: Double? = nil, at seconds: Double = 0) -> Fix {
        Fix(coordinate: LocalPlane(origin: .brisbane).coordinate(east: 0, north: north),
            timestamp: TrackBuilder.epoch + seconds, horizontalAccuracy: accuracy)
    }

    @Test("a first fix inside is a determined(inside) event, not an enter")
    func firstFixInside() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        #expect(harness.monitor.state(for: "A") == .unknown)
        harness.feed([fix(north: 50)])
        let events = harness.regionEvents
        try #require(events.count == 1, "\(events.summary)")
        #expect(events[0].kind == .determined)
        #expect(events[0].state == .inside)
        #expect(events[0].time == TrackBuilder.epoch)
        #expect(abs(events[0].distance! - -50) < 0.05)
        #expect(!events[0].inferred && !events[0].interpolated)
        #expect(harness.monitor.state(for: "A") == .inside)
        // The delegate heard it through didDetermineState(.inside), and nothing else but the start.
        #expect(harness.recorder.callbacks == [.started(.test("A")), .determined(.inside, .test("A"), events[0])])
    }

    @Test("reportsInitialInsideAsEnter makes the first determination inside an enter")
    func initialInsideAsEnter() throws {
        var configuration = MonitorConfiguration()
        configuration.reportsInitialInsideAsEnter = true
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A"))
        harness.feed([fix(north: 50), fix(north: 50, at: 1)])
        let events = harness.regionEvents
        #expect(events.kinds == [.enter], "\(events.summary)")
        #expect(events.first?.state == .inside)
        #expect(events.first?.inferred == false)
        #expect(TransitionChecker(allowsInitialEnter: true).problems(in: events).isEmpty)
    }

    @Test("reportsInitialInsideAsEnter respects notifyOnEntry = false (a determined event instead)")
    func initialInsideAsEnterWithoutEntryNotification() throws {
        var configuration = MonitorConfiguration()
        configuration.reportsInitialInsideAsEnter = true
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A", notifyOnEntry: false))
        harness.feed([fix(north: 50)])
        #expect(harness.regionEvents.kinds == [.determined])
        #expect(harness.regionEvents.first?.state == .inside)
    }

    @Test("a first fix outside is determined(outside), with or without the initial-enter option",
          arguments: [false, true])
    func firstFixOutside(initialEnter: Bool) throws {
        var configuration = MonitorConfiguration()
        configuration.reportsInitialInsideAsEnter = initialEnter
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A"))
        harness.feed([fix(north: 150), fix(north: 150, at: 1)])
        let events = harness.regionEvents
        #expect(events.kinds == [.determined], "\(events.summary)")
        #expect(events.first?.state == .outside)
        #expect(abs((events.first?.distance ?? 0) - 50) < 0.05)
        #expect(harness.monitor.state(for: "A") == .outside)
    }

    @Test("a fix whose accuracy straddles the boundary leaves the state unknown until a clear fix")
    func straddlingFixLeavesUnknown() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        // |distance| <= accuracy: 12 m inside with 30 m accuracy, then 5 m outside with 30 m.
        harness.feed([fix(north: 88, accuracy: 30), fix(north: 105, accuracy: 30, at: 1)])
        #expect(harness.regionEvents.isEmpty, "\(harness.regionEvents.summary)")
        #expect(harness.monitor.state(for: "A") == .unknown)
        // A clear fix: 40 m inside with 5 m accuracy.
        harness.feed([fix(north: 60, accuracy: 5, at: 2)])
        let events = harness.regionEvents
        #expect(events.kinds == [.determined], "\(events.summary)")
        #expect(events.first?.state == .inside)
        #expect(events.first?.time == TrackBuilder.epoch + 2)
    }

    @Test("a straddling first fix resolved outside by a clear fix gives determined(outside)")
    func straddleThenOutside() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 95, accuracy: 25), fix(north: 140, accuracy: 25, at: 3)])
        let events = harness.regionEvents
        #expect(events.kinds == [.determined], "\(events.summary)")
        #expect(events.first?.state == .outside)
        #expect(events.first?.time == TrackBuilder.epoch + 3)
    }

    @Test("requestState before any fix is answered after the first usable fix, once")
    func requestStateBeforeFix() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.monitor.requestState(for: .test("A"))
        #expect(harness.regionEvents.isEmpty)
        harness.feed([fix(north: 30)])
        let events = harness.regionEvents
        #expect(events.kinds == [.determined], "\(events.summary)")
        #expect(events.first?.state == .inside)
    }

    @Test("requestState after a determination answers at once with the state at the last usable fix")
    func requestStateAfterFix() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"), .test("B", center: LocalPlane(origin: .brisbane).coordinate(east: 1000, north: 0)))
        harness.feed([fix(north: 30, at: 0), fix(north: 40, at: 1)])
        let before = harness.regionEvents.count
        harness.monitor.requestState(for: .test("B"))
        let answered = Array(harness.regionEvents.dropFirst(before))
        #expect(answered.count == 1, "\(answered.summary)")
        #expect(answered.first?.kind == .determined)
        #expect(answered.first?.regionIdentifier == "B")
        #expect(answered.first?.state == .outside)
        #expect(answered.first?.time == TrackBuilder.epoch + 1)
        // An unknown identifier is ignored.
        harness.monitor.requestState(for: .test("nobody"))
        #expect(harness.regionEvents.count == before + 1)
    }
}
