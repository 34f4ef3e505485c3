// The simulated truth: stops and dwells, acceleration limits, cruise speeds, positions on the route.
import Foundation
import Geofencing
@testable import GeofencingInputs
import Testing

@Suite struct SimulatorMotionTests {
    private func busDrive(sampleRate: Double = 1, seed: UInt64 = 3) throws -> SimulatedDrive {
        let route = try SimulatedRoute(waypoints: SimulatorFixtures.busStops())
        return try DriveSimulator(route: route, profile: .bus, errors: .perfect, sampleRate: sampleRate, seed: seed)
            .run()
    }

    @Test func vehicleStandsStillAtEachStopForItsDwell() throws {
        let drive = try busDrive()
        let stops = drive.route.waypoints.filter(\.isStop)
        #expect(drive.stopVisits.count == stops.count)
        for visit in drive.stopVisits {
            let dwell = try #require(drive.route.waypoints[visit.waypointIndex].dwell)
            #expect(abs(visit.departure.timeIntervalSince(visit.arrival) - dwell) < 1e-9)
            let standing = drive.samples.filter { $0.time >= visit.arrival && $0.time <= visit.departure }
            #expect(abs(Double(standing.count) - dwell) <= 1, "one sample a second while standing")
            for sample in standing {
                #expect(sample.truth.speed == 0)
                #expect(sample.truth.coordinate == visit.coordinate)
            }
            // Between stops the vehicle moves: the samples just outside an intermediate stay are not at rest.
            if visit.waypointIndex != 0, visit.waypointIndex != drive.route.waypoints.count - 1 {
                let before = try #require(drive.samples.last { $0.time < visit.arrival })
                let after = try #require(drive.samples.first { $0.time > visit.departure })
                #expect(before.truth.speed > 0 && after.truth.speed > 0)
            }
        }
        // It stops nowhere else: speed 0 only at stops (or at the sample exactly at an arrival or departure).
        for sample in drive.samples where sample.truth.speed == 0 {
            #expect(drive.stopVisits.contains { sample.time >= $0.arrival && sample.time <= $0.departure })
        }
    }

    @Test(arguments: [1.0, 10.0])
    func accelerationStaysWithinTheProfile(sampleRate: Double) throws {
        let profile = SpeedProfile.bus
        let drive = try busDrive(sampleRate: sampleRate)
        // A Date near 2024 resolves 2.4e-7 s, so a 0.1 s step is known to about 3e-6 of itself.
        let slack = 1e-5
        for (earlier, later) in zip(drive.samples, drive.samples.dropFirst()) {
            let dt = later.time.timeIntervalSince(earlier.time)
            let rate = (later.truth.speed - earlier.truth.speed) / dt
            #expect(rate <= profile.acceleration * (1 + slack) && rate >= -profile.deceleration * (1 + slack),
                    "\(rate) m/s² at \(later.time)")
            #expect(later.truth.speed <= profile.cruiseSpeed.upperBound + 1e-9)
        }
    }

    @Test func busCruisesAt30To50AndTrainAt80To160KilometresPerHour() throws {
        let bus = try busDrive()
        let train = try DriveSimulator(
            route: SimulatedRoute(waypoints: SimulatorFixtures.railwayStations()), profile: .train,
            errors: .perfect, seed: 5
        ).run()
        for (drive, range) in [(bus, 30.0...50.0), (train, 80.0...160.0)] {
            // Each leg's top speed is its cruise speed (the legs are long enough to reach it).
            for (visit, next) in zip(drive.stopVisits, drive.stopVisits.dropFirst()) {
                let top = drive.samples.filter { $0.time > visit.departure && $0.time < next.arrival }
                    .map(\.truth.speed).max() ?? 0
                #expect(range.contains(top * 3.6), "leg top speed \(top * 3.6) km/h")
            }
        }
    }

    @Test func truePositionsLieOnTheRouteAtTheDistanceDriven() throws {
        let drive = try busDrive()
        for (earlier, later) in zip(drive.samples, drive.samples.dropFirst())
        where earlier.truth.segment == later.truth.segment {
            let geodesic = SimulatorFixtures.distance(earlier.truth.coordinate, later.truth.coordinate)
            let driven = later.truth.distanceAlongRoute - earlier.truth.distanceAlongRoute
            #expect(abs(geodesic - driven) < 0.001)
        }
        let last = try #require(drive.samples.last)
        #expect(abs(last.truth.distanceAlongRoute - drive.route.length) < 1e-6)
        #expect(last.truth.coordinate == drive.route.waypoints.last!.coordinate)
    }

    @Test func segmentCruiseSpeedOverridesTheProfileAndIsReachedByBrakingBeforeIt() throws {
        var waypoints = SimulatorFixtures.busStops(count: 3)
        // Make the mid-leg bend of the second leg the start of a 10 km/h stretch.
        let slowStart = try #require(waypoints.firstIndex { !$0.isStop })
        waypoints[slowStart].cruiseSpeed = 10 / 3.6
        let drive = try DriveSimulator(
            route: SimulatedRoute(waypoints: waypoints), profile: .bus, errors: .perfect, sampleRate: 10
        ).run()
        for sample in drive.samples where sample.truth.segment == slowStart {
            #expect(sample.truth.speed <= 10 / 3.6 + 1e-9)
        }
        let justBefore = try #require(drive.samples.last { $0.truth.segment == slowStart - 1 })
        #expect(justBefore.truth.speed <= 10 / 3.6 + SpeedProfile.bus.deceleration * 0.1 + 1e-9)
    }

    @Test func truthIsAvailableBetweenSamples() throws {
        let drive = try busDrive(sampleRate: 10)
        let sample = drive.samples[403]
        // A Date resolves 0.24 µs, so the truth at a sample's Date is the sample's truth to micrometres.
        let again = drive.truth(at: sample.time)
        #expect(SimulatorFixtures.distance(again.coordinate, sample.truth.coordinate) < 1e-5)
        #expect(abs(again.speed - sample.truth.speed) < 1e-5)
        let between = drive.truth(at: sample.time.addingTimeInterval(0.45))
        #expect(between.distanceAlongRoute >= sample.truth.distanceAlongRoute)
        #expect(between.distanceAlongRoute <= drive.samples[408].truth.distanceAlongRoute)
    }

    @Test func firstTimeWithinACircleIsTheExactEntry() throws {
        let drive = try busDrive()
        let stop = drive.stopVisits[2]
        let radius = 150.0
        let entry = try #require(drive.firstTime(within: radius, of: stop.coordinate))
        let atEntry = SimulatorFixtures.distance(drive.truth(at: entry).coordinate, stop.coordinate)
        // Within 1 µs of the entry; the Date's 0.24 µs resolution moves the vehicle by a few micrometres.
        #expect(atEntry <= radius + 1e-5 && atEntry > radius - 1e-4, "\(atEntry - radius) m")
        let justBefore = drive.truth(at: entry.addingTimeInterval(-0.001)).coordinate
        #expect(SimulatorFixtures.distance(justBefore, stop.coordinate) > radius)
        #expect(entry < stop.arrival)
        // A later search starting at the departure finds the vehicle already inside.
        #expect(drive.firstTime(within: radius, of: stop.coordinate, from: stop.departure) == stop.departure)
        // Far away from the route: never.
        let far = SimulatorFixtures.point(from: stop.coordinate, azimuth: 200, distance: 5000)
        #expect(drive.firstTime(within: radius, of: far) == nil)
    }

    @Test func invalidRoutesAndSettingsAreRejectedWithTheReason() throws {
        let here = SimulatorFixtures.brisbane
        #expect(throws: SimulationError.tooFewWaypoints(count: 1)) { try SimulatedRoute(polyline: [here]) }
        #expect(throws: SimulationError.zeroLengthSegment(index: 0)) { try SimulatedRoute(polyline: [here, here]) }
        #expect(throws: SimulationError.invalidCoordinate(index: 1)) {
            try SimulatedRoute(polyline: [here, Coordinate(latitude: 91, longitude: 0)])
        }
        let route = try SimulatedRoute(stops: SimulatorFixtures.busStops().map(\.coordinate), dwell: 10)
        var simulator = DriveSimulator(route: route, sampleRate: 0)
        #expect(throws: SimulationError.self) { try simulator.run() }
        simulator.sampleRate = 1
        simulator.profile.acceleration = -1
        #expect(throws: SimulationError.invalidParameter(name: "acceleration", value: -1, requirement: "> 0 m/s²")) {
            try simulator.run()
        }
    }
}
