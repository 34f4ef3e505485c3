// Sparse fixes: a fast vehicle crossing a small region between two fixes that are both outside gets an enter and an
// exit with interpolated times, unless the fixes are more than maximumInterpolationGap apart.
import Foundation
import Geofencing
import Testing

@Suite("Sparse fixes and fast passes")
struct SparseFixTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// Fixes 1 s apart at 40 m/s heading north on the line `lateral` metres east of the centre, placed at
    /// north = -180, -140, ..., -20, +20, ..., +180: none within 20 m of the centre's parallel.
    private func fastTrack(lateral: Double, accuracy: Double? = nil) -> [Fix] {
        var track = TrackBuilder(origin: .brisbane, east: lateral, north: -180)
        track.accuracy = accuracy
        track.fix()
        track.drive(bearing: 0, speed: 40, count: 9)
        return track.fixes
    }

    @Test("40 m/s through a 15 m region with no fix inside: enter and exit, both interpolated, between the two fixes",
          arguments: [0.0, 6.0, 10.0])
    func fastPass(lateral: Double) throws {
        let fixes = fastTrack(lateral: lateral)
        let radius = 15.0
        #expect(fixes.allSatisfy { plane.boundaryDistance($0.coordinate, radius: radius) > 0 }, "no fix lands inside")
        let harness = try MonitorHarness()
        harness.start(.test("small", radius: radius))  // hysteresis min(10, 15/4) = 3.75 m
        harness.feed(fixes)
        let transitions = harness.transitions(of: "small")
        try #require(transitions.kinds == [.enter, .exit], "\(harness.events(of: "small").summary)")
        let (enter, exit) = (transitions[0], transitions[1])
        #expect(enter.interpolated && exit.interpolated)
        #expect(!enter.inferred && !exit.inferred)
        #expect(enter.state == .inside && exit.state == .outside)
        #expect(exit.sequence == enter.sequence + 1)
        // The segment from north = -20 (t+4) to +20 (t+5) crosses the circle at north = -/+ sqrt(15^2 - lateral^2).
        let before = TrackBuilder.epoch + 4, after = TrackBuilder.epoch + 5
        #expect(before < enter.time && enter.time < exit.time && exit.time < after, "\(transitions.summary)")
        let halfChord = (radius * radius - lateral * lateral).squareRoot()
        let expectedEntry = before + (20 - halfChord) / 40, expectedExit = before + (20 + halfChord) / 40
        #expect(abs(enter.time.timeIntervalSince(expectedEntry)) < 0.01, "\(enter.summary)")
        #expect(abs(exit.time.timeIntervalSince(expectedExit)) < 0.01, "\(exit.summary)")
        // The events' positions are the crossing points, on the boundary.
        #expect(abs(plane.boundaryDistance(enter.coordinate, radius: radius)) < 0.2)
        #expect(abs(plane.boundaryDistance(exit.coordinate, radius: radius)) < 0.2)
        #expect(harness.monitor.state(for: "small") == .outside)
        #expect(TransitionChecker().problems(in: harness.regionEvents).isEmpty)
    }

    @Test("a segment that only grazes the region (less than the hysteresis deep) gives no events")
    func grazingPass() throws {
        let harness = try MonitorHarness()
        harness.start(.test("small", radius: 15))
        harness.feed(fastTrack(lateral: 12))  // 3 m deep < 3.75 m hysteresis
        #expect(harness.transitions(of: "small").isEmpty, "\(harness.events(of: "small").summary)")
    }

    @Test("the fixes' accuracy deepens the required pass like the ordinary rule")
    func accuracyDeepensPass() throws {
        let accurate = try MonitorHarness()
        accurate.start(.test("small", radius: 15))
        accurate.feed(fastTrack(lateral: 5, accuracy: 3))
        #expect(accurate.transitions(of: "small").kinds == [.enter, .exit])
        let vague = try MonitorHarness()
        vague.start(.test("small", radius: 15))
        vague.feed(fastTrack(lateral: 5, accuracy: 12))  // needs 12 m deep: closest approach <= 3 m
        #expect(vague.transitions(of: "small").isEmpty, "\(vague.events(of: "small").summary)")
    }

    @Test("a gap longer than maximumInterpolationGap: no interpolated events; at the limit: interpolated",
          arguments: [(10.0, true), (10.5, false), (30.0, false)])
    func gapLimit(gap: Double, interpolates: Bool) throws {
        let fixes = [
            Fix(coordinate: plane.coordinate(east: 0, north: -60), timestamp: TrackBuilder.epoch),
            Fix(coordinate: plane.coordinate(east: 0, north: -20), timestamp: TrackBuilder.epoch + 1),
            Fix(coordinate: plane.coordinate(east: 0, north: 20), timestamp: TrackBuilder.epoch + 1 + gap),
        ]
        let harness = try MonitorHarness()
        harness.start(.test("small", radius: 15))
        harness.feed(fixes)
        let transitions = harness.transitions(of: "small")
        if interpolates {
            #expect(transitions.kinds == [.enter, .exit], "\(transitions.summary)")
            #expect(transitions.allSatisfy { $0.interpolated })
        } else {
            #expect(transitions.isEmpty, "\(transitions.summary)")
        }
        #expect(harness.monitor.state(for: "small") == .outside)
    }

    @Test("a one-epoch position glitch does not invent passes through the regions between; a higher speed limit does")
    func glitchIsNotInterpolated() throws {
        // 30 regions (30 m) in a line 1 km east of the route; one fix jumps 3.6 km (north-east) for one second.
        func run(maximumSpeed: Double) throws -> [RegionEvent] {
            var configuration = MonitorConfiguration()
            configuration.maximumInterpolationSpeed = maximumSpeed
            let harness = try MonitorHarness(configuration: configuration)
            for index in 0..<30 {
                let center = plane.coordinate(east: 1000, north: Double(index) * 100)
                harness.start(.test("g\(index)", radius: 30, center: center))
            }
            harness.feed([(0.0, 0.0), (0, 10), (2000, 3000), (0, 30)].enumerated().map { index, position in
                Fix(coordinate: plane.coordinate(east: position.0, north: position.1),
                    timestamp: TrackBuilder.epoch + Double(index))
            })
            return harness.regionEvents.filter { $0.kind != .determined }
        }
        #expect(try run(maximumSpeed: MonitorConfiguration().maximumInterpolationSpeed).isEmpty)
        #expect(try !run(maximumSpeed: 10_000).isEmpty, "the glitch's segments do cross regions")
    }

    @Test("when a fix does land inside, the ordinary rule speaks: enter and exit are not interpolated")
    func fixInsideIsNotInterpolated() throws {
        var track = TrackBuilder(origin: .brisbane, north: -160)
        track.fix()
        track.drive(bearing: 0, speed: 40, count: 8)  // ..., -40, 0, +40, ...: one fix at the centre
        let harness = try MonitorHarness()
        harness.start(.test("small", radius: 15))
        harness.feed(track.fixes)
        let transitions = harness.transitions(of: "small")
        #expect(transitions.kinds == [.enter, .exit], "\(transitions.summary)")
        #expect(transitions.allSatisfy { !$0.interpolated })
        #expect(transitions.first?.time == TrackBuilder.epoch + 4)
    }

    @Test("two small regions crossed by one segment: every pass reported, events in time order")
    func twoRegionsOneSegment() throws {
        // Regions at north -30 and +30 (radius 10, hysteresis 2.5); one 2 s segment from -60 to +60.
        for order in [["south", "north"], ["north", "south"]] {
            let harness = try MonitorHarness()
            for name in order {
                let center = plane.coordinate(east: 0, north: name == "south" ? -30 : 30)
                harness.start(.test(name, radius: 10, center: center))
            }
            harness.feed([
                Fix(coordinate: plane.coordinate(east: 0, north: -100), timestamp: TrackBuilder.epoch),
                Fix(coordinate: plane.coordinate(east: 0, north: -60), timestamp: TrackBuilder.epoch + 1),
                Fix(coordinate: plane.coordinate(east: 0, north: 60), timestamp: TrackBuilder.epoch + 3),
            ])
            let transitions = harness.regionEvents.filter { $0.kind != .determined }
            #expect(transitions.count == 4, "start order \(order): \(transitions.summary)")
            #expect(transitions.allSatisfy { $0.interpolated })
            // Delivered (sequence) order agrees with time order: south's exit comes before north's enter.
            #expect(zip(transitions, transitions.dropFirst()).allSatisfy { $0.time <= $1.time },
                    "start order \(order): \(transitions.summary)")
        }
    }

    @Test("across the antimeridian: a drive east over 180 degrees enters and exits once",
          arguments: [false, true])
    func antimeridian(fast: Bool) throws {
        let center = Coordinate(latitude: -17.5, longitude: 179.9995)  // Fiji; the region spans the meridian
        let plane = LocalPlane(origin: center)
        let radius = fast ? 15.0 : 100.0
        var track = TrackBuilder(origin: center, east: fast ? -180 : -300.3)
        track.fix()
        track.drive(bearing: 90, speed: fast ? 40 : 9, count: fast ? 9 : 66)
        #expect(track.fixes.contains { $0.coordinate.longitude < 0 }, "the track crosses to the western hemisphere")
        if fast { #expect(track.fixes.allSatisfy { plane.boundaryDistance($0.coordinate, radius: radius) > 0 }) }
        let harness = try MonitorHarness()
        harness.start(.test("fiji", radius: radius, center: center))
        harness.feed(track.fixes)
        let transitions = harness.transitions(of: "fiji")
        #expect(transitions.kinds == [.enter, .exit], "\(harness.events(of: "fiji").summary)")
        #expect(transitions.allSatisfy { $0.interpolated == fast })
        for event in transitions where fast {
            let offBoundary = plane.boundaryDistance(event.coordinate, radius: radius)
            #expect(abs(offBoundary) < 0.2, "\(event.summary) at \(event.coordinate)")
        }
    }
}
