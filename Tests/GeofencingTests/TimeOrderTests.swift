// Time comes from observations only: fixes older than the last observation are ignored, and `Observation` feeds
// fixes and "no fix" reports through one entry point.
import Foundation
import Geofencing
import Testing

@Suite("Observation time order")
struct TimeOrderTests {
    private let plane = LocalPlane(origin: .brisbane)

    private func fix(north: Double, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds)
    }

    @Test("a fix older than the last observation is ignored, even one far inside")
    func olderFixIgnored() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 300, at: 10), fix(north: 0, at: 9), fix(north: 0, at: 5)])
        #expect(harness.events(of: "A").kinds == [.determined])
        #expect(harness.monitor.state(for: "A") == .outside)
        // A fix at the same time as the last one is not older: it counts.
        harness.feed([fix(north: 0, at: 10)])
        #expect(harness.transitions(of: "A").kinds == [.enter])
    }

    @Test("a late 'no fix' report does not start an outage, and a fix older than a 'no fix' report is ignored")
    func noFixOrder() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: 0, at: 100)])
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 20)  // older than the fix: ignored
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 150)  // 50 s after the fix: no outage yet
        #expect(harness.monitor.state(for: "A") == .inside)
        harness.feed([fix(north: 300, at: 140)])  // older than the last observation (t = 150): ignored
        #expect(harness.monitor.state(for: "A") == .inside)
        #expect(harness.events(of: "A").kinds == [.determined])
    }

    @Test("feeding Observations gives the same events as process(_:) and processNoFix(at:)")
    func observationsEqualDirectCalls() throws {
        let observations: [Observation] = [.fix(fix(north: 300, at: 0)), .fix(fix(north: 0, at: 1))]
            + (2...70).map { .noFix(TrackBuilder.epoch + Double($0)) }
            + [.fix(fix(north: 300, at: 71))]
        let viaObservations = try MonitorHarness(), direct = try MonitorHarness()
        viaObservations.start(.test("A"))
        direct.start(.test("A"))
        for observation in observations { viaObservations.monitor.process(observation) }
        for observation in observations {
            switch observation {
            case .fix(let fix): direct.monitor.process(fix)
            case .noFix(let time): direct.monitor.processNoFix(at: time)
            }
        }
        #expect(viaObservations.recorder.monitorEvents == direct.recorder.monitorEvents)
        let states = viaObservations.events(of: "A").map(\.state)
        #expect(states == [.outside, .inside, .unknown, .outside], "\(viaObservations.events(of: "A").summary)")
        #expect(observations.map(\.time) == observations.map(\.time).sorted())
    }
}
