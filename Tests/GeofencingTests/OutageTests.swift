// Outages: no usable fix for longer than outageTimeout makes states unknown; when fixes return, a changed state is an
// enter or exit flagged inferred, an unchanged one a plain determination.
import Foundation
import Geofencing
import Testing

@Suite("Outages")
struct OutageTests {
    private let plane = LocalPlane(origin: .brisbane)

    private func fix(north: Double, at seconds: Double, accuracy: Double? = nil) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds,
            horizontalAccuracy: accuracy)
    }

    /// 11 fixes (t = 0 ... 10 s) at `north`, a silent gap, then 5 fixes from `returnAt` at `returnNorth`.
    private func gapTrack(north: Double, returnNorth: Double, returnAt: Double) -> [Fix] {
        (0...10).map { fix(north: north, at: Double($0)) }
            + (0..<5).map { fix(north: returnNorth, at: returnAt + Double($0)) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var north: Double  // before the outage (region radius 100 m)
        var returnNorth: Double  // after it
        var before: RegionState
        var after: RegionState
        var testDescription: String { name }
    }

    @Test("a fix gap longer than outageTimeout: determined(unknown), then the state found when fixes return",
          arguments: [
              Case(name: "inside, stays inside", north: 50, returnNorth: 40, before: .inside, after: .inside),
              Case(name: "outside, stays outside", north: 300, returnNorth: 400, before: .outside, after: .outside),
              Case(name: "outside, returns inside", north: 300, returnNorth: 30, before: .outside, after: .inside),
              Case(name: "inside, returns outside", north: 30, returnNorth: 300, before: .inside, after: .outside),
          ])
    func gapOutage(_ c: Case) throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(gapTrack(north: c.north, returnNorth: c.returnNorth, returnAt: 100))
        let events = harness.events(of: "A")
        try #require(events.count == 3, "\(events.summary)")
        // First determination.
        #expect(events[0].kind == .determined && events[0].state == c.before)
        // The outage, noticed when the next observation (the returning fix) arrives 90 s after the last one.
        #expect(events[1].kind == .determined)
        #expect(events[1].state == .unknown)
        #expect(events[1].distance == nil)
        #expect(events[1].time == TrackBuilder.epoch + 100)
        // The return.
        #expect(events[2].time == TrackBuilder.epoch + 100)
        #expect(events[2].state == c.after)
        #expect(!events[2].interpolated)
        if c.before == c.after {
            #expect(events[2].kind == .determined)
            #expect(!events[2].inferred)
        } else {
            #expect(events[2].kind == (c.after == .inside ? .enter : .exit))
            #expect(events[2].inferred)
        }
        #expect(harness.monitor.state(for: "A") == c.after)
        #expect(TransitionChecker().problems(in: harness.regionEvents).isEmpty)
    }

    @Test("a gap of exactly outageTimeout is no outage")
    func gapAtTimeoutIsNoOutage() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(gapTrack(north: 50, returnNorth: 50, returnAt: 70))  // 60 s after t = 10
        #expect(harness.events(of: "A").kinds == [.determined], "\(harness.events(of: "A").summary)")
        #expect(harness.monitor.state(for: "A") == .inside)
    }

    @Test("processNoFix(at:) reports the outage when it starts, before any fix returns")
    func noFixStream() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"), .test("B", center: plane.coordinate(east: 0, north: 600)))
        harness.feed((0...10).map { fix(north: 50, at: Double($0)) })
        for second in 11...90 { harness.monitor.processNoFix(at: TrackBuilder.epoch + Double(second)) }
        let unknown = harness.regionEvents.filter { $0.state == .unknown }
        // Both regions (A inside, B outside) become unknown at t = 71, the first observation more than 60 s after the
        // last usable fix at t = 10; the event's position is that of the last usable fix.
        #expect(unknown.map(\.regionIdentifier).sorted() == ["A", "B"], "\(harness.regionEvents.summary)")
        #expect(unknown.allSatisfy { $0.kind == .determined && $0.distance == nil })
        #expect(unknown.allSatisfy { $0.time == TrackBuilder.epoch + 71 })
        #expect(unknown.allSatisfy { $0.coordinate == plane.coordinate(east: 0, north: 50) })
        #expect(harness.monitor.state(for: "A") == .unknown)
        #expect(harness.monitor.state(for: "B") == .unknown)
        // Fixes return: A inside again (determined, not an enter), B now inside (inferred enter).
        let returnTime = TrackBuilder.epoch + 91
        harness.feed([Fix(coordinate: plane.coordinate(east: 0, north: 560), timestamp: returnTime)])
        let a = harness.events(of: "A", from: returnTime), b = harness.events(of: "B", from: returnTime)
        #expect(a.kinds == [.exit] && a.first?.inferred == true, "\(a.summary)")
        #expect(b.kinds == [.enter] && b.first?.inferred == true, "\(b.summary)")
        #expect(TransitionChecker().problems(in: harness.regionEvents).isEmpty, "\(harness.regionEvents.summary)")
    }

    @Test("unusable fixes (accuracy beyond the limit) for longer than the timeout are an outage too")
    func inaccurateFixesMakeAnOutage() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed((0...10).map { fix(north: 50, at: Double($0)) })
        harness.feed((11...80).map { fix(north: 50, at: Double($0), accuracy: 500) })
        let unknown = harness.events(of: "A").filter { $0.state == .unknown }
        #expect(unknown.count == 1)
        #expect(unknown.first?.time == TrackBuilder.epoch + 71)
        harness.feed([fix(north: 50, at: 81, accuracy: 5)])
        #expect(harness.events(of: "A").last?.kind == .determined)
        #expect(harness.events(of: "A").last?.state == .inside)
    }

    @Test("outageTimeout is configurable")
    func configurableTimeout() throws {
        var configuration = MonitorConfiguration()
        configuration.outageTimeout = 5
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A"))
        // The two fixes after the gap confirm its time (`timeBaseConfirmation`): only then are they processed.
        harness.feed([fix(north: 50, at: 0), fix(north: 50, at: 5), fix(north: 50, at: 11), fix(north: 50, at: 12),
                      fix(north: 50, at: 13)])
        let kinds = harness.events(of: "A").map { "\($0.kind.rawValue):\($0.state.rawValue)" }
        #expect(kinds == ["determined:inside", "determined:unknown", "determined:inside"])
    }

    @Test("after an outage, a fix straddling the boundary keeps the state from before it; a clear fix then enters")
    func straddlingReturn() throws {
        // 5 m inside with accuracy 20: not past the threshold, so the pre-outage "outside" stands (determined); the
        // next fix, 40 m inside, is an ordinary enter at its own time.
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([
            fix(north: 300, at: 0), fix(north: 95, at: 100, accuracy: 20), fix(north: 60, at: 101, accuracy: 5),
            fix(north: 60, at: 102, accuracy: 5),  // confirms the time after the gap (`timeBaseConfirmation`)
        ])
        let events = harness.events(of: "A")
        #expect(events.map(\.state) == [.outside, .unknown, .outside, .inside], "\(events.summary)")
        #expect(events.map(\.kind) == [.determined, .determined, .determined, .enter], "\(events.summary)")
        #expect(events.last?.inferred == false)
        #expect(events.last?.time == TrackBuilder.epoch + 101)
    }

    @Test("after an outage, the first fix past the threshold on the other side is an inferred transition")
    func clearReturnIsInferred() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        // The two fixes after the gap confirm its time (`timeBaseConfirmation`): only then are they processed.
        harness.feed([fix(north: 300, at: 0), fix(north: 60, at: 100, accuracy: 5), fix(north: 60, at: 101, accuracy: 5),
                      fix(north: 60, at: 102, accuracy: 5)])
        let events = harness.events(of: "A")
        #expect(events.map(\.state) == [.outside, .unknown, .inside], "\(events.summary)")
        #expect(events.last?.kind == .enter)
        #expect(events.last?.inferred == true)
        #expect(events.last?.time == TrackBuilder.epoch + 100)
    }

    @Test("no interpolated pass is reported across an outage")
    func noInterpolationAcrossOutage() throws {
        let harness = try MonitorHarness()
        // A small region the straight line between the two fixes crosses; the fixes are 61 s apart.
        harness.start(.test("small", radius: 15))
        harness.feed([fix(north: -200, at: 0), fix(north: 200, at: 61)])
        #expect(harness.transitions(of: "small").isEmpty, "\(harness.events(of: "small").summary)")
    }
}
