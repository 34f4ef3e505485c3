/// Turns what receivers report about their error into `Fix.horizontalAccuracy`: the radius in metres that holds the
/// true position with 95 % probability.
///
/// ## The accuracy model: one rule for live and replay
///
/// The same receiver output must give the same events whether it is read from a log (`NMEAReader`), live through
/// gpsd (`GPSDSource`) or from a gpspipe recording of gpsd (`GPSDJSONReader`). Each path therefore computes an
/// epoch's accuracy by the same rule, from information all three have for that epoch:
///
/// 1. **The receiver's error ellipse**, when the epoch has a GST sentence: `fromSigmas` of its latitude and
///    longitude standard deviations. gpsd passes them through unchanged in a GST report carrying the epoch's time,
///    so the live reader pairs it with the epoch's TPV by time, whichever of the two gpsd sends first (with RMC
///    before GGA, gpsd sends the TPV before the epoch's GST). This is the receiver's own estimate and the best.
/// 2. Otherwise **gpsd 3.22's `eph`**: HDOP × 19 m, or × 4.75 m for a differential fix (`fromHDOP`). gpsd computes
///    it once per epoch, at the epoch's first sentence with a valid position, from the latest HDOP any sentence
///    (GGA, GNS, GSA) gave until then, and with that sentence's differential flag (GGA quality 2, RMC/GLL/GNS mode
///    D; RTK fixes, quality 4 and 5, count as plain). So when RMC comes before GGA, `eph` uses the previous epoch's
///    last HDOP. The NMEA reader follows the same timing rather than the epoch's own HDOP, because gpsd sends no
///    report that ties an HDOP to its epoch: SKY, which has it, carries no time, and comes before or after the
///    epoch's TPV depending on the receiver's sentence order. Error bound of that choice: the epoch's accuracy is
///    off by 19 m × the change of HDOP from one epoch to the next (0 for most epochs; HDOP moves in steps of 0.1).
/// 3. Otherwise, for a gpsd report with `epx` and `epy` but no `eph`, `fromAxisErrors95`; else no accuracy.
public enum HorizontalAccuracyEstimate {
    /// √(−2 ln 0.05): for a circular two-dimensional normal error with standard deviation σ per axis, 95 % of the
    /// positions lie within 2.4477 σ (the Rayleigh distribution's 95th percentile).
    public static let circular95Factor = 2.447_746_830_680_816

    /// The 95 % radius from the standard deviations of the latitude and longitude errors, in metres (NMEA GST
    /// fields 6 and 7, gpsd's GST `lat` and `lon`): 2.4477 × √((σlat² + σlon²) / 2).
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
    /// error model; gpsdecode's `eph` equals it for every epoch of the shared logs). Only gpsd's DGPS status
    /// (GGA quality 2, mode D) is differential; RTK fixes get 19 m, as in gpsd.
    public static func fromHDOP(_ hdop: Double, differential: Bool) -> Double? {
        guard hdop.isFinite, hdop > 0 else { return nil }
        return hdop * (differential ? 4.75 : 19.0)
    }

    /// The 95 % radius from gpsd's per-axis 95 % errors `epx` and `epy` (metres), for reports without `eph`.
    ///
    /// Each is 1.96 σ of its axis; the radius is then 2.4477 × √((σx² + σy²) / 2), as for GST sigmas:
    /// 0.883 × √(epx² + epy²).
    public static func fromAxisErrors95(x: Double, y: Double) -> Double? {
        guard let radius = fromSigmas(latitude: y / 1.959_963_984_540_054, longitude: x / 1.959_963_984_540_054)
        else { return nil }
        return radius
    }
}
