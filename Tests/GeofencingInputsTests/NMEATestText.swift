// Test support: NMEA text with correct checksums, so tests can state sentences by their content.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingInputs

enum NMEATestText {
    /// "$" + body + "*" + the checksum of body.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }

    /// Sentences joined by CRLF, as receivers send them.
    static func log(_ bodies: [String], lineEnd: String = "\r\n") -> Data {
        Data(bodies.map { sentence($0) + lineEnd }.joined().utf8)
    }

    static func read(_ bodies: [String], configuration: NMEAReaderConfiguration = NMEAReaderConfiguration()) -> NMEALog {
        NMEAReader.read(data: log(bodies), source: "test", configuration: configuration)
    }

    /// A UTC instant from its calendar parts, for expectations.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Date {
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)!
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60) + second)
    }
}
