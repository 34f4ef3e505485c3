import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import GeofencingWriters

/// Drives and fence files for the daemon tests, made on the spot (deterministic for a seed).
enum DaemonFixtures {
    /// A point `metres` east of (-27.5, 153.0) along the parallel (local flat approximation; fences are placed on
    /// the same points, so its error does not matter).
    static func east(_ metres: Double) -> Coordinate {
        Coordinate(latitude: -27.5, longitude: 153.0 + metres / (111_320 * cos(27.5 * .pi / 180)))
    }

    /// A drive east from 0 m to `length` metres at a car's speeds, with the given receiver errors.
    static func drive(length: Double, errors: GNSSErrorModel = .perfect, rate: Double = 1, seed: UInt64 = 7) throws -> SimulatedDrive {
        let route = try SimulatedRoute(polyline: [east(0), east(length)])
        return try DriveSimulator(route: route, profile: .car, errors: errors, sampleRate: rate, seed: seed).run()
    }

    /// Writes regions as a CSV fence file.
    static func writeFences(_ regions: [(id: String, center: Coordinate, radius: Double)], to url: URL) throws {
        var text = "id,lat,lon,radius_m\n"
        for region in regions { text += "\(region.id),\(region.center.latitude),\(region.center.longitude),\(region.radius)\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The NMEA log of some observations.
    static func nmea(_ observations: some Sequence<Observation>) -> String {
        NMEAWriter().log(observations)
    }
}

#if MQTT
/// `geofence run` as a fleet unit for the MQTT tests: its store in a directory, NMEA from a pipe that stays open
/// (write fixes to it, or none), the broker's plain listener, standard error in the directory's stderr.txt.
enum FleetUnitProcess {
    /// A JSON message as an object (nil if it is not one).
    static func object(_ json: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    }

    static func start(
        _ directory: URL, _ broker: MosquittoBroker, base: String, extra: [String]
    ) throws -> (Process, Pipe) {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: GeofenceExecutable.path)
        daemon.arguments = ["run", "--store", directory.appendingPathComponent("unit.db").path, "--nmea", "-",
                            "--mqtt", "\(broker.url)/\(base)"] + extra
        let input = Pipe()
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        daemon.standardInput = input
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try FileHandle(
            forWritingTo: URL(fileURLWithPath: directory.appendingPathComponent("stderr.txt").path))
        try daemon.run()
        return (daemon, input)
    }
}
#endif
