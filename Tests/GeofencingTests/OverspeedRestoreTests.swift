// An overspeed episode in the state record: reported changed when it starts, fires, gains a maximum and ends (and
// every 5 s while it lasts), restored it goes on, and after a gap longer than the outage timeout it ends at the
// first fix (a reported one with its overspeedEnd, a candidate silently), in a restart as in a running monitor.
import Foundation
@testable import Geofencing
import Testing

@Suite("Overspeed episodes across restarts")
struct OverspeedRestoreTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// A 1 km zone with a 50 km/h limit (+5 km/h for 5 s).
    private var zone: Region {
        var region = Region.test("Z", radius: 1000)
        region.speedLimit = SpeedLimit(kilometresPerHour: 50)
        return region
    }

    /// t = 0 ... 9 s at 10 m/s, 10 ... 12 at 25 m/s (the maximum), 13 ... 49 at 20 m/s (72 km/h), 50 ... 69 at
    /// 10 m/s: overspeed at t = 15, overspeedEnd at t = 55 over 40 s, max 25 m/s.
    private func speed(at second: Int) -> Double {
        switch second {
        case 10...12: 25
        case 13...49: 20
        default: 10
        }
    }

    private func fix(_ second: Int, speed: Double? = nil, north: Double = 0) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + Double(second),
            horizontalAccuracy: 3, speed: speed ?? self.speed(at: second))
    }

    private func overspeeds(_ harness: MonitorHarness) -> [RegionEvent] {
        harness.events(of: "Z").filter { $0.kind == .overspeed || $0.kind == .overspeedEnd }
    }

    /// Feeds fixes, returning Z's newest changed record (nil if none changed) and at which seconds it changed.
    private func feed(_ harness: MonitorHarness, _ seconds: some Sequence<Int>) -> (RegionStateRecord?, [Int]) {
        var newest: RegionStateRecord?
        var changedAt: [Int] = []
        for second in seconds {
            if let record = harness.monitor.process(.fix(fix(second))).changedStates["Z"] {
                newest = record
                changedAt.append(second)
            }
        }
        return (newest, changedAt)
    }

    @Test("restored mid-episode it goes on: no second overspeed, the end as if no restart had happened")
    func restoredEpisodeGoesOn() throws {
        let whole = try MonitorHarness()
        whole.start(zone)
        _ = feed(whole, 0..<70)
        let expected = overspeeds(whole)
        #expect(expected.kinds == [.overspeed, .overspeedEnd], "\(expected.summary)")

        let before = try MonitorHarness()
        before.start(zone)
        let (stored, changedAt) = feed(before, 0..<33)
        let record = try #require(stored)
        #expect(record.overspeed == OverspeedEpisode(
            overSince: TrackBuilder.epoch + 10, maximumSpeed: 25, reported: true, latestFix: TrackBuilder.epoch + 30))
        // The episode's record changes at its start, at each new maximum (t = 10, 11, 12 all 25 m/s: once), at the
        // overspeed, and then every 5 s of the steady speed.
        #expect(changedAt == [0, 10, 15, 20, 25, 30], "\(changedAt)")

        let after = try MonitorHarness()
        try after.monitor.restoreMonitoring(for: zone, state: record)
        _ = feed(after, 33..<70)
        let ends = overspeeds(after)
        #expect(ends.kinds == [.overspeedEnd], "\(ends.summary)")
        #expect(ends.first?.time == expected.last?.time)
        #expect(ends.first?.maximumSpeed == 25 && ends.first?.overLimitDuration == 40)
        #expect(after.events(of: "Z").count == 1, "the restored state is confirmed silently")
    }

    @Test("restored after a gap longer than the outage timeout: ended at the first fix, over until its last fix")
    func longGapEndsTheEpisode() throws {
        let record = RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch, overspeed: OverspeedEpisode(
            overSince: TrackBuilder.epoch + 10, maximumSpeed: 25, reported: true, latestFix: TrackBuilder.epoch + 30))
        let harness = try MonitorHarness()
        try harness.monitor.restoreMonitoring(for: zone, state: record)
        // 61 s after the episode's latest stored fix, still at 20 m/s: the old episode ends, a new one begins.
        harness.feed((91...100).map { fix($0, speed: 20) })
        let events = overspeeds(harness)
        #expect(events.kinds == [.overspeedEnd, .overspeed], "\(events.summary)")
        #expect(events.first?.time == TrackBuilder.epoch + 91)
        #expect(events.first?.overLimitDuration == 20 && events.first?.maximumSpeed == 25)
        #expect(events.last?.time == TrackBuilder.epoch + 96 && events.last?.overLimitDuration == 5)

        // Exactly at the timeout (60 s) the episode goes on: nothing new.
        let onTime = try MonitorHarness()
        try onTime.monitor.restoreMonitoring(for: zone, state: record)
        onTime.feed((90...100).map { fix($0, speed: 20) })
        #expect(overspeeds(onTime).isEmpty, "\(overspeeds(onTime).summary)")
    }

    @Test("a candidate not yet reported is dropped after a long gap, and continued after a short one")
    func candidate() throws {
        let record = RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch, overspeed: OverspeedEpisode(
            overSince: TrackBuilder.epoch + 10, maximumSpeed: 20, reported: false, latestFix: TrackBuilder.epoch + 12))
        let short = try MonitorHarness()
        try short.monitor.restoreMonitoring(for: zone, state: record)
        short.feed([fix(14, speed: 20), fix(15, speed: 20)])
        #expect(overspeeds(short).map { "\($0.kind) \($0.time.timeIntervalSince(TrackBuilder.epoch))" }
                == ["overspeed 15.0"], "5 s after the stored start")
        let long = try MonitorHarness()
        try long.monitor.restoreMonitoring(for: zone, state: record)
        long.feed((100...104).map { fix($0, speed: 20) })
        #expect(overspeeds(long).isEmpty, "a fresh candidate from t = 100, not yet 5 s over")
        long.feed([fix(105, speed: 20)])
        #expect(overspeeds(long).map(\.overLimitDuration) == [5])
    }

    @Test("restored with the vehicle gone: the inferred exit, then the episode's end")
    func restoredOutside() throws {
        let record = RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch, overspeed: OverspeedEpisode(
            overSince: TrackBuilder.epoch + 10, maximumSpeed: 25, reported: true, latestFix: TrackBuilder.epoch + 30))
        let harness = try MonitorHarness()
        try harness.monitor.restoreMonitoring(for: zone, state: record)
        harness.feed([fix(40, speed: 20, north: 1500)])
        let events = harness.events(of: "Z")
        #expect(events.map { "\($0.kind) \($0.inferred)" } == ["exit true", "overspeedEnd false"], "\(events.summary)")
        #expect(events.last?.overLimitDuration == 30)
    }

    @Test("a limit taken away by a replacement drops the episode, and the record says so at the next fix")
    func limitRemovedForgetsTheEpisode() throws {
        let harness = try MonitorHarness()
        harness.start(zone)
        let (stored, _) = feed(harness, 0..<20)
        #expect(stored?.overspeed?.reported == true)
        harness.start(.test("Z", radius: 1000))
        let outcome = harness.monitor.process(.fix(fix(20)))
        let record = try #require(outcome.changedStates["Z"], "the dropped episode is reported")
        #expect(record.overspeed == nil && record.state == .inside)
    }

    @Test("a running monitor: an outage longer than the timeout ends the episode at the first fix after it")
    func outageEndsTheEpisode() throws {
        let harness = try MonitorHarness()
        harness.start(zone)
        _ = feed(harness, 0..<20)
        // No fix from t = 20 to t = 100, then the speed still too high (the time guard adopts the jump after its
        // confirmations, and the events come at the first fix after the gap).
        harness.feed((100...110).map { fix($0, speed: 20) })
        let events = overspeeds(harness)
        #expect(events.map { "\($0.kind) \($0.time.timeIntervalSince(TrackBuilder.epoch))" }
                == ["overspeed 15.0", "overspeedEnd 100.0", "overspeed 105.0"], "\(events.summary)")
        #expect(events[1].overLimitDuration == 9, "over the limit from t = 10 to its last fix before the gap")
    }
}
