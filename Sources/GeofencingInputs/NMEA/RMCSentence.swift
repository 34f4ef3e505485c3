extension NMEAReport {
    /// RMC, recommended minimum data: `time, status, lat, N/S, lon, E/W, speed (knots), course, ddmmyy, magnetic
    /// variation, E/W[, mode[, navigational status]]`.
    ///
    /// Status A with mode indicator N ("not valid", NMEA 2.3) counts as no fix, as the standard says. Speed and
    /// course are kept only with a valid position: a receiver without a fix repeats stale values. Mode D is a
    /// differential fix.
    static func rmc(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(1)
        report.date = try sentence.twoDigitYearDate(9)
        let coordinate = try sentence.coordinate(from: 3)
        switch (sentence[field: 2], sentence[field: 12]) {
        case ("A", let mode) where mode != "N":
            guard let coordinate else { throw NMEAFieldError("status A (valid) without a position") }
            report.position = .valid(coordinate)
            report.differential = mode == "D"
            report.speed = try sentence.decimal(7, "speed")
                .map { NMEASentence.speedAsGPSDReportsIt($0 * metresPerSecondPerKnot) }
            report.course = try sentence.decimal(8, "course")
        case ("A", _), ("V", _):
            report.position = .invalid
        case (let status, _):
            throw NMEAFieldError(field: 2, "status", status, "is not A or V")
        }
        return report
    }
}
