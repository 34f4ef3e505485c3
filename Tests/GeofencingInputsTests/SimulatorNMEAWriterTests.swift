// The NMEA writer's sentences and fields, checked by hand-worked examples.
import Foundation
import Geofencing
@testable import GeofencingInputs
@testable import GeofencingWriters
import Testing

@Suite struct SimulatorNMEAWriterTests {
    /// 2024-06-15T12:34:56.789Z.
    private let time = Date(timeIntervalSince1970: 1_718_454_896.789)

    @Test func checksumIsTheXorOfTheBody() {
        // The textbook GGA example and its published checksum.
        #expect(NMEAWriter.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            == "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        #expect(NMEAWriter.sentence("GPTXT") == "$GPTXT*" + String(format: "%02X", "GPTXT".utf8.reduce(0, ^)))
    }

    @Test func fixEpochIsGsaRmcGgaGstInThatOrder() {
        let fix = Fix(coordinate: Coordinate(latitude: -27.5, longitude: 153.025), timestamp: time,
                      horizontalAccuracy: 5.4733283, speed: 10, course: 45.5)
        let sentences = NMEAWriter().sentences(for: .fix(fix))
        let bodies = sentences.map { String($0.dropFirst().prefix { $0 != "*" }) }
        #expect(bodies == [
            "GPGSA,A,2,01,02,03,04,05,06,07,08,09,10,,,,0.2881,",
            "GPRMC,123456.789,A,2730.0000000,S,15301.5000000,E,19.438,45.50,150624,,,A",
            "GPGGA,123456.789,2730.0000000,S,15301.5000000,E,1,10,0.2881,,M,,M,,",
            "GPGST,123456.789,2.236,2.236,2.236,0.0,2.236,2.236,",
        ])
        for sentence in sentences {
            #expect(NMEAWriter.sentence(String(sentence.dropFirst().prefix { $0 != "*" })) == sentence)
        }
    }

    @Test func vtgAndAltitudeWhenAsked() {
        let fix = Fix(coordinate: Coordinate(latitude: 48.1173, longitude: -11.5166667), timestamp: time,
                      horizontalAccuracy: nil, speed: nil, course: nil, altitude: 545.44)
        let sentences = NMEAWriter(talker: "GN", includesVTG: true, satellitesUsed: 4).sentences(for: .fix(fix))
        let bodies = sentences.map { String($0.dropFirst().prefix { $0 != "*" }) }
        #expect(bodies == [
            "GNGSA,A,3,01,02,03,04,,,,,,,,,,,",
            "GNRMC,123456.789,A,4807.0380000,N,01131.0000020,W,,,150624,,,A",
            "GNVTG,,T,,M,,N,,K,A",
            "GNGGA,123456.789,4807.0380000,N,01131.0000020,W,1,04,,545.4,M,,M,,",
        ])
    }

    @Test func noFixEpochCarriesTheTimeOnly() {
        let bodies = NMEAWriter().sentences(for: .noFix(time)).map { String($0.dropFirst().prefix { $0 != "*" }) }
        #expect(bodies == [
            "GPGSA,A,1,,,,,,,,,,,,,,,",
            "GPRMC,123456.789,V,,,,,,,150624,,,N",
            "GPGGA,123456.789,,,,,0,00,,,M,,M,,",
        ])
        // GSA has 17 fields: mode, fix type, 12 satellites, PDOP, HDOP, VDOP.
        #expect(bodies[0].split(separator: ",", omittingEmptySubsequences: false).count == 18)
    }

    @Test func anglesRoundWithoutSixtyMinutes() {
        #expect(NMEAWriterFields.latitude(10.999_999_999_999).0 == "1100.0000000")
        #expect(NMEAWriterFields.latitude(-0.000_000_01) == ("0000.0000006", "S"))
        #expect(NMEAWriterFields.longitude(179.999_999_999_9).0 == "18000.0000000")
        #expect(NMEAWriterFields.longitude(-0.5) == ("00030.0000000", "W"))
        #expect(NMEAWriterFields.course(359.996) == "0.00")
        #expect(NMEAWriterFields.course(-0.5) == "359.50")
    }

    @Test func fixedDecimalsRoundHalfAwayFromZeroWithoutLocale() {
        #expect(NMEAWriterFields.fixed(19.438_444, decimals: 3) == "19.438")
        #expect(NMEAWriterFields.fixed(0.000_49, decimals: 3) == "0.000")
        #expect(NMEAWriterFields.fixed(-0.000_49, decimals: 3) == "0.000")
        #expect(NMEAWriterFields.fixed(-12.345_6, decimals: 1) == "-12.3")
        #expect(NMEAWriterFields.fixed(545.45, decimals: 0) == "545")
        #expect(NMEAWriterFields.fixed(2.999_95, decimals: 4) == "3.0000")
    }

    @Test func timesRoundToTheMillisecondAcrossMidnightAndLeapDays() {
        let almostMidnight = Date(timeIntervalSince1970: 951_782_399.999_6)  // 2000-02-28T23:59:59.9996Z
        #expect(NMEAWriterFields.timeAndDate(almostMidnight) == ("000000.000", "290200"))
        let newYear = Date(timeIntervalSince1970: 1_735_689_599.5)  // 2024-12-31T23:59:59.5Z
        #expect(NMEAWriterFields.timeAndDate(newYear) == ("235959.500", "311224"))
    }

    /// The calendar arithmetic against Foundation's Gregorian calendar over 1970–2100: every 7th day (Foundation
    /// is slow on Linux) plus every February 28, 29 and March 1 of the leap-year rules (2000, 2096, 2100).
    @Test func civilDatesAgreeWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let leapEdges: [Int64] = [11_015, 11_016, 11_017, 46_079, 46_080, 46_081, 47_540, 47_541]
        for day in Array(stride(from: Int64(0), through: 47_847, by: 7)) + leapEdges {
            let components = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let civil = NMEAWriterFields.civilDate(daysSince1970: day)
            #expect(civil.year == Int64(components.year!) && civil.month == Int64(components.month!)
                        && civil.day == Int64(components.day!), "day \(day)")
        }
    }

    @Test func logHasHarmlessCommentsAndCrlfLineEnds() {
        let log = NMEAWriter().log(
            [.noFix(time)], comments: ["Geofencing simulator, seed 7", "Date: 2024-06-15\nSerial: 4800 8N1"])
        let lines = log.components(separatedBy: "\r\n")
        #expect(lines.last == "")
        #expect(lines.dropLast().allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        #expect(lines[0] == "# Geofencing simulator, seed 7")
        #expect(lines[1] == "# Date - 2024-06-15 Serial - 4800 8N1")
        #expect(lines[2].hasPrefix("$GPGSA"))
        #expect(lines.count == 2 + 3 + 1)
    }
}
