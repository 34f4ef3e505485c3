// A horizontal displacement in metres, the unit in which GNSS errors are modelled.
import Foundation
import Geofencing

/// A horizontal displacement in metres in the local east/north plane of a point.
public struct EastNorthOffset: Sendable, Hashable, CustomStringConvertible {
    /// Metres towards east (negative: west).
    public var east: Double
    /// Metres towards north (negative: south).
    public var north: Double

    public init(east: Double, north: Double) {
        self.east = east
        self.north = north
    }

    /// No displacement.
    public static let zero = EastNorthOffset(east: 0, north: 0)

    /// Length of the displacement in metres.
    public var magnitude: Double { (east * east + north * north).squareRoot() }

    public static func + (lhs: EastNorthOffset, rhs: EastNorthOffset) -> EastNorthOffset {
        EastNorthOffset(east: lhs.east + rhs.east, north: lhs.north + rhs.north)
    }

    public var description: String { "(east \(east) m, north \(north) m)" }
}

extension Coordinate {
    /// The coordinate displaced by `offset`: metres turned into degrees with the WGS-84 radii of curvature at this
    /// latitude (the plane tangent to the ellipsoid here). It differs from a geodesic displacement by about
    /// offset² × tan φ / 6,400 km: micrometres for the few metres of a GNSS error, 1.6 mm × tan φ for a 100 m
    /// outlier. `eastNorthOffset(from:)` is its exact inverse, so an error measured back is the error put in.
    public func displaced(by offset: EastNorthOffset) -> Coordinate {
        let scale = SimulationMath.metresPerRadian(atLatitude: latitude)
        return Coordinate(
            latitude: latitude + SimulationMath.degrees(offset.north / scale.north),
            longitude: SimulationMath.normalizedLongitude(
                longitude + SimulationMath.degrees(offset.east / scale.east)))
    }

    /// The east/north offset from `origin` to this coordinate, in the plane tangent at `origin`: the inverse of
    /// `displaced(by:)`, for comparing a reported position with the truth.
    public func eastNorthOffset(from origin: Coordinate) -> EastNorthOffset {
        let scale = SimulationMath.metresPerRadian(atLatitude: origin.latitude)
        let dLon = SimulationMath.normalizedLongitude(longitude - origin.longitude)
        return EastNorthOffset(
            east: SimulationMath.radians(dLon) * scale.east,
            north: SimulationMath.radians(latitude - origin.latitude) * scale.north)
    }
}
