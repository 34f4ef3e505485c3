// Approach alarms on simulated bus and train runs with GNSS noise, timed against the simulator's true entry time.
import Foundation
import Geofencing
import GeofencingInputs
import Testing

@Suite("Approach alarms on simulated runs")
struct ApproachSimulationTests {
    /// A bus stop in Brisbane and a railway station in Zurich (a northern latitude, a different longitude scale).
    static let busStation = Coordinate(latitude: -27.4698, longitude: 153.0251)
    static let trainStation = Coordinate(latitude: 47.3782, longitude: 8.5402)
    static let leadTimes: [Double] = [15, 30, 60]

    /// One run: the approach events of the station's region and the true entry time.
    private struct Run {
        let approaches: [RegionEvent]
        let entry: Date
        let events: [RegionEvent]

        /// Seconds from the (only) approach to the true entry.
        var lead: Double? { approaches.first.map { entry.timeIntervalSince($0.time) } }
    }

    /// Drives `route` with `profile` at `speed` km/h and returns what a monitor with the station's region made of it.
    private func run(
        _ route: SimulatedRoute, profile: SpeedProfile, speed: Double, station: Coordinate, radius: Double,
        alarm: ApproachAlarm, seed: UInt64, errors: GNSSErrorModel = .consumer, sampleRate: Double = 1
    ) throws -> Run {
        let drive = try DriveSimulator(
            route: route, profile: profile.cruising(at: SpeedProfile.metresPerSecond(kilometresPerHour: speed)),
            errors: errors, sampleRate: sampleRate, seed: seed
        ).run()
        let harness = try MonitorHarness()
        harness.start(Region(center: station, radius: radius, identifier: "station", approach: alarm))
        for observation in drive.observations { harness.monitor.process(observation) }
        let entry = try #require(drive.firstTime(within: radius, of: station), "the run enters the station")
        let events = harness.events(of: "station")
        #expect(TransitionChecker().problems(in: harness.regionEvents) == [])
        return Run(approaches: events.filter { $0.kind == .approach }, entry: entry, events: events)
    }

    /// A straight line of waypoints through `station` at `bearing`, at the given metres along it (negative: before).
    private func line(_ station: Coordinate, bearing: Double, _ points: [(Double, Double?)]) throws -> SimulatedRoute {
        let plane = LocalPlane(origin: station)
        let radians = bearing * .pi / 180
        return try SimulatedRoute(waypoints: points.map { along, dwell in
            RouteWaypoint(plane.coordinate(east: along * sin(radians), north: along * cos(radians)), dwell: dwell)
        })
    }

    private static func report(_ name: String, _ errors: [Double]) {
        let text = String(format: "%@: %d runs, lead - T from %+.2f s to %+.2f s", name, errors.count,
                          errors.min() ?? .nan, errors.max() ?? .nan)
        print(text)
    }

    @Test("bus, 30-50 km/h with a stop before the station: the alarm fires T ± 2 s before the true entry")
    func bus() throws {
        // Start 3 km out, a stop 1.6 km before the station (20 s), the station itself a stop (30 s), then on.
        let route = try line(Self.busStation, bearing: 30, [(-3000, nil), (-1600, 20), (0, 30), (800, nil)])
        var errors: [Double] = []
        for speed in [30.0, 40, 50] {
            for leadTime in Self.leadTimes {
                for seed: UInt64 in [1, 2] {
                    let result = try run(route, profile: .bus, speed: speed, station: Self.busStation, radius: 100,
                                         alarm: ApproachAlarm(leadTime: leadTime), seed: seed)
                    #expect(result.approaches.count == 1, "\(speed) km/h T \(leadTime) s: \(result.events.summary)")
                    let lead = try #require(result.lead)
                    #expect(abs(lead - leadTime) <= 2, "\(speed) km/h T \(leadTime) s seed \(seed): lead \(lead) s")
                    errors.append(lead - leadTime)
                }
            }
        }
        Self.report("bus 30/40/50 km/h, T 15/30/60 s, consumer GNSS at 1 Hz", errors)
    }

    @Test("bus at 10 Hz and a road passing 60 m from the centre: T ± 2 s as well")
    func busObliqueAtTenHertz() throws {
        // The road runs north 60 m east of the station's centre: it enters the 100 m circle 80 m before abeam.
        let plane = LocalPlane(origin: Self.busStation)
        let route = try SimulatedRoute(waypoints: [
            RouteWaypoint(plane.coordinate(east: 60, north: -2500)),
            RouteWaypoint(plane.coordinate(east: 60, north: 600)),
        ])
        var errors: [Double] = []
        for leadTime in Self.leadTimes {
            let result = try run(route, profile: .bus, speed: 45, station: Self.busStation, radius: 100,
                                 alarm: ApproachAlarm(leadTime: leadTime), seed: 3, sampleRate: 10)
            #expect(result.approaches.count == 1, "\(result.events.summary)")
            let lead = try #require(result.lead)
            #expect(abs(lead - leadTime) <= 2, "T \(leadTime) s: lead \(lead) s")
            errors.append(lead - leadTime)
        }
        Self.report("bus 45 km/h oblique, 10 Hz", errors)
    }

    @Test("train, 80-160 km/h through a station: the alarm fires T ± 2 s before the true entry")
    func trainThroughStation() throws {
        let route = try line(Self.trainStation, bearing: 250, [(-9000, nil), (0, nil), (3000, nil)])
        var errors: [Double] = []
        for speed in [80.0, 120, 160] {
            for leadTime in Self.leadTimes {
                for seed: UInt64 in [1, 2] {
                    let result = try run(route, profile: .train, speed: speed, station: Self.trainStation,
                                         radius: 300, alarm: ApproachAlarm(leadTime: leadTime), seed: seed)
                    #expect(result.approaches.count == 1, "\(speed) km/h T \(leadTime) s: \(result.events.summary)")
                    let lead = try #require(result.lead)
                    #expect(abs(lead - leadTime) <= 2, "\(speed) km/h T \(leadTime) s seed \(seed): lead \(lead) s")
                    errors.append(lead - leadTime)
                }
            }
        }
        Self.report("train 80/120/160 km/h through a 300 m station, consumer GNSS at 1 Hz", errors)
    }

    @Test("a train stopping at the station gets the alarm early by its braking delay, never late")
    func trainStoppingAtStation() throws {
        // Service braking at 0.8 m/s² starts v² / 1.6 before the centre: from 160 km/h that is 934 m before the
        // 300 m boundary, which the train then takes 28.2 s to cover instead of 21.0 s: an alarm extrapolating the
        // line speed is 7.1 s early. Below about 85 km/h braking starts inside the region and costs nothing.
        let route = try line(Self.trainStation, bearing: 250, [(-9000, nil), (0, 60)])
        let a = SpeedProfile.train.deceleration, r = 300.0
        var errors: [Double] = []
        for speed in [80.0, 120, 160] {
            let v = SpeedProfile.metresPerSecond(kilometresPerHour: speed)
            for leadTime in Self.leadTimes {
                let result = try run(route, profile: .train, speed: speed, station: Self.trainStation, radius: r,
                                     alarm: ApproachAlarm(leadTime: leadTime), seed: 4)
                #expect(result.approaches.count == 1, "\(result.events.summary)")
                let lead = try #require(result.lead)
                let expected = Self.brakingLead(speed: v, leadTime: leadTime, deceleration: a, radius: r)
                #expect(abs(lead - expected) <= 2,
                        "\(speed) km/h T \(leadTime) s: lead \(lead) s, model \(expected) s")
                #expect(lead >= leadTime - 2, "never late")
                errors.append(lead - leadTime)
                print(String(format: "train stopping from %.0f km/h, T %.0f s: lead %.2f s (braking model %.2f s)",
                             speed, leadTime, lead, expected))
            }
        }
        Self.report("train stopping at the station (lead - T includes the braking delay)", errors)
    }

    /// The true lead of an alarm that extrapolates the current speed, for a train cruising at `v` that brakes at
    /// `deceleration` to stop at the centre of a circle of `radius` (distances s from the boundary, positive outside).
    /// Braking starts b = v² / 2a - r before the boundary. If v T >= b the alarm fires at cruise speed, and the
    /// train then needs T plus the braking delay (v - sqrt(v² - 2ab)) / a - b / v. Otherwise it fires while braking,
    /// where the speed is sqrt(2a(s + r)) and the estimate s / speed equals T at s = aT² + sqrt(a²T⁴ + 2aT²r); from
    /// there the train needs (speed - sqrt(2ar)) / a.
    private static func brakingLead(speed v: Double, leadTime t: Double, deceleration a: Double, radius r: Double)
        -> Double
    {
        let b = max(0, v * v / (2 * a) - r)
        if v * t >= b { return t + (v - (v * v - 2 * a * b).squareRoot()) / a - b / v }
        let s = a * t * t + (a * a * t * t * t * t + 2 * a * t * t * r).squareRoot()
        return ((2 * a * (s + r)).squareRoot() - (2 * a * r).squareRoot()) / a
    }

    @Test("turning back before the station and coming again: a second alarm, T ± 2 s before the entry")
    func turningBack() throws {
        // A U-turn 400 m before the boundary (after the first alarm at 667 m), 1.5 km back, then into the station.
        let route = try line(Self.busStation, bearing: 0, [(-2500, nil), (-500, nil), (-2000, nil), (0, 30)])
        let result = try run(route, profile: .bus, speed: 40, station: Self.busStation, radius: 100,
                             alarm: ApproachAlarm(leadTime: 60), seed: 5)
        #expect(result.approaches.count == 2, "\(result.events.summary)")
        let second = try #require(result.approaches.last)
        let lead = result.entry.timeIntervalSince(second.time)
        #expect(abs(lead - 60) <= 2, "lead \(lead) s")
        Self.report("bus turning back, second approach", [lead - 60])
    }

    @Test("standing 10 minutes 30 m outside a region never fires, with or without reported velocities",
          arguments: [GNSSErrorModel.consumer, .urban], [true, false])
    func standstill(errors: GNSSErrorModel, reportsVelocity: Bool) throws {
        // Parked 30 m south of a 100 m region (600 s), then driving away south.
        let route = try line(Self.busStation, bearing: 0, [(-130, 600), (-900, nil)])
        for seed: UInt64 in 1...4 {
            let drive = try DriveSimulator(route: route, profile: .bus, errors: errors, seed: seed).run()
            let harness = try MonitorHarness()
            harness.start(Region(
                center: Self.busStation, radius: 100, identifier: "station", approach: ApproachAlarm(leadTime: 60)))
            for fix in drive.fixes {
                var fix = fix
                if !reportsVelocity {
                    fix.speed = nil
                    fix.course = nil
                }
                harness.monitor.process(fix)
            }
            let approaches = harness.events(of: "station").filter { $0.kind == .approach }
            #expect(approaches.isEmpty, "seed \(seed): \(approaches.summary)")
        }
    }

    @Test("a train passing a region 400 m off its line never fires; 200 m off (the line clips it) fires")
    func passingBy() throws {
        let plane = LocalPlane(origin: Self.trainStation)
        let route = try SimulatedRoute(waypoints: [
            RouteWaypoint(plane.coordinate(east: -9000, north: 0)),
            RouteWaypoint(plane.coordinate(east: 3000, north: 0)),
        ])
        for (offset, fires) in [(400.0, false), (-400, false), (200, true)] {
            let station = plane.coordinate(east: 0, north: offset)
            let drive = try DriveSimulator(
                route: route, profile: .train.cruising(at: SpeedProfile.metresPerSecond(kilometresPerHour: 140)),
                seed: 6
            ).run()
            let harness = try MonitorHarness()
            harness.start(Region(
                center: station, radius: 300, identifier: "station", approach: ApproachAlarm(leadTime: 30)))
            for observation in drive.observations { harness.monitor.process(observation) }
            let approaches = harness.events(of: "station").filter { $0.kind == .approach }
            #expect(approaches.count == (fires ? 1 : 0), "offset \(offset) m: \(harness.events(of: "station").summary)")
            if fires, let entry = drive.firstTime(within: 300, of: station), let approach = approaches.first {
                let lead = entry.timeIntervalSince(approach.time)
                #expect(abs(lead - 30) <= 2, "lead \(lead) s")
                Self.report("train 140 km/h, line 200 m from the centre of a 300 m region", [lead - 30])
            }
        }
    }
}
