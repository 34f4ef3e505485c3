// Hysteresis: a receiver jittering on a boundary does not flap; a drive through gives one enter and one exit, each on
// the first fix past the margin (the latency rule: no delay beyond the hysteresis).
import Foundation
import Geofencing
import GeofencingInputs
import Testing
import GeofencingTestSupport

@Suite("Hysteresis and latency")
struct HysteresisTests {
    /// Fixes of a receiver parked on the boundary of a 100 m region around the origin, at `bearing` from the centre,
    /// for 10 minutes at 1 Hz, each scattered uniformly within `jitter` metres.
    private func parkedOnBoundary(jitter: Double, bearing: Double, seed: UInt64) -> [Fix] {
        let radians = bearing * .pi / 180
        var track = TrackBuilder(origin: .brisbane, east: 100 * sin(radians), north: 100 * cos(radians), seed: seed)
        track.jitter = jitter
        track.fix()
        track.park(count: 599)
        return track.fixes
    }

    /// How often the true boundary distance changes sign along the fixes: proof that a track really jitters across
    /// the boundary (otherwise "no flapping" would prove nothing).
    private func boundaryCrossings(_ fixes: [Fix], radius: Double = 100) -> Int {
        let plane = LocalPlane(origin: .brisbane)
        let sides = fixes.map { plane.boundaryDistance($0.coordinate, radius: radius) <= 0 }
        return zip(sides, sides.dropFirst()).filter { $0 != $1 }.count
    }

    // 8 m: the brief's jitter; 9.6 m: the largest wander measured on the moored yacht (README, "Why 10 m").
    @Test("parked on a 100 m boundary with jitter: no flapping (at most one transition)",
          arguments: [(8.0, 0.0, UInt64(1)), (8.0, 135.0, 2), (9.6, 270.0, 3), (9.6, 45.0, 4)])
    func parkedOnBoundaryDoesNotFlap(jitter: Double, bearing: Double, seed: UInt64) throws {
        let fixes = parkedOnBoundary(jitter: jitter, bearing: bearing, seed: seed)
        try #require(boundaryCrossings(fixes) > 100, "the track must cross the boundary often to test anything")
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(fixes)
        let transitions = harness.transitions(of: "A")
        #expect(transitions.count <= 1, "\(transitions.summary)")
        #expect(harness.events(of: "A").filter { $0.kind == .determined }.count == 1)
    }

    @Test("the same jittering track does flap without hysteresis (the parked test has teeth)")
    func withoutHysteresisItFlaps() throws {
        let fixes = parkedOnBoundary(jitter: 8, bearing: 0, seed: 1)
        let harness = try MonitorHarness()
        harness.start(.test("A", hysteresis: 0))
        harness.feed(fixes)
        #expect(harness.transitions(of: "A").count > 50)
    }

    @Test("the real stationary jitter of the moored-yacht log, replayed onto a boundary, does not flap",
          .enabled(if: SharedData.isAvailable("nmea/nmea-20130630.log"),
                   SharedData.skipMessage("nmea/nmea-20130630.log")))
    func realJitterDoesNotFlap() throws {
        let log = try NMEAReader.read(path: SharedData.url("nmea/nmea-20130630.log").path)
        #expect(log.statistics.checksumFailures == 0)
        let stretches = stationaryStretches(log.observations.compactMap(\.fix))
        try #require(!stretches.isEmpty, "the log has stationary stretches of 60+ fixes")
        for (index, stretch) in stretches.enumerated() {
            let offsets = offsetsFromMedian(stretch)
            let widest = offsets.max { hypot($0.east, $0.north) < hypot($1.east, $1.north) }!
            // Worst case orientation: the widest excursion straight outwards, then straight inwards.
            for outward in [true, false] {
                let turn = atan2(widest.east, widest.north) + (outward ? 0 : .pi)
                let plane = LocalPlane(origin: .brisbane)
                let fixes = zip(stretch, offsets).map { fix, offset in
                    let east = offset.east * cos(turn) - offset.north * sin(turn)
                    let north = offset.east * sin(turn) + offset.north * cos(turn)
                    return Fix(coordinate: plane.coordinate(east: east, north: 100 + north), timestamp: fix.timestamp)
                }
                let harness = try MonitorHarness()
                harness.start(.test("A"))
                harness.feed(fixes)
                let transitions = harness.transitions(of: "A")
                let widestMetres = hypot(widest.east, widest.north)
                #expect(transitions.count <= 1, """
                    stretch \(index) (\(stretch.count) fixes, widest \(widestMetres) m), outward \(outward):
                    \(transitions.summary)
                    """)
                if index == 0, outward {
                    // The replay does cross the boundary: without hysteresis it flaps.
                    let bare = try MonitorHarness()
                    bare.start(.test("A", hysteresis: 0))
                    bare.feed(fixes)
                    #expect(bare.transitions(of: "A").count > 10)
                }
            }
        }
    }

    /// Runs of at least 60 consecutive fixes slower than 0.5 kn (as scripts/measure_jitter.py finds them).
    private func stationaryStretches(_ fixes: [Fix]) -> [[Fix]] {
        var stretches: [[Fix]] = [], run: [Fix] = []
        for fix in fixes {
            if let speed = fix.speed, speed < 0.5 * 1852 / 3600 {
                run.append(fix)
            } else {
                if run.count >= 60 { stretches.append(run) }
                run = []
            }
        }
        if run.count >= 60 { stretches.append(run) }
        return stretches
    }

    /// East/north metres of each fix from the stretch's median position.
    private func offsetsFromMedian(_ fixes: [Fix]) -> [(east: Double, north: Double)] {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let plane = LocalPlane(origin: Coordinate(
            latitude: median(fixes.map(\.coordinate.latitude)), longitude: median(fixes.map(\.coordinate.longitude))))
        return fixes.map { plane.offset(of: $0.coordinate) }
    }

    // MARK: - Latency

    /// Index of the first fix from `start` on whose boundary distance satisfies `condition`.
    private func firstIndex(_ fixes: [Fix], from start: Int = 0, radius: Double, where condition: (Double) -> Bool)
        -> Int?
    {
        let plane = LocalPlane(origin: .brisbane)
        return fixes.indices.dropFirst(start).first {
            condition(plane.boundaryDistance(fixes[$0].coordinate, radius: radius))
        }
    }

    /// Whether every fix is clear of the thresholds by more than the core's distance error (and then some), so
    /// which side each fix is on can be judged independently of the code under test.
    private func isClearOfThresholds(_ fixes: [Fix], radius: Double, thresholds: [Double]) -> Bool {
        let plane = LocalPlane(origin: .brisbane)
        return fixes.allSatisfy { fix in
            let s = plane.boundaryDistance(fix.coordinate, radius: radius)
            return thresholds.allSatisfy { abs(s - $0) > 0.1 }
        }
    }

    struct Drive: CustomTestStringConvertible, Sendable {
        var radius: Double
        var speed: Double
        var accuracy: Double?
        var hysteresis: Double?
        /// The margin the rule should use: max(hysteresis, accuracy).
        var threshold: Double
        var lateral: Double  // metres east of the centre the straight northbound line passes
        var testDescription: String {
            let a = accuracy.map { "\($0)" } ?? "nil", h = hysteresis.map { "\($0)" } ?? "default"
            return "r=\(radius) v=\(speed) a=\(a) h=\(h) lateral=\(lateral)"
        }
    }

    @Test("a drive straight through gives exactly one enter and one exit, each on the first fix past the threshold",
          arguments: [
              Drive(radius: 100, speed: 12, threshold: 10, lateral: 0),  // default hysteresis 10 m
              Drive(radius: 100, speed: 3.3, threshold: 10, lateral: 40),  // a chord, slowly: fixes inside the band
              Drive(radius: 100, speed: 7, accuracy: 25, threshold: 25, lateral: 0),  // accuracy wider than h
              Drive(radius: 100, speed: 7, accuracy: 4, threshold: 10, lateral: 0),  // accuracy narrower than h
              Drive(radius: 20, speed: 1.3, threshold: 5, lateral: 0),  // small region: h = r/4
              Drive(radius: 100, speed: 2.2, hysteresis: 3, threshold: 3, lateral: 0),  // per-region override
          ])
    func driveThrough(_ drive: Drive) throws {
        // Start 3 radii south and drive north to 3 radii beyond, shifting the start by a few centimetres until no
        // fix lies within 0.1 m of a threshold.
        let fixes = try #require((0..<40).lazy.map { attempt -> [Fix] in
            let start = -3 * drive.radius - 0.37 - 0.071 * Double(attempt)
            var track = TrackBuilder(origin: .brisbane, east: drive.lateral, north: start)
            track.accuracy = drive.accuracy
            track.fix()
            track.drive(bearing: 0, speed: drive.speed, count: Int(6 * drive.radius / drive.speed))
            return track.fixes
        }.first { isClearOfThresholds($0, radius: drive.radius, thresholds: [-drive.threshold, drive.threshold]) })
        let enterIndex = try #require(firstIndex(fixes, radius: drive.radius) { $0 <= -drive.threshold })
        let exitIndex = try #require(
            firstIndex(fixes, from: enterIndex, radius: drive.radius) { $0 >= drive.threshold })
        if drive.speed < drive.threshold {
            // Steps shorter than the margin: some fix is across the boundary but not yet past the margin, so "the
            // first fix past the threshold" is a different fix from "the first fix inside" (the test can tell).
            let firstInside = try #require(firstIndex(fixes, radius: drive.radius) { $0 <= 0 })
            #expect(firstInside < enterIndex)
        }
        let harness = try MonitorHarness()
        harness.start(.test("A", radius: drive.radius, hysteresis: drive.hysteresis))
        harness.feed(fixes)
        let transitions = harness.transitions(of: "A")
        try #require(transitions.kinds == [.enter, .exit], "\(harness.events(of: "A").summary)")
        #expect(transitions[0].time == fixes[enterIndex].timestamp, "enter latency: \(transitions.summary)")
        #expect(transitions[1].time == fixes[exitIndex].timestamp, "exit latency: \(transitions.summary)")
        #expect(transitions[0].coordinate == fixes[enterIndex].coordinate)
        #expect(transitions.allSatisfy { !$0.interpolated && !$0.inferred })
        #expect(transitions[0].distance! <= -drive.threshold + 0.05)
        #expect(transitions[1].distance! >= drive.threshold - 0.05)
        #expect(TransitionChecker().problems(in: harness.regionEvents).isEmpty)
    }
}
