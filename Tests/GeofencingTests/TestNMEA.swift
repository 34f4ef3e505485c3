// Test support: a minimal NMEA RMC reader for feeding real logs to the monitor. It stands in for the project's NMEA
// reader (a later issue); when that lands, the real-data tests should use it and this file should go.
import Foundation
import Geofencing

/// Reads the RMC sentences of an NMEA 0183 log into fixes: time and date (UTC), position, speed, course. Sentences
/// with a wrong or missing checksum, a status other than 'A' (valid) or unparsable fields are skipped; text before
/// the '$' on a line (logger prefixes) and other sentences (GGA, AIVDM, ...) are ignored.
///
/// Deliberately small: no GGA altitude or HDOP, no two-digit-year pivot beyond "80..99 is 19xx".
enum TestNMEA {
    struct Log {
        var fixes: [Fix]
        /// RMC sentences dropped for a bad checksum (a corrupted log would otherwise go unnoticed).
        var badChecksums: Int
        /// RMC sentences with status 'V' (receiver has no fix).
        var invalid: Int
    }

    static func readRMC(from url: URL) throws -> Log {
        let bytes = [UInt8](try Data(contentsOf: url))
        var log = Log(fixes: [], badChecksums: 0, invalid: 0)
        // Work on bytes and make a String only of RMC sentences: the logs are megabytes of mostly other sentences.
        for line in bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            guard let dollar = line.firstIndex(of: UInt8(ascii: "$")), line.count - (dollar - line.startIndex) > 6,
                  line[(dollar + 3)..<(dollar + 6)].elementsEqual("RMC".utf8),
                  let sentence = String(bytes: line[dollar...], encoding: .ascii)?.trimmingCharacters(in: .whitespaces)
            else { continue }
            guard let body = checkedBody(of: sentence) else {
                log.badChecksums += 1
                continue
            }
            switch parseRMC(body) {
            case .fix(let fix): log.fixes.append(fix)
            case .invalid: log.invalid += 1
            case .unparsable: break
            }
        }
        return log
    }

    enum Parsed: Equatable {
        case fix(Fix)
        case invalid
        case unparsable
    }

    /// The text between '$' and '*' when the two hex digits after '*' equal the XOR of its bytes; nil otherwise.
    static func checkedBody(of sentence: String) -> Substring? {
        guard sentence.first == "$", let star = sentence.lastIndex(of: "*") else { return nil }
        let body = sentence[sentence.index(after: sentence.startIndex)..<star]
        let digits = sentence[sentence.index(after: star)...].prefix(2)
        guard digits.count == 2, let expected = UInt8(digits, radix: 16) else { return nil }
        let actual = body.utf8.reduce(UInt8(0), ^)
        return actual == expected ? body : nil
    }

    /// Fields of "GPRMC,hhmmss.ss,A,ddmm.mmmm,N,dddmm.mmmm,E,knots,course,ddmmyy,...".
    static func parseRMC(_ body: Substring) -> Parsed {
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 10, fields[0].hasSuffix("RMC") else { return .unparsable }
        guard fields[2] == "A" else { return .invalid }
        guard let time = timestamp(time: fields[1], date: fields[9]),
              let latitude = degrees(fields[3], hemisphere: fields[4], degreeDigits: 2),
              let longitude = degrees(fields[5], hemisphere: fields[6], degreeDigits: 3)
        else { return .unparsable }
        let knots = Double(fields[7])
        let course = Double(fields[8])
        return .fix(Fix(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), timestamp: time,
            speed: knots.map { $0 * 1852 / 3600 }, course: course))
    }

    /// "2734.33926" + "S" -> -27.5723210 (degrees and decimal minutes).
    static func degrees(_ field: Substring, hemisphere: Substring, degreeDigits: Int) -> Double? {
        guard field.count > degreeDigits + 1,
              let whole = Double(field.prefix(degreeDigits)), let minutes = Double(field.dropFirst(degreeDigits)),
              minutes < 60
        else { return nil }
        let value = whole + minutes / 60
        switch hemisphere {
        case "N", "E": return value
        case "S", "W": return -value
        default: return nil
        }
    }

    /// "222437.000" + "030308" -> 2008-03-03 22:24:37 UTC, by calendar arithmetic (no time zone can interfere).
    static func timestamp(time: Substring, date: Substring) -> Date? {
        guard time.count >= 6, date.count == 6,
              let hours = Int(time.prefix(2)), let minutes = Int(time.dropFirst(2).prefix(2)),
              let seconds = Double(time.dropFirst(4)),
              let day = Int(date.prefix(2)), let month = Int(date.dropFirst(2).prefix(2)),
              let twoDigitYear = Int(date.dropFirst(4)),
              (0..<24).contains(hours), (0..<60).contains(minutes), seconds >= 0, seconds < 61,
              (1...31).contains(day), (1...12).contains(month)
        else { return nil }
        let year = twoDigitYear < 80 ? 2000 + twoDigitYear : 1900 + twoDigitYear
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hours * 3600 + minutes * 60) + seconds)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
