extension NMEAReport {
    /// GSA, DOP and active satellites: `selection mode, fix mode, 12 satellite IDs, PDOP, HDOP, VDOP[, system ID]`.
    ///
    /// Only its HDOP is used, for the accuracy model (`HorizontalAccuracyEstimate`): gpsd 3.22 takes the latest HDOP of any
    /// sentence, and in many receivers' epochs GSA's comes after GGA's. GSA has no time: like VTG it joins the
    /// epoch of the sentences before it, and says nothing about whether there is a fix.
    static func gsa(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.expectsTime = false
        report.hdop = try sentence.decimal(16, "HDOP")
        return report
    }
}
