// Proleptic Gregorian day numbers, both ways, against Foundation's Gregorian calendar in UTC.
import Foundation
import Testing
@testable import GeofencingEvents

@Suite("Civil calendar")
struct CivilCalendarTests {
    @Test func daysSince1970() {
        #expect(CivilCalendar.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysSince1970(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.daysSince1970(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.daysSince1970(year: 2024, month: 2, day: 29) == 19_782)
        #expect(CivilCalendar.daysSince1970(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilCalendar.daysSince1970(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilCalendar.daysSince1970(year: 2000, month: 2, day: 29) != nil)
        // Every day of 1900...2100 against Foundation's Gregorian calendar in UTC.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = CivilCalendar.daysSince1970(year: 1900, month: 1, day: 1)!
        for year in 1900...2100 {
            for month in 1...12 {
                for dayOfMonth in 1...CivilCalendar.daysInMonth(year: year, month: month) {
                    let foundation = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth))!
                    #expect(Double(day) * 86_400 == foundation.timeIntervalSince1970)
                    #expect(CivilCalendar.daysSince1970(year: year, month: month, day: dayOfMonth) == day)
                    day += 1
                }
            }
        }
    }

    @Test("civilDate inverts daysSince1970 on every day of years 1 ... 9999 and around the eras' edges")
    func civilDateInvertsDaysSince1970() {
        var day = CivilCalendar.daysSince1970(year: 1, month: 1, day: 1)!
        for year in 1...9999 {
            for month in 1...12 {
                for dayOfMonth in 1...CivilCalendar.daysInMonth(year: year, month: month) {
                    let date = CivilCalendar.civilDate(day: day)
                    if date != (year, month, dayOfMonth) {
                        Issue.record("day \(day): \(date), not \(year)-\(month)-\(dayOfMonth)")
                        return
                    }
                    day += 1
                }
            }
        }
        #expect(CivilCalendar.civilDate(day: 0) == (1970, 1, 1))
        #expect(CivilCalendar.civilDate(day: -1) == (1969, 12, 31))
        #expect(CivilCalendar.civilDate(day: 11_016) == (2000, 2, 29))
        #expect(CivilCalendar.civilDate(day: -719_468) == (0, 3, 1))
        #expect(CivilCalendar.civilDate(day: -719_469) == (0, 2, 29))
    }
}
