// Dwell: one dwell event once the vehicle has stayed inside a region for its dwell time (Android's loitering delay).
import Foundation
import Geofencing
import Testing

@Suite("Dwell")
struct DwellTests {
    /// Outside (north = -200) at t = 0, then inside (north = 0) from t = 1: the enter happens at t = 1.
    private func arriving() -> TrackBuilder {
        var track = TrackBuilder(origin: .brisbane, north: -200)
        track.fix()
        track.move(toEast: 0, north: 0)
        track.park(count: 1)
        return track
    }

    @Test("dwellTime 30 s: one dwell event at the first fix at least 30 s after the enter", arguments: [1.0, 7.0])
    func dwellAfterThirtySeconds(interval: Double) throws {
        var track = arriving()
        track.interval = interval
        track.park(count: Int(120 / interval))
        let harness = try MonitorHarness()
        harness.start(.test("A", dwellTime: 30))
        harness.feed(track.fixes)
        let enter = try #require(harness.transitions(of: "A").first)
        #expect(enter.time == TrackBuilder.epoch + 1)
        let dwells = harness.events(of: "A").filter { $0.kind == .dwell }
        try #require(dwells.count == 1, "\(harness.events(of: "A").summary)")
        // The first fix time >= enter + 30 s: t = 31 at 1 Hz; at one fix per 7 s (t = 8, 15, 22, 29, 36): t = 36.
        let expected = track.fixes.map(\.timestamp).first { $0.timeIntervalSince(enter.time) >= 30 }
        #expect(dwells[0].time == expected)
        #expect(dwells[0].time == TrackBuilder.epoch + (interval == 1 ? 31 : 36))
        #expect(dwells[0].state == .inside)
        #expect(dwells[0].sequence > enter.sequence)
        #expect(abs(dwells[0].distance! - -100) < 0.05)
    }

    @Test("no dwell when the vehicle leaves before the dwell time")
    func leavingEarlyGivesNoDwell() throws {
        var track = arriving()
        track.park(count: 20)  // inside until t = 21
        track.move(toEast: 0, north: 300)
        track.park(count: 60)  // outside afterwards, well past 30 s after the enter
        let harness = try MonitorHarness()
        harness.start(.test("A", dwellTime: 30))
        harness.feed(track.fixes)
        #expect(harness.events(of: "A").kinds == [.determined, .enter, .exit], "\(harness.events(of: "A").summary)")
    }

    @Test("a new dwell after an exit and a re-entry")
    func dwellAgainAfterReentry() throws {
        var track = arriving()
        track.park(count: 40)  // dwell at t = 31
        track.move(toEast: 0, north: 300)
        track.park(count: 10)  // exit at t = 42
        track.move(toEast: 0, north: 0)
        track.park(count: 40)  // enter at t = 52, dwell at t = 82
        let harness = try MonitorHarness()
        harness.start(.test("A", dwellTime: 30))
        harness.feed(track.fixes)
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .enter, .dwell, .exit, .enter, .dwell], "\(events.summary)")
        let dwellTimes = events.filter { $0.kind == .dwell }.map { $0.time.timeIntervalSince(TrackBuilder.epoch) }
        #expect(dwellTimes == [31, 82])
    }

    @Test("a region without a dwell time never dwells; another one on the same track does")
    func onlyRegionsWithDwellTime() throws {
        var track = arriving()
        track.park(count: 100)
        let harness = try MonitorHarness()
        harness.start(.test("plain"), .test("dwelling", dwellTime: 30))
        harness.feed(track.fixes)
        #expect(!harness.events(of: "plain").contains { $0.kind == .dwell })
        #expect(harness.events(of: "dwelling").filter { $0.kind == .dwell }.count == 1)
    }

    @Test("jitter at the boundary after entering does not restart the dwell clock")
    func jitterDoesNotResetDwell() throws {
        // Enter deep, then park right on the inner side of the boundary (s = -3) with 5 m jitter: never 10 m out.
        var track = arriving()
        track.move(toEast: 0, north: 97)
        track.jitter = 5
        track.park(count: 60)
        let harness = try MonitorHarness()
        harness.start(.test("A", dwellTime: 30))
        harness.feed(track.fixes)
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .enter, .dwell], "\(events.summary)")
        #expect(events.last?.time == TrackBuilder.epoch + 31)
    }
}
