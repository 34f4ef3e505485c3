extension NMEAReport {
    /// VTG, course and speed over ground: `course, T, magnetic course, M, speed (knots), N, speed (km/h), K[, mode]`,
    /// or the pre-NMEA-2.0 form without unit letters `course, magnetic course, knots, km/h`. VTG has no time: it
    /// belongs to the epoch of the sentences before it. Mode N (not valid) makes it say nothing.
    static func vtg(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.expectsTime = false
        let unitLetters = sentence[field: 2] == "T"
        if unitLetters && sentence[field: 9] == "N" { return report }
        report.course = try sentence.decimal(1, "course").map(NMEASentence.courseAsGPSDReportsIt)
        let knots = try sentence.decimal(unitLetters ? 5 : 3, "speed (knots)")
        let kilometresPerHour = try sentence.decimal(unitLetters ? 7 : 4, "speed (km/h)")
        report.speed = (knots.map { $0 * metresPerSecondPerKnot } ?? kilometresPerHour.map { $0 / 3.6 })
            .map(NMEASentence.speedAsGPSDReportsIt)
        return report
    }
}
