import Geofencing

/// What one decoded sentence says about its epoch. Every part is optional because each sentence type carries a
/// different subset (RMC has the date, GGA the altitude, GST the error estimate, VTG no time at all).
struct NMEAReport: Equatable {
    /// Nanoseconds since midnight UTC, the key that groups the sentences of one epoch; nil for sentences without a
    /// time field (VTG).
    var timeOfDay: Int64?
    /// Whether the sentence type has a time field, so that a missing time means "cannot place this sentence".
    var expectsTime = true
    var date: NMEADate?
    var position: PositionStatus?
    /// Metres above mean sea level.
    var altitude: Double?
    /// Metres per second.
    var speed: Double?
    /// Degrees clockwise from true north.
    var course: Double?
    /// Degrees clockwise from magnetic north: a compass heading (HDG), which gpsd makes the course of a fix without
    /// one (`NMEAEpoch`).
    var magneticTrack: Double?
    /// Degrees east of true north (RMC's, or what gpsd reads from HDG); gpsd ignores one of at most 0.09°.
    var magneticVariation: Double?
    /// Horizontal dilution of precision (GGA, GNS, GSA).
    var hdop: Double?
    /// The position is differential as gpsd 3.22 counts it (GGA quality 2, RMC or GLL mode D, a GNS mode D): HDOP
    /// then maps to a smaller error. RTK fixes are not, as in gpsd (see `HorizontalAccuracyEstimate`).
    var differential = false
    /// 95 % horizontal error radius in metres from the receiver's own error statistics (GST).
    var measuredAccuracy: Double?

    enum PositionStatus: Equatable {
        /// The receiver reports a usable position.
        case valid(Coordinate)
        /// The receiver says it has no fix (RMC/GLL status V, GGA quality 0, GNS mode N).
        case invalid
    }
}

/// A calendar date as a sentence gives it: RMC has a two-digit year whose century the reader decides, ZDA a full one.
enum NMEADate: Equatable {
    case twoDigitYear(Int, month: Int, day: Int)
    case fullYear(Int, month: Int, day: Int)
}
