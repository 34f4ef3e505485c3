import Foundation
import Geofencing
import GeofencingEvents
import GeofencingInputs
import GeofencingWriters

/// `geofence simulate ... -o OUT.nmea`: a simulated drive as an NMEA log, for field tests through gpsfake.
enum SimulateCommand {
    static let command = GeofenceCLI.Command(
        name: "simulate", summary: "simulate a drive and write it as an NMEA log (for gpsfake)",
        help: """
            Usage: geofence simulate [--route FILE] [--profile car|bus|train] [--errors consumer|urban|perfect]
                                     [--rate HZ] [--seed N] [--start TIME] -o OUT.nmea

            Simulates a vehicle driving a route with a GNSS receiver's errors and writes the fixes as an NMEA 0183
            log (GSA, RMC, GGA, GST per epoch) that gpsd reads back to the same fixes: feed it to gpsd with
            'gpsfake -c 0.1 OUT.nmea' and run 'geofence run --gpsd' against it, or replay it directly.

              --route FILE    a GPX file: its first route (rtept), or its track points, as waypoints (the vehicle
                              stops only at the ends). Default: the demo's bus line, with its stops
              --profile P     car (default), bus or train: acceleration, braking and cruise speeds
              --errors E      consumer (default: 2.6 m CEP), urban (more noise, outages), perfect (none)
              --rate HZ       fixes per second, 0.1 ... 20 (default 1)
              --seed N        seed of every random choice (default 1)
              --start TIME    GNSS time of the first fix, ISO 8601 UTC (default 2024-06-15T12:00:00Z)
              -o OUT.nmea     the log to write
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let routePath = try arguments.option("--route")
        let profileText = try arguments.option("--profile") ?? "car"
        let errorsText = try arguments.option("--errors") ?? "consumer"
        let rate = try arguments.number("--rate", in: 0.1...20) ?? 1
        let seedText = try arguments.option("--seed") ?? "1"
        let startText = try arguments.option("--start")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        try arguments.finish()
        guard let output else { throw arguments.usageError("-o OUT.nmea is required") }
        guard let seed = UInt64(seedText) else { throw arguments.usageError("--seed \(seedText): expected a whole number") }
        let profiles: [String: SpeedProfile] = ["car": .car, "bus": .bus, "train": .train]
        let errorModels: [String: GNSSErrorModel] = ["consumer": .consumer, "urban": .urban, "perfect": .perfect]
        guard let profile = profiles[profileText] else {
            throw arguments.usageError("--profile \(profileText): expected car, bus or train")
        }
        guard let errors = errorModels[errorsText] else {
            throw arguments.usageError("--errors \(errorsText): expected consumer, urban or perfect")
        }
        var start = DriveSimulator.defaultStartTime
        if let startText {
            guard let date = ISO8601Time.parse(startText) else {
                throw arguments.usageError("--start \(startText): expected an ISO 8601 UTC time like 2024-06-15T12:00:00Z")
            }
            start = date
        }

        let route: SimulatedRoute
        do {
            route = try routePath.map(Self.route(fromGPX:)) ?? DemoScenario(seed: seed).drive.route
        } catch let error as CLIError { throw error } catch {
            throw CLIError.failure("geofence simulate: \(routePath ?? "route"): \(error)")
        }
        let drive: SimulatedDrive
        do {
            drive = try DriveSimulator(
                route: route, profile: profile, errors: errors, sampleRate: rate, startTime: start, seed: seed
            ).run()
            try NMEAWriter().write(
                drive.observations, comments: ["geofence simulate: \(profileText), \(errorsText) errors, seed \(seed)"],
                to: URL(fileURLWithPath: output))
        } catch {
            throw CLIError.failure("geofence simulate: \(output): \(error)")
        }
        Console.error(
            "simulate: \(drive.observations.count) epochs, \(Int(route.length)) m in \(Int(drive.duration)) s -> \(output)")
    }

    /// Waypoints from a GPX file: its first route, else its track points in order.
    static func route(fromGPX path: String) throws -> SimulatedRoute {
        let track = try TrackLoading.read(path)
        if let gpxRoute = track.routes.first(where: { $0.points.count >= 2 }) {
            return try SimulatedRoute(waypoints: gpxRoute.points.map { RouteWaypoint($0.coordinate, name: $0.name) })
        }
        let points = track.observations.compactMap(\.fix?.coordinate)
        guard points.count >= 2 else {
            throw CLIError.failure("geofence simulate: \(path): no route and fewer than two track points")
        }
        // Consecutive identical points (a parked receiver) would make a zero-length segment.
        var waypoints: [Coordinate] = []
        for point in points where point != waypoints.last { waypoints.append(point) }
        return try SimulatedRoute(polyline: waypoints)
    }
}
