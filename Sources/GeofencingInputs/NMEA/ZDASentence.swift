import GeofencingEvents

extension NMEAReport {
    /// ZDA, time and date: `time, day, month, four-digit year, zone hours, zone minutes`. The only sentence with a
    /// full year; some instruments send it with the date fields empty, and then it gives only the time.
    static func zda(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(1)
        let parts = [2, 3, 4].map { sentence[field: $0] }
        if parts.allSatisfy(\.isEmpty) { return report }
        guard let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2]), parts[2].count == 4,
              CivilCalendar.daysSince1970(year: year, month: month, day: day) != nil
        else { throw NMEAFieldError(
            "fields 2-4 (date): \(InputText.doubleQuoted(parts.joined(separator: ","))) is not day, month, year") }
        report.date = .fullYear(year, month: month, day: day)
        return report
    }
}
