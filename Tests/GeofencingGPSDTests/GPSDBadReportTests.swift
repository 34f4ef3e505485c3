import Foundation
import Geofencing
import GeofencingTestSupport
import Testing

@testable import GeofencingGPSD

/// Reports from gpsd (here a hand-made TCP server that libgps reads) that must not become fixes, and a gpsd whose
/// lines libgps cannot hold.
@Suite struct GPSDBadReportTests {
    static let version = "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\n"

    static func tpv(mode: Int = 3, time: String?) -> String {
        let timeField = time.map { ",\"time\":\"\($0)\"" } ?? ""
        return "{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":\(mode)\(timeField),"
            + "\"lat\":-27.5,\"lon\":153.0,\"eph\":5.0}\n"
    }

    /// A good fix after the bad reports, to know that every report before it was read.
    static let goodTime = "2024-05-01T12:00:00.000Z"
    static let good = Fix(coordinate: Coordinate(latitude: -27.5, longitude: 153.0),
                          timestamp: Date(timeIntervalSince1970: 1_714_564_800), horizontalAccuracy: 5)

    /// The observations a source passes on for one connection's worth of lines, and its counters.
    private func read(_ lines: String) async throws -> (observations: [Observation], statistics: GPSDStatistics) {
        // The next epoch's GST ends the good fix's epoch, which the source then passes on.
        let nextEpoch = "{\"class\":\"GST\",\"time\":\"2024-05-01T12:00:01.000Z\",\"lat\":1.0,\"lon\":1.0}\n"
        let server = try FakeServer(.send(Array((Self.version + lines + Self.tpv(time: Self.goodTime) + nextEpoch).utf8)))
        defer { server.stop() }
        let source = GPSDSource(configuration: GPSDSourceTests.configuration(
            port: server.port, stallTimeout: GPSDSourceTests.noStall))
        let observations = Recorder(source.observations)
        try source.start()
        defer { source.stop() }
        let arrived = await observations.wait(timeout: .seconds(60)) { $0.contains(.fix(Self.good)) }
        #expect(arrived, "the good fix after the bad reports arrived")
        return (observations.elements, source.statistics)
    }

    /// libgps makes a TPV time it cannot parse a date in 1899 (and a missing one 0): no observation, counted.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func reportsWithoutAUsableTimeAreNotPassedOn() async throws {
        let result = try await read(Self.tpv(time: "not a time") + Self.tpv(time: nil)
            + Self.tpv(time: "1899-12-31T00:00:00.000Z") + Self.tpv(mode: 1, time: "garbage"))
        #expect(result.observations == [.fix(Self.good)], "\(result.observations)")
        #expect(result.statistics.untimedReports == 4, "\(result.statistics)")
    }

    /// A mode gpsd does not define is not a fix (nor a "no fix": nothing is known of it).
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func unknownModeIsNotAFix() async throws {
        let result = try await read(Self.tpv(mode: 99, time: "2024-05-01T11:59:59.000Z")
            + Self.tpv(mode: -1, time: "2024-05-01T11:59:59.500Z"))
        #expect(result.observations == [.fix(Self.good)], "\(result.observations)")
        #expect(result.statistics.invalidReports == 2, "\(result.statistics)")
    }

    /// A gpsd that sends a line longer than libgps's buffer on every connection: each connection fails with
    /// `oversizedMessage`, and the waits between them grow as after any failure, up to the maximum.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func oversizedLinesBackOff() async throws {
        let line = "{\"class\":\"SKY\",\"x\":\"" + String(repeating: "x", count: 65_536) + "\"}\n"
        let server = try FakeServer(.send(Array((Self.version + line).utf8)))
        defer { server.stop() }
        let source = GPSDSource(configuration: GPSDSourceTests.configuration(port: server.port))
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        #expect(await states.wait(timeout: .seconds(10)) { $0.filter(\.isWaiting).count >= 4 })
        let waits = states.elements.filter(\.isWaiting).prefix(4)
        #expect(waits.map(\.reason) == Array(repeating: .oversizedMessage, count: 4), "\(states.elements)")
        #expect(waits.map(\.delay) == [.milliseconds(20), .milliseconds(40), .milliseconds(80), .milliseconds(80)])
    }
}
