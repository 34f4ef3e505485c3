extension NMEAReport {
    /// GNS, multi-constellation fix data: `time, lat, N/S, lon, E/W, mode (one letter per constellation),
    /// satellites, HDOP, altitude, geoid separation, age, station[, navigational status]`.
    ///
    /// A fix when any constellation's mode letter is not N (no fix); differential when any is D, as gpsd 3.22 counts
    /// it (R and F, RTK, get the plain HDOP factor there; see `HorizontalAccuracyEstimate`).
    static func gns(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(1)
        let coordinate = try sentence.coordinate(from: 2)
        let modes = sentence[field: 6]
        guard modes.allSatisfy({ "NADPRFEMS".contains($0) }) else {
            throw NMEAFieldError(field: 6, "mode", modes, "holds a letter other than N A D P R F E M S")
        }
        guard modes.contains(where: { $0 != "N" }) else {
            report.position = .invalid
            return report
        }
        guard let coordinate else { throw NMEAFieldError("mode \(modes) (a fix) without a position") }
        report.position = .valid(coordinate)
        report.differential = modes.contains("D")
        report.hdop = try sentence.decimal(8, "HDOP")
        report.altitude = try sentence.decimal(9, "altitude")
        return report
    }
}
