import Foundation
import Geofencing

/// A point of a GPX track or route (`trkpt`, `rtept`): position and what the file says about it.
public struct GPXPoint: Sendable, Hashable {
    /// The `lat` and `lon` attributes (WGS-84 degrees).
    public var coordinate: Coordinate
    /// `<ele>`, metres (GPX 1.1 does not name the vertical datum; receivers usually write height above mean sea
    /// level).
    public var elevation: Double?
    /// `<time>`, UTC.
    public var time: Date?
    /// `<hdop>`, horizontal dilution of precision.
    public var hdop: Double?
    /// `<name>`, e.g. a stop's name in a route.
    public var name: String?

    public init(
        coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil, hdop: Double? = nil, name: String? = nil
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.hdop = hdop
        self.name = name
    }

    /// The point as a fix, when it has a time: a recorded position. Accuracy from `<hdop>` as for NMEA
    /// (`HorizontalAccuracyEstimate.fromHDOP`); GPX 1.1 has no speed or course.
    public var fix: Fix? {
        guard let time else { return nil }
        return Fix(
            coordinate: coordinate, timestamp: time,
            horizontalAccuracy: hdop.flatMap { HorizontalAccuracyEstimate.fromHDOP($0, differential: false) },
            altitude: elevation)
    }
}
