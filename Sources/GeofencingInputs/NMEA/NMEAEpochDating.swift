import GeofencingEvents

/// Decides the calendar day of each epoch. NMEA sentences carry the time of day; only RMC (two-digit year) and ZDA
/// carry a date, and many logs have neither (GLL-only, GGA-only).
///
/// - An epoch with a date uses it. A two-digit year gets the current century, 2000 unless configured, the way gpsd
///   3.22 does it: its century comes from the system clock at start-up (or from a ZDA year), never from a pivot
///   year, so "99" is 2099, not 1999. Like gpsd, a year going from 99 to 00 moves to the next century, and a ZDA
///   year sets the century.
/// - An epoch without a date after a dated one gets the same day, or the next day when its time of day is more
///   than 12 hours earlier (midnight passed). Moving forward by more than 12 hours stays on the same day: a gap in
///   the log, not a step back in time.
/// - Epochs before the first date get no day: the reader drops them when it comes (gpsd, which learns the year
///   from the same sentence, reported them without a time).
/// - A log that has no date at all is anchored to a reference day chosen by the caller.
struct NMEAEpochDating {
    private static let halfDay: Int64 = 12 * 3600 * 1_000_000_000

    private var century: Int
    /// The last dated epoch: its day since 1970-01-01 and time of day.
    private(set) var anchor: (day: Int, timeOfDay: Int64)?
    private var lastTwoDigitYear: Int?

    init(century: Int) {
        self.century = century
    }

    /// The day of an epoch that carries its own date; it becomes the anchor for the epochs that follow.
    mutating func day(of date: NMEADate, timeOfDay: Int64) -> Int? {
        let day: Int?
        switch date {
        case .twoDigitYear(let year, let month, let dayOfMonth):
            if lastTwoDigitYear == 99 && year == 0 { century += 100 }
            lastTwoDigitYear = year
            day = CivilCalendar.daysSince1970(year: century + year, month: month, day: dayOfMonth)
        case .fullYear(let year, let month, let dayOfMonth):
            century = year - year % 100
            lastTwoDigitYear = year % 100
            day = CivilCalendar.daysSince1970(year: year, month: month, day: dayOfMonth)
        }
        if let day { anchor = (day, timeOfDay) }
        return day
    }

    /// The day of an undated epoch that follows the anchor, or nil when there is no anchor yet. Becomes the anchor.
    mutating func dayFollowingAnchor(timeOfDay: Int64) -> Int? {
        guard let anchor else { return nil }
        let day = timeOfDay < anchor.timeOfDay - Self.halfDay ? anchor.day + 1 : anchor.day
        self.anchor = (day, timeOfDay)
        return day
    }

    /// Sets the anchor for a log without dates: the first epoch falls on `day`.
    mutating func anchor(atDay day: Int, timeOfDay: Int64) {
        anchor = (day, timeOfDay)
    }
}
