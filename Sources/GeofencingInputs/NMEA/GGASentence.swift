extension NMEAReport {
    /// GGA, fix data: `time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, geoid separation, M, age of
    /// differential data, station`.
    ///
    /// Quality 0 (or empty) is no fix; every other quality is a position, including 6 (dead reckoning), which is
    /// still the best guess of where the vehicle is. Only quality 2 (DGPS, SBAS) is differential for the accuracy
    /// model: gpsd 3.22 gives RTK fixes (4 and 5) the same HDOP factor as plain ones (see `HorizontalAccuracyEstimate`).
    static func gga(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(1)
        let coordinate = try sentence.coordinate(from: 2)
        let qualityField = sentence[field: 6]
        guard qualityField.isEmpty || (qualityField.count == 1 && qualityField.utf8.allSatisfy(NMEASentence.isDigit))
        else { throw NMEAFieldError(field: 6, "quality", qualityField, "is not a digit") }
        let quality = Int(qualityField) ?? 0
        guard quality != 0 else {
            report.position = .invalid
            return report
        }
        guard let coordinate else { throw NMEAFieldError("quality \(quality) (a fix) without a position") }
        report.position = .valid(coordinate)
        report.differential = quality == 2
        report.hdop = try sentence.decimal(8, "HDOP")
        if sentence[field: 10].isEmpty || sentence[field: 10] == "M" {
            report.altitude = try sentence.decimal(9, "altitude")
        }
        return report
    }
}
