extension NMEAReport {
    /// GLL, geographic position: `lat, N/S, lon, E/W, time, status[, mode]`.
    ///
    /// Status A (with a mode other than N) is a fix, anything else none; mode D is a differential fix. The oldest GLL form has neither time nor
    /// status; without a time the sentence cannot be placed in an epoch and the reader counts it as untimed.
    static func gll(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(5)
        let coordinate = try sentence.coordinate(from: 1)
        if sentence[field: 6] == "A" && sentence[field: 7] != "N" {
            guard let coordinate else { throw NMEAFieldError("status A (valid) without a position") }
            report.position = .valid(coordinate)
            report.differential = sentence[field: 7] == "D"
        } else {
            report.position = .invalid
        }
        return report
    }
}
