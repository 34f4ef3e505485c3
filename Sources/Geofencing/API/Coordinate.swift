/// A WGS-84 position in degrees: the Linux counterpart of CoreLocation's `CLLocationCoordinate2D`.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, -90 ... 90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180 ... 180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the coordinate is finite and in range, as `CLLocationCoordinate2DIsValid` tells.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    public var description: String { "(\(latitude), \(longitude))" }
}
