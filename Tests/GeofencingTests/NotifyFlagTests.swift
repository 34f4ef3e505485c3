// notifyOnEntry / notifyOnExit = false suppress those events; the states are tracked all the same.
import Foundation
import Geofencing
import Testing

@Suite("notifyOnEntry and notifyOnExit")
struct NotifyFlagTests {
    /// Outside at t = 0, inside from t = 1 to t = 10, outside from t = 11 on.
    private func inAndOut() -> TrackBuilder {
        var track = TrackBuilder(origin: .brisbane, north: -200)
        track.fix()
        track.move(toEast: 0, north: 0)
        track.park(count: 10)
        track.move(toEast: 0, north: 200)
        track.park(count: 5)
        return track
    }

    /// Feeds the track one fix at a time, noting the region's state after each.
    private func statesAlong(_ track: TrackBuilder, _ harness: MonitorHarness, _ identifier: String) -> [RegionState?] {
        track.fixes.map { fix in
            harness.monitor.process(fix)
            return harness.monitor.state(for: identifier)
        }
    }

    private var expectedStates: [RegionState?] {
        [.outside] + Array(repeating: .inside, count: 10) + Array(repeating: .outside, count: 5)
    }

    @Test("notifyOnEntry = false: no enter, but the state becomes inside and the exit is reported")
    func noEntry() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", notifyOnEntry: false))
        #expect(statesAlong(inAndOut(), harness, "A") == expectedStates)
        #expect(harness.events(of: "A").kinds == [.determined, .exit], "\(harness.events(of: "A").summary)")
        #expect(harness.events(of: "A").last?.time == TrackBuilder.epoch + 11)
    }

    @Test("notifyOnExit = false: no exit, but the state becomes outside; the next entry is reported")
    func noExit() throws {
        var track = inAndOut()
        track.move(toEast: 0, north: 0)
        track.park(count: 1)  // t = 16: in again
        let harness = try MonitorHarness()
        harness.start(.test("A", notifyOnExit: false))
        #expect(statesAlong(track, harness, "A") == expectedStates + [.inside])
        #expect(harness.events(of: "A").kinds == [.determined, .enter, .enter], "\(harness.events(of: "A").summary)")
    }

    @Test("both false: only the first determination, states still change, and an interpolated pass is silent too")
    func neither() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", notifyOnEntry: false, notifyOnExit: false),
                      .test("small", radius: 15, center: LocalPlane(origin: .brisbane).coordinate(east: 0, north: 1000),
                            notifyOnEntry: false, notifyOnExit: false))
        #expect(statesAlong(inAndOut(), harness, "A") == expectedStates)
        // A fast pass through "small" (fixes 40 m apart, none inside).
        let plane = LocalPlane(origin: .brisbane)
        harness.feed([980.0 - 40, 980, 1020].enumerated().map { index, north in
            Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + 20 + Double(index))
        })
        #expect(harness.events(of: "A").kinds == [.determined])
        #expect(harness.events(of: "small").kinds == [.determined])
        #expect(harness.monitor.state(for: "small") == .outside)
    }

    @Test("notifyOnEntry = false turns an inferred enter after an outage into a determination")
    func noEntryAfterOutage() throws {
        let plane = LocalPlane(origin: .brisbane)
        let harness = try MonitorHarness()
        harness.start(.test("A", notifyOnEntry: false))
        harness.feed([
            Fix(coordinate: plane.coordinate(east: 0, north: 300), timestamp: TrackBuilder.epoch),
            Fix(coordinate: plane.coordinate(east: 0, north: 0), timestamp: TrackBuilder.epoch + 100),
            // Two more confirm the time after the gap (`timeBaseConfirmation`): only then is it processed.
            Fix(coordinate: plane.coordinate(east: 0, north: 0), timestamp: TrackBuilder.epoch + 101),
            Fix(coordinate: plane.coordinate(east: 0, north: 0), timestamp: TrackBuilder.epoch + 102),
        ])
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .determined, .determined], "\(events.summary)")
        #expect(events.map(\.state) == [.outside, .unknown, .inside])
        #expect(harness.monitor.state(for: "A") == .inside)
    }
}
