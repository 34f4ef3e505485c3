import Foundation

/// One GNSS position, as a receiver reports it (gpsd's TPV report, an NMEA epoch, a GPX track point).
///
/// All timing in the monitor comes from `timestamp`, never from the wall clock, so replaying a log gives the same
/// events every time.
public struct Fix: Sendable, Hashable {
    /// Where the receiver is.
    public var coordinate: Coordinate
    /// GNSS time of the position (UTC).
    public var timestamp: Date
    /// Radius in metres within which the true position lies with 95 % confidence (gpsd's `eph`); nil when the
    /// receiver does not say. Fixes whose accuracy straddles a boundary cause no transition there. A negative value
    /// (CoreLocation's mark of an invalid position), NaN, or one above `MonitorConfiguration.maximumAccuracy` makes
    /// the fix unusable: it only advances time.
    public var horizontalAccuracy: Double?
    /// Ground speed in metres per second, if reported.
    public var speed: Double?
    /// Course over ground in degrees clockwise from true north, if reported.
    public var course: Double?
    /// Altitude above mean sea level in metres, if reported (not used for fences, which are 2-D).
    public var altitude: Double?

    public init(
        coordinate: Coordinate, timestamp: Date, horizontalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, altitude: Double? = nil
    ) {
        self.coordinate = coordinate
        self.timestamp = timestamp
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
        self.altitude = altitude
    }
}
