import Foundation
import Geofencing
import GeofencingInputs
import Testing

@testable import GeofencingGPSD
import GeofencingWriters

/// A simulated drive written as NMEA, replayed by gpsfake through a real gpsd and read with GPSDSource, gives the
/// fixes the NMEA reader reads from the same file: the field-test path (simulate, gpsfake, `geofence run --gpsd`)
/// sees what replaying the file directly sees.
@Suite(.enabled(if: TestEnvironment.canRunGPSFake, "\(TestEnvironment.whyNot ?? "")"))
struct SimulatedDriveThroughGPSDTests {
    /// A bus past three stops in Brisbane, 1 Hz, consumer-receiver errors, fixed seed; dated 2024 so gpsd's
    /// week-rollover guard (which moves pre-2017 dates) leaves it alone.
    static func drive() throws -> SimulatedDrive {
        let stops = [
            Coordinate(latitude: -27.5720, longitude: 153.0900),
            Coordinate(latitude: -27.5760, longitude: 153.0935),
            Coordinate(latitude: -27.5795, longitude: 153.0975),
        ]
        let route = try SimulatedRoute(stops: stops, dwell: 10)
        return try DriveSimulator(route: route, profile: .bus, errors: .consumer, seed: 2026).run()
    }

    @Test func gpsdGivesTheReadersFixes() async throws {
        let drive = try Self.drive()
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("simulated-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).nmea")
        defer { try? FileManager.default.removeItem(at: file) }
        try NMEAWriter().write(drive.observations, comments: ["simulated bus, seed 2026"], to: file)

        let reader = try NMEAReader.read(path: file.path).observations.compactMap(\.fix)
        #expect(reader.count == drive.fixes.count, "the reader reads back every simulated fix")

        let pass = try await OnePass.play(log: file.path)
        let comparison = FixComparison(gpsd: pass.fixes, reader: reader)
        print("simulated drive: reader \(reader.count) fixes; gpsd \(pass.fixes.count), \(comparison.summary)")
        #expect(comparison.offset == 0)
        // gpsd learns the end of its reporting cycle from the first epoch and holds the last one until a next
        // sentence: at most those two are missing. Everything it reports is an epoch of the file.
        #expect(comparison.missing.count <= 2, "missing: \(comparison.missing.map(\.timestamp))")
        #expect(comparison.matched.count >= reader.count - 2)
        #expect(comparison.extra.isEmpty, "gpsd fixes at no simulated time: \(comparison.extra.prefix(3))")
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches.prefix(5))")
        // The writer sets HDOP so that gpsd's eph (HDOP x 19 m) is the simulated accuracy.
        #expect((comparison.accuracyDifferences.max() ?? 0) <= 0.02)
    }
}
