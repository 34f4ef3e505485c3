// Crossing times (`RegionEvent.crossedAt`) on hand-made tracks whose crossings are known: between two fixes, with the
// hysteresis passed later, after a long stretch just inside (and one interrupted), along the curve of the fixes'
// speeds and courses (a corner, braking, and the straight segment when the speeds disagree with the positions), a
// pass (and one from a fix already inside), an outage, and the kinds that have none.
import Foundation
import Geofencing
import Testing

@Suite("Crossing times")
struct CrossingTimeTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// A fix `north` metres from the centre of the 100 m test region (along the axis: the boundary is crossed at
    /// right angles, so the straight segment's crossing is the vehicle's), `seconds` after the epoch.
    private func fix(north: Double, east: Double = 0, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: east, north: north), timestamp: TrackBuilder.epoch + seconds)
    }

    /// Seconds after the epoch of an event's crossing.
    private func crossing(_ event: RegionEvent?) -> Double? {
        event?.crossedAt.map { $0.timeIntervalSince(TrackBuilder.epoch) }
    }

    /// Within 10 ms: the plane's distances agree with the core's to 2 cm, at 10 m/s 2 ms; the bisection is finer.
    private func expectNear(_ value: Double?, _ expected: Double, _ comment: Comment? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        guard let value else {
            Issue.record("no crossing time, expected \(expected) s", sourceLocation: sourceLocation)
            return
        }
        #expect(abs(value - expected) < 0.01, "\(value) s, expected \(expected) s. \(comment.map { "\($0)" } ?? "")",
                sourceLocation: sourceLocation)
    }

    @Test("a drive through: each crossing between the last fix on one side and the first on the other")
    func betweenTwoFixes() throws {
        // 10 m/s north from 145 m south: the boundary (100 m south) at t = 4.5 s, the far one at t = 24.5 s. The
        // default hysteresis (10 m) decides the enter at 90 m south (t = 6 s), the exit at 110 m north (t = 26 s).
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed((0...30).map { fix(north: -145 + 10 * Double($0), at: Double($0)) })
        let enter = harness.transitions(of: "A").first { $0.kind == .enter }
        let exit = harness.transitions(of: "A").first { $0.kind == .exit }
        #expect(enter?.time == TrackBuilder.epoch + 6 && exit?.time == TrackBuilder.epoch + 26)
        expectNear(crossing(enter), 4.5)
        expectNear(crossing(exit), 24.5)
    }

    @Test("the hysteresis passed several fixes after the crossing: the crossing, not the deciding fix")
    func hysteresisPassedLater() throws {
        // Hysteresis 40 m: the first fix 40 m inside is 55 m south (t = 9 s), 40 m outside 145 m north (t = 29 s).
        let harness = try MonitorHarness()
        harness.start(.test("A", hysteresis: 40))
        harness.feed((0...40).map { fix(north: -145 + 10 * Double($0), at: Double($0)) })
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.enter, .exit], "\(transitions.summary)")
        #expect(transitions.first?.time == TrackBuilder.epoch + 9)
        expectNear(crossing(transitions.first), 4.5)
        #expect(transitions.last?.time == TrackBuilder.epoch + 29)
        expectNear(crossing(transitions.last), 24.5)
    }

    @Test("a long stretch just inside, then deeper: the enter's crossing is the start of the stretch")
    func longStretchJustInside() throws {
        // 128 m south, 10 m/s north: 2 m inside at t = 3 s (crossed at t = 2.8 s); parked there 60 s (within the
        // 10 m hysteresis), then on north: 12 m inside at t = 64 s, the enter.
        var fixes = (0...3).map { fix(north: -128 + 10 * Double($0), at: Double($0)) }
        fixes += (4...63).map { fix(north: -98, at: Double($0)) }
        fixes += (64...66).map { fix(north: -98 + 10 * Double($0 - 63), at: Double($0)) }
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(fixes)
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(enter.kind == .enter && enter.time == TrackBuilder.epoch + 64, "\(enter.summary)")
        expectNear(crossing(enter), 2.8, "the first crossing of the stretch, not the moment the hysteresis was passed")
    }

    @Test("a stretch just inside broken by fixes outside: the crossing at the start of the last stretch")
    func interruptedStretch() throws {
        // 2 m inside from t = 3 s (crossed at 2.8 s), back to 3 m outside at t = 20 ... 24 s, 2 m inside again at
        // t = 25 s (crossed 3/5 of the way from the fix at t = 24 s: t = 24.6 s), then deep: the enter at t = 27 s.
        var fixes = (0...3).map { fix(north: -128 + 10 * Double($0), at: Double($0)) }
        fixes += (4...19).map { fix(north: -98, at: Double($0)) }
        fixes += (20...24).map { fix(north: -103, at: Double($0)) }
        fixes += [fix(north: -98, at: 25), fix(north: -93, at: 26), fix(north: -80, at: 27)]
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(fixes)
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(enter.kind == .enter && enter.time == TrackBuilder.epoch + 27, "\(enter.summary)")
        expectNear(crossing(enter), 24.6)
    }

    @Test("an exit after driving just outside for a while: the crossing where it left")
    func exitAfterStretchJustOutside() throws {
        // Inside at the centre, north at 10 m/s: 2 m outside at t = 10 s (crossed at t = 9.8 s), parked there
        // 30 s, then on: 12 m outside at t = 41 s, the exit.
        var fixes = (0...10).map { fix(north: 2 + 10 * Double($0), at: Double($0)) }
        fixes += (11...40).map { fix(north: 102, at: Double($0)) }
        fixes += (41...42).map { fix(north: 102 + 10 * Double($0 - 40), at: Double($0)) }
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(fixes)
        let exit = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(exit.kind == .exit && exit.time == TrackBuilder.epoch + 41, "\(exit.summary)")
        expectNear(crossing(exit), 9.8)
    }

    @Test("an interpolated pass: both crossings are the segment's, equal to the events' times")
    func interpolatedPass() throws {
        // A 20 m region passed at 25 m/s between fixes 3 s apart, both outside: in at 20 m south (t = 0.8 s), out
        // at 20 m north (t = 2.4 s).
        let harness = try MonitorHarness()
        harness.start(.test("small", radius: 20))
        harness.feed([fix(north: -40, at: 0), fix(north: 35, at: 3)])
        let transitions = harness.transitions(of: "small")
        #expect(transitions.kinds == [.enter, .exit], "\(transitions.summary)")
        for event in transitions {
            #expect(event.interpolated)
            #expect(event.crossedAt == event.time)
        }
        expectNear(crossing(transitions.first), 0.8)
        expectNear(crossing(transitions.last), 2.4)
    }

    @Test("a corner between fixes 10 s apart: the crossing on the curve of the fixes' velocities, not the chord")
    func aroundACorner() throws {
        // A quarter turn left at 12.6 m/s on a circle of 80 m around (20 m west, 50 m south of the centre): from
        // heading east at 130 m south to heading north at 60 m east, in 10 s; the region's boundary is crossed on
        // the arc at t = 7.06 s. The chord between the two fixes crosses it at 3.82 s; the Hermite curve of their
        // velocities within 0.15 s of the arc (a cubic's departure from a quarter circle is 0.3 % of its radius).
        let radius = 80.0, duration = 10.0, speed = radius * .pi / 2 / duration
        func onArc(_ t: Double) -> (east: Double, north: Double) {
            let angle = -Double.pi / 2 + t / duration * .pi / 2
            return (-20 + radius * cos(angle), -50 + radius * sin(angle))
        }
        // The arc's own crossing, by bisection on the plane's distance (within 2 cm of the core's here).
        var low = 0.0, high = duration
        for _ in 0..<50 {
            let middle = (low + high) / 2, (east, north) = onArc(middle)
            if (east * east + north * north).squareRoot() > 100 { low = middle } else { high = middle }
        }
        let truth = (low + high) / 2
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: -130, east: -20, at: 0).withVelocity(speed: speed, course: 90),
                      fix(north: -50, east: 60, at: duration).withVelocity(speed: speed, course: 0)])
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(enter.kind == .enter && enter.time == TrackBuilder.epoch + duration, "\(enter.summary)")
        let crossed = try #require(crossing(enter))
        #expect(abs(crossed - truth) < 0.15, "crossed at \(crossed) s, the arc at \(truth) s")
    }

    @Test("braking to a stop between two fixes: the crossing early in the gap, as the speeds say")
    func brakingToAStop() throws {
        // 20 m/s north at 160 m south, braking evenly to a stop 60 m south 10 s later: north(t) = -160 + 20 t - t²,
        // across the boundary (100 m south) at t = 10 - √40 = 3.675 s; the straight segment with even time says
        // 6 s. The Hermite curve of these speeds is that very parabola.
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: -160, at: 0).withVelocity(speed: 20, course: 0),
                      fix(north: -60, at: 10).withVelocity(speed: 0, course: 0)])
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(enter.kind == .enter, "\(enter.summary)")
        expectNear(crossing(enter), 10 - 40.0.squareRoot())
    }

    @Test("speeds that disagree with the positions: the straight segment")
    func implausibleSpeeds() throws {
        // 100 m north in 10 s while both fixes say 30 m/s: the curve of those speeds would be a third the length
        // the speeds imply (it rushes ahead and waits: the crossing at 2.7 s), so the segment's 4.5 s is taken.
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: -145, at: 0).withVelocity(speed: 30, course: 0),
                      fix(north: -45, at: 10).withVelocity(speed: 30, course: 0)])
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        expectNear(crossing(enter), 4.5)
    }

    @Test("a pass that starts at a fix already inside: the enter crossed where that fix's stretch began")
    func passFromAFixInside() throws {
        // Fixes 30 m accurate (threshold 30 m): 145 m south (outside) at t = 0, 95 m south at t = 5 (5 m inside,
        // not enough for an enter; crossed at t = 4.5 s), 95 m north at t = 15 (5 m inside): the segment between
        // the last two goes through the centre, a pass, whose entry is clamped to its first fix (t = 5 s). The
        // vehicle crossed at 4.5 s. The exit's crossing is the pass's (t = 15 s): the vehicle has not left yet.
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed([fix(north: -145, at: 0), fix(north: -95, at: 5), fix(north: 95, at: 15),
                      fix(north: 145, at: 20)].map { fix in
            var fix = fix
            fix.horizontalAccuracy = 30
            return fix
        })
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.enter, .exit], "\(transitions.summary)")
        #expect(transitions.allSatisfy { $0.interpolated }, "\(transitions.summary)")
        #expect(transitions.first?.time == TrackBuilder.epoch + 5)
        expectNear(crossing(transitions.first), 4.5)
        expectNear(crossing(transitions.last), 15)
    }

    @Test("an inferred exit after an outage: crossed on the segment across the outage")
    func inferredAfterOutage() throws {
        // Inside 50 m north of the centre until t = 10 s; fixes return at t = 100 s, 250 m north: the straight
        // segment crosses the boundary 50 m along its 200 m, at t = 10 + 90 / 4 = 32.5 s.
        let fixes = (0...10).map { fix(north: 50, at: Double($0)) } + (0..<5).map { fix(north: 250, at: 100 + Double($0)) }
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(fixes)
        let exit = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(exit.kind == .exit && exit.inferred)
        expectNear(crossing(exit), 32.5)
    }

    @Test("an inferred enter after a restart has no crossing: there was no fix before")
    func inferredAfterRestore() throws {
        let harness = try MonitorHarness()
        try harness.monitor.restoreMonitoring(for: .test("A"), state: RegionStateRecord(state: .outside))
        harness.feed([fix(north: 0, at: 0), fix(north: 0, at: 1)])
        let enter = try #require(harness.transitions(of: "A").first, "\(harness.events(of: "A").summary)")
        #expect(enter.kind == .enter && enter.inferred)
        #expect(enter.crossedAt == nil)
    }

    @Test("determinations, dwells and an enter reported for the first determination have no crossing")
    func kindsWithoutCrossing() throws {
        var configuration = MonitorConfiguration()
        configuration.reportsInitialInsideAsEnter = true
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A", dwellTime: 5), .test("far", center: plane.coordinate(east: 5000, north: 0)))
        harness.feed((0...10).map { fix(north: 0, at: Double($0)) })
        let events = harness.regionEvents
        #expect(events.contains { $0.kind == .enter } && events.contains { $0.kind == .dwell }, "\(events.summary)")
        #expect(events.contains { $0.kind == .determined }, "\(events.summary)")
        for event in events { #expect(event.crossedAt == nil, "\(event.summary)") }
    }
}
