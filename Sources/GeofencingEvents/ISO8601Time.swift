import Foundation

/// The project's one ISO 8601 / RFC 3339 time, written into events and read from event lines, GPX files, gpsd JSON
/// reports and the command line.
///
/// Written: UTC, "2008-03-03T22:25:13Z", or with milliseconds ("...13.500Z") when the time has a fraction.
/// Read: `2020-12-18T06:15:50Z`, `2027-10-18T22:24:38.000Z`, `2013-06-30T09:41:10.5+02:00`, and what `format` writes.
///
/// Both by hand on `CivilCalendar` (the proleptic Gregorian calendar) rather than with `ISO8601DateFormatter` or
/// `Calendar`: the formatter rejects fractional seconds unless told to expect them (and then rejects their absence)
/// and accepts a February 30, and GPS logs and event lines should not depend on behaviour that differs between
/// Foundation versions. A timestamp without a zone designator is taken as UTC, which is what GPX 1.1 prescribes for
/// `<time>` and what gpsd writes.
public enum ISO8601Time {
    /// `time` in UTC, to the millisecond (rounded; a fraction that rounds to a whole second is not written).
    /// Times beyond ±1e17 s (no GNSS time, no calendar date) are written as that bound.
    public static func format(_ time: Date) -> String {
        let seconds = min(max(time.timeIntervalSince1970, -1e17), 1e17)
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded())
        let wholeSeconds = Int64(millis == 1000 ? whole + 1 : whole)
        let secondsPerDay = Int64(CivilCalendar.secondsPerDay)
        let day = wholeSeconds >= 0 ? wholeSeconds / secondsPerDay : (wholeSeconds + 1) / secondsPerDay - 1
        let secondsIntoDay = Int(wholeSeconds - day * secondsPerDay)
        let date = CivilCalendar.civilDate(day: Int(day))
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", date.year, date.month, date.day, secondsIntoDay / 3600,
            secondsIntoDay / 60 % 60, secondsIntoDay % 60)
        return millis == 0 || millis == 1000 ? base + "Z" : base + String(format: ".%03dZ", millis)
    }

    /// The instant written in `text`, or nil when it is not a complete date and time of day.
    ///
    /// A date and a time of day, separated by `T`, `t` or a space; seconds up to 60 (23:59:60, a leap second, is
    /// dated as `CivilCalendar.date` says); an optional fraction after `.` or `,` (to the nanosecond); then `Z`,
    /// `z`, `+hh:mm`, `-hhmm`, `+hh` or nothing (UTC). Nothing else, before or after.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2),
              scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2),
              hour < 24, minute < 60, second <= 60,          // 60: a leap second
              let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        else { return nil }
        var nanoseconds: Int64 = 0
        if scanner.skip(".") || scanner.skip(",") {
            guard let fraction = scanner.fractionInNanoseconds() else { return nil }
            nanoseconds = fraction
        }
        guard let offsetSeconds = scanner.zoneOffsetSeconds(), scanner.isAtEnd else { return nil }
        let secondsIntoDay = Int64(hour * 3600 + minute * 60 + second)
        let date = CivilCalendar.date(day: days, nanosecondsIntoDay: secondsIntoDay * 1_000_000_000 + nanoseconds)
        return date.addingTimeInterval(-Double(offsetSeconds))
    }
}

/// A cursor over ASCII bytes that reads fixed-width numbers; the pieces `ISO8601Time.parse` is built from.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// Exactly `digits` decimal digits as a number.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard let digit = Self.digitValue(byte) else { return nil }
            value = value * 10 + digit
        }
        index += digits
        return value
    }

    /// One or more digits after the decimal point, as nanoseconds (digits beyond the ninth are dropped).
    mutating func fractionInNanoseconds() -> Int64? {
        var nanoseconds: Int64 = 0
        var scale: Int64 = 100_000_000
        let start = index
        while index < bytes.count, let digit = Self.digitValue(bytes[index]) {
            nanoseconds += Int64(digit) * scale
            scale /= 10
            index += 1
        }
        return index > start ? nanoseconds : nil
    }

    /// `Z`, `+hh:mm`, `-hhmm`, `+hh` or nothing (UTC) as seconds east of UTC; nil when malformed.
    mutating func zoneOffsetSeconds() -> Int? {
        if isAtEnd || skip("Z") || skip("z") { return 0 }
        let sign: Int
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours <= 23 else { return nil }
        var minutes = 0
        if !isAtEnd {
            _ = skip(":")
            guard let value = number(digits: 2), value < 60 else { return nil }
            minutes = value
        }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }
}
