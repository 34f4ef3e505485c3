import Foundation
import Geofencing

/// The fields of one gpsd TPV report that become an `Observation`, copied out of libgps's `gps_fix_t` (NaN where
/// gpsd did not report a value, time 0 when it had none). Kept apart from libgps so the mapping can be tested
/// without gpsd.
struct TPVReport: Sendable, Hashable {
    /// gpsd's mode: 0 not seen, 1 no fix, 2 2-D, 3 3-D (`MODE_*`).
    var mode: Int32
    /// GNSS time, seconds and nanoseconds since 1970 (UTC); both 0 when gpsd had no time.
    var seconds: Int
    var nanoseconds: Int
    var latitude: Double
    var longitude: Double
    /// Horizontal error estimate (m, gpsd's `eph`).
    var eph: Double
    /// Longitude and latitude error estimates (m, gpsd's `epx`, `epy`).
    var epx: Double
    var epy: Double
    /// Speed over ground (m/s).
    var speed: Double
    /// Course over ground (degrees from true north).
    var track: Double
    /// Altitude above mean sea level (m).
    var altitudeMSL: Double
    /// The epoch's GST report, when gpsd sent one with this report's time (paired by `TPVEpochAssembler`).
    var gst: GSTReport? = nil

    /// What the report means for the monitor.
    enum Reading: Sendable, Hashable {
        case observation(Observation)
        /// A report without a usable GNSS time: nothing to pass on (an `Observation` needs a time).
        case untimed
        /// A position out of range, or a mode gpsd does not define.
        case invalid
    }

    /// The GPS epoch, 1980-01-06T00:00:00Z, in seconds since 1970: no GNSS receiver reports an earlier time. gpsd
    /// sends no earlier one either, but libgps turns a TPV time it cannot parse into a date in 1899 or 1900, and a
    /// missing one into 0 (1970).
    static let earliestTime = 315_964_800

    /// The report as an observation.
    ///
    /// - mode 2 or 3 with a latitude and longitude: `.fix`, with the accuracy of `horizontalAccuracy`; every value
    ///   gpsd did not send (NaN) stays nil, never 0.
    /// - mode 0 or 1, or a 2-D/3-D report without a position: `.noFix` at its time.
    /// - no time, or one before the GPS epoch (`earliestTime`: what libgps makes of a time it cannot parse):
    ///   `.untimed`, whatever the mode.
    /// - a mode outside 0 ... 3: `.invalid` (not a fix, whatever else it says).
    var reading: Reading {
        guard seconds >= Self.earliestTime else { return .untimed }
        guard (0...3).contains(mode) else { return .invalid }
        let time = Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
        guard mode >= 2, latitude.isFinite, longitude.isFinite else { return .observation(.noFix(time)) }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return .invalid }
        return .observation(.fix(Fix(
            coordinate: coordinate, timestamp: time, horizontalAccuracy: horizontalAccuracy,
            speed: Self.finite(speed), course: Self.finite(track), altitude: Self.finite(altitudeMSL))))
    }

    /// The model of `HorizontalAccuracyEstimate`, as the NMEA and gpsd JSON readers compute it: the epoch's GST
    /// error ellipse, else `eph`, else the combination of `epx` and `epy`, else nil; negative values count as
    /// absent.
    var horizontalAccuracy: Double? {
        if let gst, let accuracy = HorizontalAccuracyEstimate.fromSigmas(latitude: gst.latitudeSigma,
                                                                         longitude: gst.longitudeSigma) {
            return accuracy
        }
        if let eph = Self.finite(eph), eph >= 0 { return eph }
        if let epx = Self.finite(epx), let epy = Self.finite(epy) {
            return HorizontalAccuracyEstimate.fromAxisErrors95(x: epx, y: epy)
        }
        return nil
    }

    private static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}
