extension NMEAReport {
    /// RMC, recommended minimum data: `time, status, lat, N/S, lon, E/W, speed (knots), course, ddmmyy, magnetic
    /// variation, E/W[, mode[, navigational status]]`.
    ///
    /// The magnetic variation is kept as gpsd keeps it: both fields present, E or W, more than 0.09° (receivers
    /// without one send 0.0); a variation that is not a number reads as 0, so as none.
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
            report.course = try sentence.decimal(8, "course").map(NMEASentence.courseAsGPSDReportsIt)
            report.magneticVariation = magneticVariation(sentence[field: 10], direction: sentence[field: 11])
        case ("A", _), ("V", _):
            report.position = .invalid
        case (let status, _):
            throw NMEAFieldError(field: 2, "status", status, "is not A or V")
        }
        return report
    }

    private static func magneticVariation(_ value: Substring, direction: Substring) -> Double? {
        guard !value.isEmpty && !direction.isEmpty else { return nil }
        let degrees: Double
        switch direction.first {
        case "E": degrees = gpsdNumber(value)
        case "W": degrees = -gpsdNumber(value)
        default: return nil
        }
        return abs(degrees) > 0.09 ? degrees : nil
    }
}
