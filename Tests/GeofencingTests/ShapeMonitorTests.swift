// Polygons and corridors through the monitor: the rules of circles apply unchanged (a many-sided polygon and a
// corridor of one point see every track as the circle does, passes between fixes included), and what only shapes
// have: holes, concave outlines, corridors along a route, replacement between shapes, approach alarms, bad shapes.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

/// Shapes built around circles, in a local plane (its distances are within 2 cm of the geodesic ones up to 400 m,
/// LocalPlaneTests).
enum TestShapes {
    /// A regular polygon of `sides` vertices on the circle (centre, radius). Its edges lie inside the circle by at
    /// most radius * (1 - cos(pi / sides)): 0.95 mm for 100 m and 720 sides.
    static func polygon(around center: Coordinate, radius: Double, sides: Int = 720) -> [Coordinate] {
        let plane = LocalPlane(origin: center)
        return (0..<sides).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(sides)
            return plane.coordinate(east: radius * sin(angle), north: radius * cos(angle))
        }
    }

    /// A corridor path of two vertices 1e-7 degrees (about 1 cm) apart at `center`: with a half-width r it is the
    /// circle of radius r to within 1 cm.
    static func dot(_ center: Coordinate) -> [Coordinate] {
        [center, Coordinate(latitude: center.latitude, longitude: center.longitude + 1e-7)]
    }

    /// A rectangle in the plane around `origin`: east and north extents in metres.
    static func rectangle(_ plane: LocalPlane, east: ClosedRange<Double>, north: ClosedRange<Double>) -> [Coordinate] {
        [plane.coordinate(east: east.lowerBound, north: north.lowerBound),
         plane.coordinate(east: east.upperBound, north: north.lowerBound),
         plane.coordinate(east: east.upperBound, north: north.upperBound),
         plane.coordinate(east: east.lowerBound, north: north.upperBound)]
    }

    /// The same region with another shape (identifier and options kept).
    static func reshaped(_ region: Region, _ shape: RegionShape) -> Region {
        var copy = region
        copy.shape = shape
        return copy
    }
}

/// What two runs over the same track must agree on, event by event: the same kinds, regions, times and flags, and
/// distances within `tolerance` metres.
private func expectSameEvents(_ shaped: [RegionEvent], _ circles: [RegionEvent], tolerance: Double,
                              _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(shaped.count == circles.count, "\(what): \(shaped.count) events, circles \(circles.count)",
            sourceLocation: sourceLocation)
    for (shape, circle) in zip(shaped, circles) {
        let same = shape.kind == circle.kind && shape.regionIdentifier == circle.regionIdentifier
            && shape.state == circle.state && shape.inferred == circle.inferred
            && shape.interpolated == circle.interpolated
            && abs(shape.time.timeIntervalSince(circle.time)) <= (circle.interpolated ? 0.01 : 0)
        #expect(same, "\(what): \(shape.summary) vs circle \(circle.summary)", sourceLocation: sourceLocation)
        if let a = shape.distance, let b = circle.distance {
            #expect(abs(a - b) <= tolerance, "\(what): distance \(a) vs circle \(b) at \(circle.summary)",
                    sourceLocation: sourceLocation)
        } else {
            #expect((shape.distance == nil) == (circle.distance == nil), "\(what): \(shape.summary)",
                    sourceLocation: sourceLocation)
        }
    }
}

/// Runs `regions` over `fixes` on a fresh monitor; returns the region events.
private func events(of regions: [Region], over fixes: [Fix]) throws -> [RegionEvent] {
    let harness = try MonitorHarness()
    for region in regions { harness.monitor.startMonitoring(for: region) }
    harness.feed(fixes)
    #expect(!harness.recorder.callbacks.contains { if case .failed = $0 { true } else { false } })
    return harness.regionEvents
}

@Suite("Polygons and corridors in the monitor")
struct ShapeMonitorTests {
    static let origin = Coordinate.brisbane

    @Test("passes between fixes: a 720-gon and a one-point corridor give the circle's interpolated enter and exit")
    func interpolatedPassesMatchCircles() throws {
        // Fixes 100 m apart (20 m/s, one per 5 s) going east; circles of 30 m (hysteresis 7.5 m) between fixes at
        // lateral offsets 0 ... 28 m: the first ones are passed deep enough, the last not (22.5 m is the limit).
        let plane = LocalPlane(origin: Self.origin)
        var circles: [Region] = []
        for (index, offset) in [0.0, 8, 15, 20, 22, 23, 28].enumerated() {
            let center = plane.coordinate(east: 150 + 200 * Double(index), north: offset)
            circles.append(Region(center: center, radius: 30, identifier: "c\(index)"))
        }
        var track = TrackBuilder(origin: Self.origin, east: -100)
        track.interval = 5
        track.fix()
        track.drive(bearing: 90, speed: 20, count: 16)
        let reference = try events(of: circles, over: track.fixes)
        let passes = reference.filter { $0.interpolated }
        #expect(passes.count == 10, "five circles passed deep enough, each an enter and an exit:\n\(reference.summary)")

        let polygons = circles.map { TestShapes.reshaped($0, .polygon(rings: [TestShapes.polygon(around: $0.center,
                                                                                                  radius: 30)])) }
        let corridors = circles.map { TestShapes.reshaped($0, .corridor(path: TestShapes.dot($0.center), halfWidth: 30)) }
        // Same hysteresis as the circles (a polygon's default is 10 m, the circle's a quarter of its radius).
        let withHysteresis = { (region: Region) -> Region in
            var copy = region
            copy.hysteresis = 7.5
            return copy
        }
        expectSameEvents(try events(of: polygons.map(withHysteresis), over: track.fixes), reference, tolerance: 0.05,
                         "720-gons")
        expectSameEvents(try events(of: corridors, over: track.fixes), reference, tolerance: 0.05, "corridors")
    }

    @Test("a concave polygon crossed twice between two fixes: one pass, from the first entry to the last exit")
    func concavePassIsOnePass() throws {
        // A U open to the north: two arms 40 m wide (east -100 ... -60 and 60 ... 100), joined south of north -50.
        let plane = LocalPlane(origin: Self.origin)
        let u = [(-100.0, -100.0), (100, -100), (100, 100), (60, 100), (60, -50), (-60, -50), (-60, 100), (-100, 100)]
            .map { plane.coordinate(east: $0.0, north: $0.1) }
        var track = TrackBuilder(origin: Self.origin, east: -150, north: 0)
        track.interval = 10
        track.fix()
        track.drive(bearing: 90, speed: 30, count: 1)  // 300 m in one step: through both arms
        track.drive(bearing: 90, speed: 30, count: 1)
        let found = try events(of: [Region(shape: .polygon(rings: [u]), identifier: "u")], over: track.fixes)
            .filter { $0.kind != .determined }
        #expect(found.map(\.kind) == [.enter, .exit], "\(found.summary)")
        let start = track.fixes[0].timestamp
        // Entry at east -100 (50 m of 300 into the step), exit at east 100 (250 m): 1/6 and 5/6 of 10 s.
        if found.count == 2 {
            #expect(abs(found[0].time.timeIntervalSince(start) - 10.0 / 6) < 0.01, "\(found.summary)")
            #expect(abs(found[1].time.timeIntervalSince(start) - 50.0 / 6) < 0.01, "\(found.summary)")
            #expect(found.allSatisfy { $0.interpolated })
        }
    }

    @Test("a polygon with a hole: crossing it is enter, exit into the hole, enter out of it, exit")
    func hole() throws {
        let plane = LocalPlane(origin: Self.origin)
        let outer = TestShapes.rectangle(plane, east: -200...200, north: -200...200)
        let hole = TestShapes.rectangle(plane, east: -50...50, north: -50...50)
        var track = TrackBuilder(origin: Self.origin, east: -300)
        track.fix()
        track.drive(bearing: 90, speed: 10, count: 60)
        let found = try events(of: [Region(shape: .polygon(rings: [outer, hole]), identifier: "ring")],
                               over: track.fixes)
        let transitions = found.filter { $0.kind == .enter || $0.kind == .exit }
        #expect(found.first?.kind == .determined && found.first?.state == .outside)
        #expect(transitions.map(\.kind) == [.enter, .exit, .enter, .exit], "\(transitions.summary)")
        // Each transition at the first fix past its boundary by the hysteresis (10 m): east -190, -40, 60, 210.
        for (event, boundary) in zip(transitions, [-200.0, -50, 50, 200]) {
            let east = plane.offset(of: event.coordinate).east
            #expect(east - boundary >= 10 && east - boundary < 20, "\(event.summary) at east \(east)")
            #expect(abs(abs(event.distance ?? 0) - (east - boundary)) < 0.05, "\(event.summary)")
        }
    }

    @Test("a corridor along a noisy 3 km drive: inside all along, one exit after the turn, on time")
    func corridorAlongRoute() throws {
        let plane = LocalPlane(origin: Self.origin)
        let route = try SimulatedRoute(waypoints: [
            RouteWaypoint(plane.coordinate(east: 0, north: 0)),
            RouteWaypoint(plane.coordinate(east: 0, north: 3000)),
            RouteWaypoint(plane.coordinate(east: 1500, north: 3000)),
        ])
        let path = [plane.coordinate(east: 0, north: -200), plane.coordinate(east: 0, north: 3000)]
        let halfWidth = 25.0
        for seed: UInt64 in 1...3 {
            let drive = try DriveSimulator(
                route: route, profile: SpeedProfile.car.cruising(at: 14), errors: .consumer, sampleRate: 1, seed: seed
            ).run()
            let found = try events(of: [Region(shape: .corridor(path: path, halfWidth: halfWidth), identifier: "road")],
                                   over: drive.fixes)
            #expect(found.map(\.kind) == [.determined, .exit], "seed \(seed):\n\(found.summary)")
            #expect(found.first?.state == .inside)
            // The true exit: the first time the true position is farther than the half-width from the path.
            let start = plane.offset(of: path[0]).north, end = plane.offset(of: path[1]).north
            let trueExit = try #require(drive.samples.first {
                let at = plane.offset(of: $0.truth.coordinate)
                let along = min(max(at.north, start), end)
                return (at.east * at.east + (at.north - along) * (at.north - along)).squareRoot() > halfWidth
            }?.time)
            if let exit = found.last, exit.kind == .exit {
                // Late by the hysteresis (6.25 m at 14 m/s: 0.45 s) plus the noise; never before the true exit by
                // more than the noise allows.
                let late = exit.time.timeIntervalSince(trueExit)
                #expect(late >= -1 && late <= 3, "seed \(seed): exit \(late) s after the true exit")
            }
        }
    }

    @Test("replacing a region's shape keeps its state: circle to polygon to corridor, no exit while still inside")
    func replacementAcrossShapes() throws {
        let harness = try MonitorHarness()
        let plane = LocalPlane(origin: Self.origin)
        let circle = Region(center: Self.origin, radius: 100, identifier: "depot")
        harness.start(circle)
        var track = TrackBuilder(origin: Self.origin)
        track.fix()
        harness.feed(track.fixes)
        #expect(harness.monitor.state(for: "depot") == .inside)

        let square = TestShapes.reshaped(circle, .polygon(rings: [TestShapes.rectangle(plane, east: -300...300,
                                                                                       north: -300...300)]))
        harness.start(square)
        let corridor = TestShapes.reshaped(circle, .corridor(path: [plane.coordinate(east: -500, north: 0),
                                                                    plane.coordinate(east: 500, north: 0)],
                                                             halfWidth: 50))
        track.park(count: 3)
        harness.feed(Array(track.fixes.suffix(3)))
        harness.start(corridor)
        track.park(count: 3)
        harness.feed(Array(track.fixes.suffix(3)))
        #expect(harness.transitions(of: "depot").isEmpty, "\(harness.events(of: "depot").summary)")
        #expect(harness.monitor.monitoredRegions == [corridor])

        // A corridor that leaves the vehicle 400 m outside: the next fix exits.
        let away = TestShapes.reshaped(circle, .corridor(path: [plane.coordinate(east: -500, north: 400),
                                                                plane.coordinate(east: 500, north: 400)],
                                                         halfWidth: 50))
        harness.start(away)
        track.park(count: 1)
        harness.feed(Array(track.fixes.suffix(1)))
        let transitions = harness.transitions(of: "depot")
        #expect(transitions.map(\.kind) == [.exit], "\(transitions.summary)")
        #expect(abs((transitions.first?.distance ?? 0) - 350) < 0.05)
    }

    @Test("regions of all shapes started, stopped and restarted: every event names the region the fix is in")
    func slotsStayWithTheirRegions() throws {
        // 60 regions along an eastward line, one every 100 m, cycling circle / polygon / corridor; every other one
        // stopped, then 30 new ones of the next shape put in the gaps (reusing the core's slots).
        let plane = LocalPlane(origin: Self.origin)
        func region(_ index: Int, _ generation: Int) -> Region {
            let center = plane.coordinate(east: 100 * Double(index), north: 0)
            let identifier = "r\(index)-g\(generation)"
            switch (index + generation) % 3 {
            case 0: return Region(center: center, radius: 30, identifier: identifier)
            case 1: return Region(shape: .polygon(rings: [TestShapes.polygon(around: center, radius: 30, sides: 12)]),
                                  identifier: identifier)
            default: return Region(shape: .corridor(path: TestShapes.dot(center), halfWidth: 30),
                                   identifier: identifier)
            }
        }
        let harness = try MonitorHarness()
        for index in 0..<60 { harness.start(region(index, 0)) }
        for index in stride(from: 0, to: 60, by: 2) { harness.monitor.stopMonitoring(identifier: "r\(index)-g0") }
        for index in stride(from: 0, to: 60, by: 2) { harness.start(region(index, 1)) }
        var track = TrackBuilder(origin: Self.origin, east: -50)
        track.fix()
        track.drive(bearing: 90, speed: 5, count: 1200)
        harness.feed(track.fixes)
        let enters = harness.regionEvents.filter { $0.kind == .enter }
        let expected = (0..<60).map { $0 % 2 == 0 ? "r\($0)-g1" : "r\($0)-g0" }
        #expect(enters.map(\.regionIdentifier) == expected)
        for event in enters {
            // The fix of each enter is within 30 m of its own region's centre.
            let index = Int(event.regionIdentifier.dropFirst().prefix { $0 != "-" })!
            let east = plane.offset(of: event.coordinate).east
            #expect(abs(east - 100 * Double(index)) < 30, "\(event.summary) at east \(east)")
        }
    }

    @Test("an approach alarm on a polygon station: a train at 80-160 km/h gets it T ± 2 s before the true entry")
    func approachToPolygon() throws {
        let station = Coordinate(latitude: 47.3782, longitude: 8.5402)
        let plane = LocalPlane(origin: station)
        // A platform 400 m x 60 m along the track (which runs north), the track entering it at north -200.
        let platform = TestShapes.rectangle(plane, east: -30...30, north: -200...200)
        let route = try SimulatedRoute(waypoints: [
            RouteWaypoint(plane.coordinate(east: 0, north: -9000)), RouteWaypoint(plane.coordinate(east: 0, north: 3000)),
        ])
        var errors: [Double] = []
        for speed in [80.0, 120, 160] {
            for leadTime in [15.0, 60] {
                let drive = try DriveSimulator(
                    route: route, profile: SpeedProfile.train.cruising(
                        at: SpeedProfile.metresPerSecond(kilometresPerHour: speed)),
                    errors: .consumer, sampleRate: 1, seed: 7
                ).run()
                let harness = try MonitorHarness()
                harness.start(Region(shape: .polygon(rings: [platform]), identifier: "platform",
                                     approach: ApproachAlarm(leadTime: leadTime)))
                for observation in drive.observations { harness.monitor.process(observation) }
                let approaches = harness.events(of: "platform").filter { $0.kind == .approach }
                #expect(approaches.count == 1, "\(speed) km/h T \(leadTime) s: \(harness.events(of: "platform").summary)")
                // The true entry: the first 10 ms step with the true position north of -200 m.
                var time = drive.startTime
                while plane.offset(of: drive.truth(at: time).coordinate).north < -200 { time += 0.01 }
                if let approach = approaches.first {
                    let lead = time.timeIntervalSince(approach.time)
                    #expect(abs(lead - leadTime) <= 2, "\(speed) km/h T \(leadTime) s: lead \(lead) s")
                    errors.append(lead - leadTime)
                }
            }
        }
        print(String(format: "polygon platform, train 80/120/160 km/h: lead - T from %+.2f s to %+.2f s",
                     errors.min() ?? .nan, errors.max() ?? .nan))
    }

    @Test("invalid shapes are refused with the reason, and nothing monitored changes", arguments: [
        (RegionShape.polygon(rings: []), "at least one ring"),
        (.polygon(rings: [[Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 2),
                           Coordinate(latitude: 1, longitude: 1)]]), "ring 1 has 2 distinct vertices"),
        (.polygon(rings: [[Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 89, longitude: 2),
                           Coordinate(latitude: 2, longitude: 1)]]), "vertex 2 of ring 1"),
        (.polygon(rings: [[Coordinate(latitude: 1, longitude: 179), Coordinate(latitude: 1, longitude: -179),
                           Coordinate(latitude: 2, longitude: 179)]]), "180 degrees"),
        // Rings that are not a valid ring set: the even-odd rule would not mean what they say.
        (.polygon(rings: [[Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1),
                           Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 0.3, longitude: 0)]]),
         "ring 1 crosses or touches itself near"),
        (.polygon(rings: [[Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                           Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 0)],
                          [Coordinate(latitude: 0.5, longitude: 0.5), Coordinate(latitude: 0.5, longitude: 1.5),
                           Coordinate(latitude: 1.5, longitude: 1.5), Coordinate(latitude: 1.5, longitude: 0.5)]]),
         "rings 1 and 2 cross or share part of an edge"),
        (.polygon(rings: [[Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                           Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 0)],
                          [Coordinate(latitude: 0.1, longitude: 0.1), Coordinate(latitude: 0.2, longitude: 0.2),
                           Coordinate(latitude: 0.3, longitude: 0.3)]]),
         "ring 2 encloses no area"),
        (.polygon(rings: [Array(repeating: [Coordinate(latitude: 0, longitude: 0),
                                            Coordinate(latitude: 0.01, longitude: 0.01),
                                            Coordinate(latitude: 0.01, longitude: 0.02)], count: 400).flatMap { $0 }]),
         "more than 256 edges crowd together"),
        (.corridor(path: [Coordinate(latitude: 1, longitude: 1)], halfWidth: 10), "at least 2 vertices"),
        (.corridor(path: [Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: .nan, longitude: 1)],
                   halfWidth: 10), "vertex 2 of the path"),
    ])
    func invalidShapes(shape: RegionShape, reason: String) throws {
        let monitor = try RegionMonitor()
        monitor.startMonitoring(for: Region.test("kept"))
        do {
            try monitor.startMonitoringOrThrow(for: Region(shape: shape, identifier: "bad"))
            Issue.record("accepted \(shape)")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
        #expect(monitor.monitoredRegions.map(\.identifier) == ["kept"])
        #expect(throws: RegionMonitorError.invalidRadius(0)) {
            try monitor.startMonitoringOrThrow(for: Region(
                shape: .corridor(path: TestShapes.dot(.brisbane), halfWidth: 0), identifier: "thin"))
        }
    }

    @Test("RegionIndex answers for polygons and corridors: inside, on the edge, in a hole")
    func index() throws {
        let plane = LocalPlane(origin: Self.origin)
        let index = try RegionIndex(regions: [
            Region(shape: .polygon(rings: [TestShapes.rectangle(plane, east: -100...100, north: -100...100),
                                           TestShapes.rectangle(plane, east: -20...20, north: -20...20)]),
                   identifier: "square"),
            Region(shape: .corridor(path: [plane.coordinate(east: -500, north: 50), plane.coordinate(east: 500, north: 50)],
                                    halfWidth: 10), identifier: "road"),
        ])
        func found(_ east: Double, _ north: Double) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: index.regions(containing: plane.coordinate(east: east, north: north))
                .map { ($0.region.identifier, $0.distance) })
        }
        let inside = found(60, 0)
        #expect(inside.keys.sorted() == ["square"])
        #expect(abs((inside["square"] ?? 0) + 40) < 0.05, "40 m from the hole and the east side")
        #expect(found(0, 0).isEmpty, "in the hole")
        let both = found(300 - 300, 55)
        #expect(both.keys.sorted() == ["road", "square"])
        #expect(abs((both["road"] ?? 0) + 5) < 0.05)
        #expect(found(300, 0).isEmpty)
    }
}

@Suite("Polygons and corridors on the Brisbane car log",
       .enabled(if: SharedData.isAvailable("nmea/nmealog.txt", "pois/seq-stops.txt"),
                SharedData.skipMessage("nmea/nmealog.txt", "pois/seq-stops.txt")))
struct ShapeRealDriveTests {
    @Test("the stops near the drive as 720-gons and as one-point corridors: the circles' events, distances within 5 cm")
    func sameEventsAsCircles() throws {
        let fixes = try NMEAReader.read(path: SharedData.url("nmea/nmealog.txt").path).observations.compactMap(\.fix)
        let all = try TestStops.regions(from: SharedData.url("pois/seq-stops.txt"), radius: 100)
        // The stops within 1.5 km of the drive (the others would only add determined events far away).
        let plane = LocalPlane(origin: fixes[0].coordinate)
        let track = fixes.map { plane.offset(of: $0.coordinate) }
        let near = all.filter { stop in
            let at = plane.offset(of: stop.center)
            return track.contains { ($0.east - at.east) * ($0.east - at.east)
                + ($0.north - at.north) * ($0.north - at.north) < 1500 * 1500 }
        }
        try #require(near.count >= 20, "the drive passes stops")
        let reference = try events(of: near, over: fixes)
        #expect(reference.contains { $0.kind == .enter })
        var polygons = near.map { TestShapes.reshaped($0, .polygon(rings: [TestShapes.polygon(around: $0.center,
                                                                                                 radius: 100)])) }
        for index in polygons.indices { polygons[index].hysteresis = 10 }
        let corridors = near.map { TestShapes.reshaped($0, .corridor(path: TestShapes.dot($0.center), halfWidth: 100)) }
        expectSameEvents(try events(of: polygons, over: fixes), reference, tolerance: 0.05, "720-gons")
        expectSameEvents(try events(of: corridors, over: fixes), reference, tolerance: 0.05, "corridors")
        print("Brisbane car log, \(near.count) stops within 1.5 km as circles, 720-gons and corridors: "
              + "\(reference.count) events each, \(reference.filter { $0.kind == .enter }.count) enters")
    }
}
