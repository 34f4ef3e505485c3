// Approach alarms on hand-made tracks: when the alarm fires, once, what re-arms it, what never fires it, validation.
import Foundation
import Geofencing
import Testing

@Suite("Approach alarms")
struct ApproachAlarmTests {
    /// 2,103 m south of the centre of a 100 m region, heading north at 15 m/s, fixes at 1 Hz from t = 1: the
    /// boundary (north = -100) is reached at t = 2003 / 15 = 133.53 s. (The odd 3 m keep every fix off the point
    /// exactly one hysteresis inside, where the state machine's rules meet.)
    private static let start = -2103.0
    private static let boundaryTime = 2003.0 / 15

    private func northbound(seconds: Int, reportsVelocity: Bool) -> [Fix] {
        var track = TrackBuilder(origin: .brisbane, north: Self.start)
        track.drive(bearing: 0, speed: 15, count: seconds)
        return reportsVelocity ? track.fixes.map { $0.withVelocity(speed: 15, course: 0) } : track.fixes
    }

    private static func offset(_ event: RegionEvent) -> Double { event.time.timeIntervalSince(TrackBuilder.epoch) }

    @Test("fires once, at the fix nearest to lead time before the entry, with or without reported velocity",
          arguments: [15.0, 30, 60], [true, false])
    func firesOnceAtLeadTime(leadTime: Double, reportsVelocity: Bool) throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: leadTime)))
        harness.feed(northbound(seconds: 160, reportsVelocity: reportsVelocity))
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .approach, .enter, .exit], "\(events.summary)")
        let approach = try #require(events.first { $0.kind == .approach })
        // The estimate crosses the lead time at t = 133.53 - T; the alarm fires at the fix within half a second of it.
        let lead = Self.boundaryTime - Self.offset(approach)
        #expect(abs(lead - leadTime) <= 0.5 + 1e-6, "lead \(lead) s")
        #expect(approach.state == .outside)
        #expect(approach.region.approach == ApproachAlarm(leadTime: leadTime))
        // The event carries the fix's distance to the boundary: 15 m/s times the lead.
        #expect(abs(approach.distance! - 15 * lead) < 0.05)
        #expect(TransitionChecker().problems(in: harness.regionEvents) == [])
    }

    @Test("the delegate's didApproach and the event stream carry the same event")
    func deliveredToDelegateAndStream() async throws {
        let harness = try MonitorHarness()
        let stream = harness.monitor.events
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 30)))
        harness.feed(northbound(seconds: 120, reportsVelocity: true))
        let callbacks = harness.recorder.callbacks.filter { if case .approach = $0 { true } else { false } }
        try #require(callbacks.count == 1)
        #expect(callbacks.allSatisfy { $0.isConsistent })
        var streamed: [MonitorEvent] = []
        for await event in stream {
            streamed.append(event)
            if streamed.count == harness.recorder.monitorEvents.count { break }
        }
        #expect(streamed == harness.recorder.monitorEvents)
    }

    @Test("only regions with an alarm approach; two alarms on one line fire in the order they are reached")
    func onlyRegionsWithAnAlarm() throws {
        let plane = LocalPlane(origin: .brisbane)
        let harness = try MonitorHarness()
        harness.start(
            .test("plain"),
            .test("near", approach: ApproachAlarm(leadTime: 20)),
            .test("far", center: plane.coordinate(east: 0, north: 600), approach: ApproachAlarm(leadTime: 20)))
        harness.feed(northbound(seconds: 190, reportsVelocity: true))
        #expect(harness.events(of: "plain").kinds == [.determined, .enter, .exit])
        #expect(harness.events(of: "near").kinds == [.determined, .approach, .enter, .exit])
        #expect(harness.events(of: "far").kinds == [.determined, .approach, .enter, .exit])
        let approaches = harness.regionEvents.filter { $0.kind == .approach }.map(\.regionIdentifier)
        #expect(approaches == ["near", "far"])
        #expect(TransitionChecker().problems(in: harness.regionEvents) == [])
    }

    @Test("maximumDistance holds the alarm back until the fix is that close")
    func maximumDistance() throws {
        let harness = try MonitorHarness()
        // At 15 m/s a 60 s lead is 900 m; the limit of 300 m wins.
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 60, maximumDistance: 300)))
        harness.feed(northbound(seconds: 160, reportsVelocity: true))
        let approach = try #require(harness.events(of: "A").first { $0.kind == .approach })
        #expect(approach.distance! <= 300)
        #expect(approach.distance! > 300 - 15, "the first fix within 300 m")
    }

    @Test("a vehicle passing by tangentially never fires; one whose line clips the circle does")
    func tangentialPass() throws {
        for (offset, fires) in [(150.0, false), (-150.0, false), (80.0, true)] {
            // Eastbound along north = offset, from 1.5 km west to 1.5 km east of the centre of a 100 m region.
            var track = TrackBuilder(origin: .brisbane, east: -1500, north: offset)
            track.drive(bearing: 90, speed: 20, count: 150)
            let harness = try MonitorHarness()
            harness.start(.test("A", approach: ApproachAlarm(leadTime: 30)))
            harness.feed(track.fixes)
            let kinds = harness.events(of: "A").kinds
            if fires {
                #expect(kinds == [.determined, .approach, .enter, .exit], "offset \(offset) m")
            } else {
                #expect(kinds == [.determined], "offset \(offset) m")
            }
        }
    }

    @Test("a stop of 10 s or more outside re-arms it; a shorter one does not", arguments: [5, 20])
    func stoppingRearms(stopSeconds: Int) throws {
        var track = TrackBuilder(origin: .brisbane, north: Self.start)
        track.drive(bearing: 0, speed: 15, count: 100)  // alarm (T = 60 s) at about 900 m, t = 73
        track.park(count: stopSeconds)  // 600 m before the boundary
        track.drive(bearing: 0, speed: 15, count: 60)
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 60)))
        harness.feed(track.fixes)
        let expected: [RegionEvent.Kind] = stopSeconds >= 10
            ? [.determined, .approach, .approach, .enter, .exit] : [.determined, .approach, .enter, .exit]
        #expect(harness.events(of: "A").kinds == expected, "\(harness.events(of: "A").summary)")
    }

    @Test("heading away re-arms it: a second approach gets its own alarm, at the lead time again")
    func headingAwayRearms() throws {
        var track = TrackBuilder(origin: .brisbane, north: Self.start)
        track.drive(bearing: 0, speed: 15, count: 100)  // alarm at t = 73 (T = 60 s); at t = 100, north = -600
        track.drive(bearing: 180, speed: 15, count: 40)  // back south: 40 s heading away
        track.drive(bearing: 0, speed: 15, count: 100)  // and north again, into the region
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 60)))
        harness.feed(track.fixes)
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .approach, .approach, .enter, .exit], "\(events.summary)")
        // The second run starts at north = -1203 at t = 140 and reaches -100 at t = 140 + 1103 / 15.
        let second = try #require(events.filter { $0.kind == .approach }.last)
        let lead = 140 + 1103.0 / 15 - Self.offset(second)
        #expect(abs(lead - 60) <= 0.5 + 1e-6, "lead \(lead) s")
    }

    @Test("jitter at standstill 30 m outside never fires, with or without reported velocity", arguments: [true, false])
    func standstillJitter(reportsVelocity: Bool) throws {
        var track = TrackBuilder(origin: .brisbane, north: -130)
        track.jitter = 8
        track.accuracy = 10
        track.park(count: 600)
        let fixes = reportsVelocity
            ? track.fixes.enumerated().map { $1.withVelocity(speed: 0.05, course: Double($0 * 137 % 360)) }
            : track.fixes
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 60)))
        harness.feed(fixes)
        #expect(harness.events(of: "A").kinds == [.determined])
    }

    @Test("an approach hidden by an outage is not reported late, and an enter spends the alarm")
    func noLateApproach() throws {
        var track = TrackBuilder(origin: .brisbane, north: -700)
        track.drive(bearing: 0, speed: 15, count: 5)  // 625 m out at t = 5: 35 s away, more than T = 30
        track.gap(seconds: 45, toEast: 0, north: 50)  // a tunnel: it enters while nothing is known
        track.drive(bearing: 0, speed: 15, count: 5)  // enter at t = 51, exit at t = 54 (north 110)
        track.drive(bearing: 180, speed: 15, count: 10)  // turning back at once: the alarm was spent inside
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 30)))
        harness.feed(track.fixes)
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .enter, .exit, .enter], "\(events.summary)")
    }

    @Test("unusable fixes count for nothing; an alarm first possible after its lead time fires at once, late")
    func unusableFixes() throws {
        var track = TrackBuilder(origin: .brisbane, north: Self.start)
        track.accuracy = 500  // above maximumAccuracy (100 m): unusable until t = 110, 23 s before the boundary
        track.drive(bearing: 0, speed: 15, count: 110)
        track.accuracy = 5
        track.drive(bearing: 0, speed: 15, count: 40)
        let harness = try MonitorHarness()
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 30)))
        harness.feed(track.fixes)
        let events = harness.events(of: "A")
        #expect(events.kinds == [.determined, .approach, .enter, .exit], "\(events.summary)")
        // Moving needs 3 usable fixes over 2 s for an estimate, then 3 moving estimates over 2 s: t = 111 ... 115.
        let approach = try #require(events.first { $0.kind == .approach })
        #expect(Self.offset(approach) == 115)
    }

    @Test("replacing a region changes or removes its alarm; stopping it forgets it")
    func replacement() throws {
        let harness = try MonitorHarness()
        harness.start(
            .test("A", approach: ApproachAlarm(leadTime: 30)), .test("B", approach: ApproachAlarm(leadTime: 30)))
        harness.start(.test("A", approach: ApproachAlarm(leadTime: 60)), .test("B"))
        harness.feed(northbound(seconds: 100, reportsVelocity: true))
        let approachA = try #require(harness.events(of: "A").first { $0.kind == .approach })
        #expect(abs(Self.boundaryTime - Self.offset(approachA) - 60) <= 0.5 + 1e-6)
        #expect(!harness.events(of: "B").contains { $0.kind == .approach })
        harness.monitor.stopMonitoring(identifier: "A")
        harness.start(.test("C", approach: ApproachAlarm(leadTime: 10)))
        var rest = TrackBuilder(origin: .brisbane, north: Self.start + 1500, startTime: TrackBuilder.epoch + 100)
        rest.drive(bearing: 0, speed: 15, count: 40)
        harness.feed(rest.fixes.map { $0.withVelocity(speed: 15, course: 0) })
        #expect(harness.events(of: "A").filter { $0.kind == .approach }.count == 1)
        #expect(harness.events(of: "C").kinds == [.determined, .approach, .enter], "\(harness.events(of: "C").summary)")
    }

    @Test("invalid alarms are refused with the value named; the region already monitored stays")
    func validation() throws {
        let bad: [(ApproachAlarm, RegionMonitorError)] = [
            (ApproachAlarm(leadTime: 0), .invalidApproachLeadTime(0)),
            (ApproachAlarm(leadTime: -5), .invalidApproachLeadTime(-5)),
            (ApproachAlarm(leadTime: .infinity), .invalidApproachLeadTime(.infinity)),
            (ApproachAlarm(leadTime: 300.5), .invalidApproachLeadTime(300.5)),
            (ApproachAlarm(leadTime: 30, maximumDistance: 0), .invalidApproachDistance(0)),
            (ApproachAlarm(leadTime: 30, maximumDistance: -1), .invalidApproachDistance(-1)),
            (ApproachAlarm(leadTime: 30, maximumDistance: 50_001), .invalidApproachDistance(50_001)),
        ]
        let harness = try MonitorHarness()
        let kept = Region.test("A", approach: ApproachAlarm(leadTime: 30))
        try harness.monitor.startMonitoringOrThrow(for: kept)
        for (alarm, error) in bad {
            #expect(throws: error) { try harness.monitor.startMonitoringOrThrow(for: .test("A", approach: alarm)) }
            #expect(throws: error) { try harness.monitor.startMonitoringOrThrow(for: .test("new", approach: alarm)) }
        }
        #expect(harness.monitor.monitoredRegions == [kept])
        do {
            _ = try RegionIndex(regions: [.test("A", approach: ApproachAlarm(leadTime: .nan))])
            Issue.record("a NaN lead time was accepted")
        } catch {
            guard case .invalidApproachLeadTime(let t) = error, t.isNaN else {
                Issue.record("\(error)")
                return
            }
        }
        #expect("\(RegionMonitorError.invalidApproachLeadTime(0))"
            == "the approach alarm's lead time 0.0 s is outside 0 s < T <= 300 s")
        #expect("\(RegionMonitorError.invalidApproachDistance(-1))"
            == "the approach alarm's maximum distance -1.0 m is outside 0 m < d <= 50000 m")
        for good in [ApproachAlarm(leadTime: 300), ApproachAlarm(leadTime: 0.5, maximumDistance: 50_000)] {
            try harness.monitor.startMonitoringOrThrow(for: .test("B", approach: good))
        }
    }
}

extension Region {
    /// A region centred on `center` (Brisbane GPO unless told) with an approach alarm.
    static func test(
        _ identifier: String, radius: Double = 100, center: Coordinate = .brisbane, approach: ApproachAlarm?
    ) -> Region {
        Region(center: center, radius: radius, identifier: identifier, approach: approach)
    }
}

extension Fix {
    /// This fix with a reported speed (m/s) and course (degrees), as a receiver's Doppler velocity.
    func withVelocity(speed: Double, course: Double) -> Fix {
        var fix = self
        fix.speed = speed
        fix.course = course
        return fix
    }
}
