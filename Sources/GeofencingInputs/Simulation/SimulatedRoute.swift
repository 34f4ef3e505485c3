// The path a simulated vehicle follows: waypoints joined by geodesics on the WGS-84 ellipsoid.
import Foundation
import Geofencing

/// A route for the simulator: waypoints joined by geodesics, some of them stops.
///
/// Between waypoints the vehicle follows the WGS-84 geodesic (Vincenty's solution: positions along a segment are
/// within a millimetre of the exact geodesic, and the distance travelled is the geodesic length). At a waypoint
/// the direction changes at once; the vehicle does not slow for corners unless the waypoint is a stop or the next
/// segment has a lower cruise speed.
public struct SimulatedRoute: Sendable, Hashable {
    /// The waypoints, in driving order.
    public let waypoints: [RouteWaypoint]
    /// Geodesic length in metres of each segment (waypoint i to i + 1).
    public let segmentLengths: [Double]
    /// Distance in metres along the route from the first waypoint to each waypoint.
    public let waypointDistances: [Double]
    /// Azimuth (radians clockwise from north) at the start and at the end of each segment.
    let startAzimuths: [Double]
    let endAzimuths: [Double]

    /// A route through `waypoints`.
    ///
    /// - Throws: `SimulationError` for fewer than two waypoints, an invalid coordinate (not finite, out of range,
    ///   or at a pole), two consecutive waypoints at the same place or nearly antipodal, a negative or non-finite
    ///   dwell, or a cruise speed that is not positive.
    public init(waypoints: [RouteWaypoint]) throws {
        guard waypoints.count >= 2 else { throw SimulationError.tooFewWaypoints(count: waypoints.count) }
        for (index, waypoint) in waypoints.enumerated() {
            guard waypoint.coordinate.isValid, abs(waypoint.coordinate.latitude) < 90 else {
                throw SimulationError.invalidCoordinate(index: index)
            }
            if let dwell = waypoint.dwell {
                try SimulationError.check("waypoint \(index) dwell", dwell, ">= 0 seconds") { $0 >= 0 }
            }
            if let speed = waypoint.cruiseSpeed {
                try SimulationError.check("waypoint \(index) cruiseSpeed", speed, "> 0 m/s") { $0 > 0 }
            }
        }
        var lengths: [Double] = [], starts: [Double] = [], ends: [Double] = []
        for index in 0..<(waypoints.count - 1) {
            guard let line = VincentyGeodesic.inverse(
                from: waypoints[index].coordinate, to: waypoints[index + 1].coordinate)
            else { throw SimulationError.nearlyAntipodalSegment(index: index) }
            // Below a millimetre the segment has no usable direction: treat it as the same point.
            guard line.distance >= 0.001 else { throw SimulationError.zeroLengthSegment(index: index) }
            lengths.append(line.distance)
            starts.append(line.initialAzimuth)
            ends.append(line.finalAzimuth)
        }
        self.waypoints = waypoints
        segmentLengths = lengths
        startAzimuths = starts
        endAzimuths = ends
        waypointDistances = lengths.reduce(into: [0]) { distances, length in distances.append(distances.last! + length) }
    }

    /// A route through `points` that stops only at its two ends (a polyline, e.g. a road or a track).
    public init(polyline points: [Coordinate]) throws {
        try self.init(waypoints: points.map { RouteWaypoint($0) })
    }

    /// A route that stops at every one of `stops` for `dwell` seconds, the first and last included (a bus line).
    public init(stops: [Coordinate], dwell: Double) throws {
        try self.init(waypoints: stops.map { RouteWaypoint($0, dwell: dwell) })
    }

    /// Total geodesic length in metres.
    public var length: Double { waypointDistances.last! }

    /// Indices of the waypoints where the vehicle comes to rest: the ends and every waypoint with a dwell.
    public var stopIndices: [Int] {
        waypoints.indices.filter { $0 == 0 || $0 == waypoints.count - 1 || waypoints[$0].isStop }
    }

    /// The point `distance` metres into segment `segment` (clamped to the segment) and the azimuth of travel there
    /// in degrees. Within a micrometre of either end it is the waypoint's own coordinate, so a vehicle at a stop is
    /// exactly at the stop whatever the rounding of the distances summed to get there.
    func point(inSegment segment: Int, at distance: Double) -> (coordinate: Coordinate, course: Double) {
        let length = segmentLengths[segment]
        let snap = 1e-6
        if distance <= snap {
            return (waypoints[segment].coordinate, courseDegrees(startAzimuths[segment]))
        }
        if distance >= length - snap {
            return (waypoints[segment + 1].coordinate, courseDegrees(endAzimuths[segment]))
        }
        let destination = VincentyGeodesic.direct(
            from: waypoints[segment].coordinate, azimuth: startAzimuths[segment], distance: distance)
        return (destination.coordinate, courseDegrees(destination.azimuth))
    }

    private func courseDegrees(_ azimuth: Double) -> Double {
        SimulationMath.normalizedCourse(SimulationMath.degrees(azimuth))
    }
}
