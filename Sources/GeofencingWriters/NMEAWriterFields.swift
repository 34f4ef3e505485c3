// Field formats of the NMEA writer: angles as degrees and decimal minutes, UTC time and date, fixed decimals.
import Foundation
import GeofencingInputs

/// How `NMEAWriter` spells numbers. Angles and times go through integers, so rounding can never produce "60"
/// minutes or "60" seconds, and no locale or time zone can change a field.
enum NMEAWriterFields {
    /// Decimal places of the minutes: 1e-7 minute is 1.7e-9 degree (0.2 mm), so a position survives the log to
    /// far better than the 1e-7 degree the core works in. gpsd 3.22 reads at least 10 decimals (checked with
    /// gpsdecode).
    static let minuteDecimals = 7
    private static let minuteScale: Int64 = 10_000_000  // 10^minuteDecimals

    /// Latitude as ("ddmm.mmmmmmm", "N"/"S").
    static func latitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 2), degrees < 0 ? "S" : "N")
    }

    /// Longitude as ("dddmm.mmmmmmm", "E"/"W").
    static func longitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 3), degrees < 0 ? "W" : "E")
    }

    private static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let units = Int64((degrees * 60 * Double(minuteScale)).rounded())  // whole 1e-7 minutes
        let whole = units / (60 * minuteScale)
        let minutes = (units % (60 * minuteScale)) / minuteScale
        let fraction = units % minuteScale
        return padded(whole, degreeDigits) + padded(minutes, 2) + "." + padded(fraction, minuteDecimals)
    }

    /// UTC time of day "hhmmss.sss" and date "ddmmyy" of `date`, rounded to the millisecond.
    static func timeAndDate(_ date: Date) -> (time: String, date: String) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millisecondsPerDay: Int64 = 86_400_000
        let day = floorDivision(milliseconds, millisecondsPerDay)
        let ofDay = milliseconds - day * millisecondsPerDay
        let seconds = ofDay / 1000
        let time = padded(seconds / 3600, 2) + padded(seconds / 60 % 60, 2) + padded(seconds % 60, 2)
            + "." + padded(ofDay % 1000, 3)
        let civil = civilDate(daysSince1970: day)
        return (time, padded(civil.day, 2) + padded(civil.month, 2) + padded(civil.year % 100, 2))
    }

    /// Year, month and day of the day `days` after 1970-01-01 (proleptic Gregorian).
    ///
    /// Counts in 400-year eras of 146,097 days with years starting on March 1, so the leap day is the last day of
    /// a year: the year of era follows from the day of era by removing the leap days of 4, 100 and 400 years, and
    /// the month from a linear formula over the March-based months of 31/30 days (153 days per 5 months).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01
        let era = floorDivision(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097  // 0 ... 146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1
        let marchMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` rounded to exactly `decimals` (0 ... 9) decimal places, with a '.' whatever the locale (and about
    /// ten times faster than `String(format:)` on Linux, which matters for hour-long logs at 10 Hz).
    static func fixed(_ value: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals) && abs(value) < 1e9, "a field the writer never produces")
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let units = Int64((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && units != 0 ? "-" : ""
        let whole = String(units / scale)
        return decimals == 0 ? sign + whole : sign + whole + "." + padded(units % scale, decimals)
    }

    /// A course in 0 ..< 360 with two decimals ("359.996" would otherwise print as "360.00").
    static func course(_ degrees: Double) -> String {
        let hundredths = Int64((SimulationMath.normalizedCourse(degrees) * 100).rounded()) % 36_000
        return String(hundredths / 100) + "." + padded(hundredths % 100, 2)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
