// Regression tests for bugs found in Sources/Geofencing while its test suite was written (2026-11-29), one test per
// bug, each with the reproducer that showed it.
import Foundation
import Geofencing
import Testing

@Suite("Regressions of fixed façade bugs")
struct RegressionTests {
    private let plane = LocalPlane(origin: .brisbane)

    @Test("a receiver parked on a boundary through repeated outages does not flap")
    func outagesDoNotFlapAParkedReceiver() throws {
        // Parked on the 100 m boundary with 8 m jitter: 30 s of fixes, then a 70 s outage, twenty times. Without
        // outages this never flaps (HysteresisTests); with them, each return is judged with no hysteresis
        // (unknown -> inside when s <= -a), so a few metres of jitter become an inferred enter or exit.
        var track = TrackBuilder(origin: .brisbane, north: 100, seed: 7)
        track.jitter = 8
        track.fix()
        for _ in 0..<20 {
            track.park(count: 30)
            track.gap(seconds: 70)
        }
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(track.fixes)
        let transitions = harness.transitions(of: "A")
        #expect(transitions.count <= 1, "\(transitions.summary)")
    }

    @Test("the passes interpolated on one segment are delivered in time order")
    func interpolatedPassesInTimeOrder() throws {
        // 40 regions of 6 m every 10 m along a straight line, crossed by one 9 s segment with no fix near them.
        let harness = try MonitorHarness()
        for index in 0..<40 {
            let center = plane.coordinate(east: 0, north: Double(index) * 10 - 200)
            harness.start(.test("s\(index)", radius: 6, center: center))
        }
        harness.feed([
            Fix(coordinate: plane.coordinate(east: 0, north: -260), timestamp: TrackBuilder.epoch),
            Fix(coordinate: plane.coordinate(east: 0, north: -220), timestamp: TrackBuilder.epoch + 1),
            Fix(coordinate: plane.coordinate(east: 0, north: 220), timestamp: TrackBuilder.epoch + 10),
        ])
        let passes = harness.regionEvents.filter { $0.kind != .determined }
        #expect(passes.count == 80)
        let backwards = zip(passes, passes.dropFirst()).filter { $0.time > $1.time }
        let backwardSteps = backwards.count
        let example = backwards.first.map { "\($0.0.summary) before \($0.1.summary)" } ?? ""
        #expect(backwardSteps == 0, "\(example)")
    }

    @Test("a fix at exactly the hysteresis inside is no interpolated pass: one enter, at the next fix")
    func fixAtTheThresholdIsNoPass() throws {
        // Out 600 m and back at 10 m/s through a 100 m circle (hysteresis 10 m with no accuracy): the way back has
        // fixes at 100 m and 90 m from the centre, the second exactly 10 m inside. The segment between them is
        // deepest at its end fix, which the ordinary rule judges; the interpolation once reported an enter at the
        // first and an exit at the second (the circle's plane distance said 10 m inside, the core's a hair less),
        // and the real enter came one fix later.
        var track = TrackBuilder(origin: .brisbane)
        track.park(count: 5)
        track.drive(bearing: 90, speed: 10, count: 60)
        track.drive(bearing: 270, speed: 10, count: 60)
        track.park(count: 5)
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(track.fixes)
        let events = harness.regionEvents
        #expect(events.map(\.kind) == [.determined, .exit, .enter], "\(events.summary)")
        #expect(!events.contains { $0.interpolated }, "\(events.summary)")
    }

    @Test("a fix with a negative accuracy (CoreLocation's 'invalid') changes no state")
    func negativeAccuracyIsNotUsable() throws {
        // 0.5 m outside the boundary with accuracy -1: the unknown rule "inside when s <= -a" reads s <= +1.
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([Fix(coordinate: plane.coordinate(east: 0, north: 100.5), timestamp: TrackBuilder.epoch,
                          horizontalAccuracy: -1)])
        #expect(harness.monitor.state(for: "A") == .unknown, "\(harness.regionEvents.summary)")
    }
}
