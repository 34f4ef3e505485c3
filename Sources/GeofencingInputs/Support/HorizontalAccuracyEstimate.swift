/// Turns what receivers report about their error into `Fix.horizontalAccuracy`: the radius in metres that holds the
/// true position with 95 % probability.
public enum HorizontalAccuracyEstimate {
    /// √(−2 ln 0.05): for a circular two-dimensional normal error with standard deviation σ per axis, 95 % of the
    /// positions lie within 2.4477 σ (the Rayleigh distribution's 95th percentile).
    public static let circular95Factor = 2.447_746_830_680_816

    /// The 95 % radius from the standard deviations of the latitude and longitude errors, in metres (NMEA GST
    /// fields 6 and 7): 2.4477 × √((σlat² + σlon²) / 2).
    ///
    /// The root mean square of the two sigmas stands in for the per-axis sigma of a circular error. The formula is
    /// exact when σlat = σlon. For an elongated error ellipse it is too small: by 2 % at an axis ratio of 1.5, 5 %
    /// at 2, 8 % at 3 and 12 % in the limit, where the true radius tends to 1.96 σmax (measured by sampling 400 000
    /// normal errors per ratio). In the Brisbane car log the median ratio is 1.7 (3 % low) and one epoch in ten
    /// exceeds 3.6 (9 % low or more); the sigmas a receiver reports are estimates of no better quality, so the
    /// simple formula the rest of the project can recompute by hand is kept.
    public static func fromSigmas(latitude: Double, longitude: Double) -> Double? {
        guard latitude.isFinite, longitude.isFinite, latitude >= 0, longitude >= 0 else { return nil }
        return circular95Factor * ((latitude * latitude + longitude * longitude) / 2).squareRoot()
    }

    /// gpsd 3.22's estimate from the horizontal dilution of precision when the receiver gives nothing better:
    /// HDOP × 19 m, or HDOP × 4.75 m for a differential fix (`P_UERE_NO_DGPS` / `P_UERE_WITH_DGPS` in gpsd's
    /// error model; gpsdecode's `eph` equals HDOP × 19 for the shared logs). Using gpsd's constants keeps fixes
    /// read from an NMEA log comparable with those received through gpsd.
    public static func fromHDOP(_ hdop: Double, differential: Bool) -> Double? {
        guard hdop.isFinite, hdop > 0 else { return nil }
        return hdop * (differential ? 4.75 : 19.0)
    }

    /// The 95 % radius from gpsd's per-axis 95 % errors `epx` and `epy` (metres), for reports without `eph`.
    ///
    /// Each is 1.96 σ of its axis; the radius is then 2.4477 × √((σx² + σy²) / 2), as for GST sigmas.
    public static func fromAxisErrors95(x: Double, y: Double) -> Double? {
        guard let radius = fromSigmas(latitude: y / 1.959_963_984_540_054, longitude: x / 1.959_963_984_540_054)
        else { return nil }
        return radius
    }
}
