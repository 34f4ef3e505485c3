import Foundation

/// Proleptic Gregorian calendar arithmetic in UTC, done with integers so that no time zone, locale or `Calendar`
/// setting of the machine can change a timestamp read from a log or written into an event. The NMEA readers date
/// their epochs with it too.
package enum CivilCalendar {
    package static let secondsPerDay = 86_400

    /// Days from 1970-01-01 to the given date, or nil when the date does not exist (month 13, February 30, ...).
    ///
    /// The algorithm counts whole 400-year eras (146 097 days each) and then days within the era, with the year
    /// starting on March 1 so that the leap day falls at the end of a year and needs no special case.
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day) else { return nil }
        let marchBasedYear = month <= 2 ? year - 1 : year
        let era = (marchBasedYear >= 0 ? marchBasedYear : marchBasedYear - 399) / 400
        let yearOfEra = marchBasedYear - era * 400                                 // 0 ... 399
        let marchBasedMonth = month > 2 ? month - 3 : month + 9                     // March = 0
        let dayOfYear = (153 * marchBasedMonth + 2) / 5 + day - 1                   // 0 ... 365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysFromEpochOfEra0To1970 = 719_468                                     // 0000-03-01 to 1970-01-01
        return era * 146_097 + dayOfEra - daysFromEpochOfEra0To1970
    }

    /// The date `day` days after 1970-01-01: the inverse of `daysSince1970`, by the same era arithmetic.
    package static func civilDate(day: Int) -> (year: Int, month: Int, day: Int) {
        let daysFromEpochOfEra0 = day + 719_468                                    // since 0000-03-01
        let era = (daysFromEpochOfEra0 >= 0 ? daysFromEpochOfEra0 : daysFromEpochOfEra0 - 146_096) / 146_097
        let dayOfEra = daysFromEpochOfEra0 - era * 146_097                          // 0 ... 146 096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365   // 0 ... 399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)   // 0 ... 365, from March 1
        let marchBasedMonth = (5 * dayOfYear + 2) / 153                             // March = 0
        let dayOfMonth = dayOfYear - (153 * marchBasedMonth + 2) / 5 + 1
        let month = marchBasedMonth < 10 ? marchBasedMonth + 3 : marchBasedMonth - 9
        return (era * 400 + yearOfEra + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The instant `day` days after 1970-01-01 plus `nanosecondsIntoDay`, as a `Date`.
    ///
    /// A time of day in 86_400 ... 86_401 s is the leap second 23:59:60.f, which `Date` (POSIX time) cannot name.
    /// It is squeezed into the last millisecond of 23:59:59: 23:59:60.f is 23:59:59.999 + f/1000 s. So time stays
    /// monotonic (the leap second's epochs keep their order, after every earlier epoch of the day unless one falls
    /// in its last millisecond, and before midnight, where the next epoch is), and no epoch of the leap second
    /// lands on a time that a later epoch has too. Error: at most 1 s against the true instant, as any POSIX time.
    package static func date(day: Int, nanosecondsIntoDay: Int64) -> Date {
        let nanosecondsIntoDay = isLeapSecond(nanosecondsIntoDay: nanosecondsIntoDay)
            ? Int64(secondsPerDay) * 1_000_000_000 - 1_000_000 + (nanosecondsIntoDay % 1_000_000_000) / 1000
            : nanosecondsIntoDay
        let whole = Int64(day) * Int64(secondsPerDay) + nanosecondsIntoDay / 1_000_000_000
        let fraction = Double(nanosecondsIntoDay % 1_000_000_000) / 1e9
        return Date(timeIntervalSince1970: Double(whole) + fraction)
    }

    /// Whether a time of day lies in a leap second (23:59:60.f, written as 86_400 s + f).
    package static func isLeapSecond(nanosecondsIntoDay: Int64) -> Bool {
        nanosecondsIntoDay >= Int64(secondsPerDay) * 1_000_000_000
            && nanosecondsIntoDay < Int64(secondsPerDay + 1) * 1_000_000_000
    }

    /// The day (since 1970-01-01) on which `date` falls, in UTC.
    package static func day(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / Double(secondsPerDay)).rounded(.down))
    }
}
