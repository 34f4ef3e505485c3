// The speed-limit rule: overspeed after limit + tolerance for the duration, its end back under the limit or on
// leaving, never from a parked receiver's speed noise or a one-fix glitch, each region its own rule.
import Foundation
@testable import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite("Speed limits inside zones")
struct SpeedLimitRuleTests {
    /// A 1 km region around Brisbane GPO with a 50 km/h limit (default tolerance 5 km/h, duration 5 s).
    private func zone(_ identifier: String = "Z", limit: Double = 50, radius: Double = 1000) -> Region {
        var region = Region.test(identifier, radius: radius)
        region.speedLimit = SpeedLimit(kilometresPerHour: limit)
        return region
    }

    /// Fixes with the receiver's speed set to `speed(index)` m/s.
    private func withSpeed(_ fixes: [Fix], _ speed: (Int) -> Double) -> [Fix] {
        fixes.enumerated().map { index, fix in
            var fix = fix
            fix.speed = speed(index)
            return fix
        }
    }

    private func overspeeds(_ harness: MonitorHarness, _ identifier: String = "Z") -> [RegionEvent] {
        harness.events(of: identifier).filter { $0.kind == .overspeed || $0.kind == .overspeedEnd }
    }

    @Test("above limit + tolerance for the duration: one overspeed; leaving ends it, after the exit")
    func overspeedThenLeaving() throws {
        var track = TrackBuilder(origin: .brisbane, north: -500)
        track.park(count: 3)
        track.drive(bearing: 0, speed: 20, count: 100)  // 72 km/h, out through the north side at +1000 m
        let harness = try MonitorHarness()
        harness.start(zone())
        harness.feed(withSpeed(track.fixes) { _ in 20 })
        let events = harness.events(of: "Z")
        let kinds = events.map(\.kind)
        #expect(kinds == [.determined, .overspeed, .exit, .overspeedEnd], "\(events.summary)")
        let overspeed = try #require(events.first { $0.kind == .overspeed })
        #expect(overspeed.overLimitDuration == 5)
        #expect(abs(overspeed.maximumSpeed! - 20) < 1e-9)
        #expect(overspeed.state == .inside)
        let end = try #require(events.last)
        #expect(end.time == events[2].time)
        #expect(end.maximumSpeed == 20 && end.overLimitDuration! > 50)
        #expect(TransitionChecker().problems(in: harness.regionEvents).isEmpty)
    }

    @Test("the tolerance and the duration: just above the limit, or above it for less than the duration, is nothing")
    func toleranceAndDuration() throws {
        var track = TrackBuilder(origin: .brisbane)
        track.park(count: 60)
        // 54 km/h (within the 5 km/h tolerance) throughout, then 60 km/h for 4 s, then 54 again.
        let speeds = withSpeed(track.fixes) { index in (30..<34).contains(index) ? 60 / 3.6 : 54 / 3.6 }
        let harness = try MonitorHarness()
        harness.start(zone())
        harness.feed(speeds)
        #expect(overspeeds(harness).isEmpty, "\(harness.events(of: "Z").summary)")

        // A limit with a 0 km/h tolerance and a 3 s duration fires on the 54 km/h at its fourth fix.
        var strict = Region.test("S", radius: 1000)
        strict.speedLimit = SpeedLimit(kilometresPerHour: 50, toleranceKilometresPerHour: 0, duration: 3)
        let second = try MonitorHarness()
        second.start(strict)
        second.feed(speeds)
        let fired = overspeeds(second, "S")
        #expect(fired.map(\.kind) == [.overspeed])
        #expect(fired.first?.time == speeds[3].timestamp)
    }

    @Test("a one-fix speed glitch does not fire; a one-fix dip does not end an episode")
    func oneFixGlitches() throws {
        var track = TrackBuilder(origin: .brisbane)
        track.park(count: 80)
        let glitch = withSpeed(track.fixes) { index in index == 20 ? 150 / 3.6 : 30 / 3.6 }
        let harness = try MonitorHarness()
        harness.start(zone())
        harness.feed(glitch)
        #expect(overspeeds(harness).isEmpty)

        // 70 km/h from fix 10 to 40 with a dip to 30 at fix 25, then 30: one episode, ended 5 s after fix 41.
        let dip = withSpeed(track.fixes) { index in
            (10...40).contains(index) && index != 25 ? 70 / 3.6 : 30 / 3.6
        }
        let second = try MonitorHarness()
        second.start(zone())
        second.feed(dip)
        let episode = overspeeds(second)
        #expect(episode.map(\.kind) == [.overspeed, .overspeedEnd], "\(episode.summary)")
        #expect(episode.first?.time == dip[15].timestamp)
        #expect(episode.last?.time == dip[46].timestamp)
        #expect(episode.last?.overLimitDuration == 31)  // fix 10 to fix 41, the first back under the limit
        #expect(abs((episode.last?.maximumSpeed ?? 0) - 70 / 3.6) < 1e-9)
    }

    @Test("without a receiver speed, the speed from positions fires too, and parked jitter does not")
    func speedFromPositions() throws {
        var track = TrackBuilder(origin: .brisbane, north: -600)
        track.accuracy = 4
        track.jitter = 3
        track.park(count: 120)
        track.drive(bearing: 0, speed: 22, count: 40)
        let harness = try MonitorHarness()
        harness.start(zone(limit: 60))
        harness.feed(track.fixes)
        let events = overspeeds(harness)
        #expect(events.first?.kind == .overspeed, "\(harness.events(of: "Z").summary)")
        #expect(events.allSatisfy { $0.time > track.fixes[119].timestamp })
        let measured = try #require(events.first?.maximumSpeed)
        #expect(measured > 18 && measured <= 22.5, "\(measured) m/s from positions")
    }

    @Test("several regions at once: each its own limit")
    func severalRegions() throws {
        var track = TrackBuilder(origin: .brisbane)
        track.park(count: 30)
        let harness = try MonitorHarness()
        harness.start(zone("slow", limit: 30, radius: 300), zone("fast", limit: 80, radius: 2000), .test("plain"))
        harness.feed(withSpeed(track.fixes) { _ in 50 / 3.6 })
        #expect(overspeeds(harness, "slow").map(\.kind) == [.overspeed])
        #expect(overspeeds(harness, "fast").isEmpty)
        #expect(overspeeds(harness, "plain").isEmpty)
        // Stopping the region ends its rule silently; the others go on.
        harness.monitor.stopMonitoring(for: zone("slow"))
        track.park(count: 30)
        harness.feed(withSpeed(Array(track.fixes.suffix(30))) { _ in 100 / 3.6 })
        #expect(overspeeds(harness, "slow").count == 1)
        #expect(overspeeds(harness, "fast").map(\.kind) == [.overspeed])
    }

    /// The longest run of a log's fixes whose receiver speed stays under 1 kn (a moored yacht, a parked receiver).
    private func standstill(_ path: String) throws -> [Fix] {
        let fixes = try NMEAReader.read(path: SharedData.url(path).path).observations.compactMap(\.fix)
        var longest: ArraySlice<Fix> = [], start = 0
        for index in fixes.indices where (fixes[index].speed ?? 0) >= 1852.0 / 3600 || index == fixes.count - 1 {
            let run = fixes[start..<(index == fixes.count - 1 ? fixes.count : index)]
            if run.count > longest.count { longest = run }
            start = index + 1
        }
        return Array(longest)
    }

    @Test("standstill logs never fire overspeed: the receiver's speed noise, nor the jitter of the positions",
          .enabled(if: SharedData.isAvailable("nmea/nmea-20130630.log"),
                   SharedData.skipMessage("nmea/nmea-20130630.log")))
    func standstillLogs() throws {
        for path in ["nmea/nmea-20130630.log"] {
            let fixes = try standstill(path)
            try #require(fixes.count >= 60, "\(path): \(fixes.count) fixes at a standstill")
            let noSpeed = fixes.map { fix in
                var fix = fix
                fix.speed = nil
                return fix
            }
            for (label, track) in [("receiver speed", fixes), ("positions only", noSpeed)] {
                // The lowest limit a street has (10 km/h, a shared zone), with the default tolerance and duration.
                var region = Region(center: fixes[0].coordinate, radius: 2000, identifier: "parked")
                region.speedLimit = SpeedLimit(kilometresPerHour: 10)
                let harness = try MonitorHarness()
                harness.start(region)
                harness.feed(track)
                let fired = overspeeds(harness, "parked")
                #expect(fired.isEmpty, "\(path), \(label), \(track.count) fixes: \(fired.summary)")
                print("standstill \(path), \(label): \(track.count) fixes, \(fired.count) overspeed events")
            }
        }
    }

    @Test("bad limits are refused with the field named; the monitor keeps what it had")
    func badLimits() throws {
        let harness = try MonitorHarness()
        harness.start(zone())
        for (limit, field) in [
            (SpeedLimit(kilometresPerHour: -5), "speed_limit_kmh"), (SpeedLimit(kilometresPerHour: 0), "speed_limit_kmh"),
            (SpeedLimit(kilometresPerHour: 5000), "speed_limit_kmh"), (SpeedLimit(kilometresPerHour: .nan), "speed_limit_kmh"),
            (SpeedLimit(kilometresPerHour: 50, toleranceKilometresPerHour: -1), "speed_tolerance_kmh"),
            (SpeedLimit(kilometresPerHour: 50, duration: .infinity), "speed_duration_s"),
        ] {
            var region = Region.test("Z", radius: 5)
            region.speedLimit = limit
            let error = try #require(throws: RegionMonitorError.self) { try region.validate() }
            #expect("\(error)".contains("speed limit's \(field)"), "\(error)")
            #expect(throws: RegionMonitorError.self) { try harness.monitor.startMonitoringOrThrow(for: region) }
        }
        #expect(harness.monitor.monitoredRegions.map(\.speedLimit) == [SpeedLimit(kilometresPerHour: 50)])
    }
}
