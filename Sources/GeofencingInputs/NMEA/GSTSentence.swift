import Geofencing

extension NMEAReport {
    /// GST, pseudorange error statistics: `time, RMS, semi-major σ, semi-minor σ, orientation, latitude σ,
    /// longitude σ, altitude σ` (metres). Gives the epoch's accuracy (see `HorizontalAccuracyEstimate.fromSigmas`);
    /// says nothing about whether there is a fix.
    static func gst(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport {
        var report = NMEAReport()
        report.timeOfDay = try sentence.timeOfDay(1)
        if let latitude = try sentence.decimal(6, "latitude sigma"),
           let longitude = try sentence.decimal(7, "longitude sigma") {
            report.measuredAccuracy = HorizontalAccuracyEstimate.fromSigmas(latitude: latitude, longitude: longitude)
        }
        return report
    }
}
