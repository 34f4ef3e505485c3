extension NMEAReport {
    /// HDG, a compass's heading: `heading (magnetic), deviation, E/W, variation, E/W`, from any talker (a heading
    /// sensor is never a GNSS receiver). Read as gpsd 3.22 reads it, field for field, because gpsd makes a fix's
    /// course of it when the fix has none (`NMEAEpoch`), and a replay must give the course the daemon gets:
    ///
    /// - the heading and the deviation must lie in 0...360, else the sentence says nothing (a negative deviation too);
    /// - gpsd takes the deviation's direction from the deviation's own first character, which is a digit, so the
    ///   deviation never changes the heading;
    /// - the variation is read one field early: when both the deviation's direction and the variation are
    ///   present, the direction letter is read as the number (0) and the variation's first character as E or W,
    ///   which it rarely is, so the variation is nearly always none (and a present one of at most 0.09° counts as
    ///   none, as for RMC).
    ///
    /// Text that is not a number reads as 0, as gpsd's `atof` reads it.
    static func hdg(_ sentence: NMEASentence) -> NMEAReport {
        var report = NMEAReport()
        report.expectsTime = false
        let headingField = sentence[field: 1]
        guard !headingField.isEmpty else { return report }
        let heading = Self.gpsdNumber(headingField)
        let deviation = Self.gpsdNumber(sentence[field: 2])
        guard (0...360).contains(heading), (0...360).contains(deviation) else { return report }
        report.magneticTrack = heading
        let shiftedNumber = sentence[field: 3], shiftedDirection = sentence[field: 4]
        if !shiftedNumber.isEmpty && !shiftedDirection.isEmpty {
            switch shiftedDirection.first {
            case "E": report.magneticVariation = Self.gpsdNumber(shiftedNumber)
            case "W": report.magneticVariation = -Self.gpsdNumber(shiftedNumber)
            default: break
            }
        }
        return report
    }

    /// A field as gpsd's `atof` reads it when its content does not matter to the reader's own checks: the number,
    /// or 0 for text that is not one.
    static func gpsdNumber(_ field: Substring) -> Double {
        Double(field).flatMap { $0.isFinite ? $0 : nil } ?? 0
    }
}
