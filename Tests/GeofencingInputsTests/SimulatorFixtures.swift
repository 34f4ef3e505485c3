// Test support for the simulator tests: routes with known geometry and the statistics the error tests need.
import Foundation
import Geofencing
@testable import GeofencingInputs

enum SimulatorFixtures {
    /// Brisbane GPO: a mid-southern latitude, where east and north metres per degree differ visibly.
    static let brisbane = Coordinate(latitude: -27.4679357, longitude: 153.0281038)

    /// The point `distance` metres from `start` at `azimuth` degrees, on the geodesic.
    static func point(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        VincentyGeodesic.direct(from: start, azimuth: azimuth * .pi / 180, distance: distance).coordinate
    }

    /// Geodesic distance in metres.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        VincentyGeodesic.inverse(from: a, to: b)!.distance
    }

    /// A bus line of `count` stops, 500 to 900 m apart, turning a little at each stop, with intermediate
    /// pass-through waypoints halfway between some stops.
    static func busStops(count: Int = 6, dwell: Double = 20) -> [RouteWaypoint] {
        var waypoints = [RouteWaypoint(brisbane, dwell: dwell, name: "stop-0")]
        var here = brisbane
        var azimuth = 60.0
        for index in 1..<count {
            let leg = 500 + Double(index * 97 % 400)
            if index % 2 == 0 {  // a bend halfway, passed without stopping
                here = point(from: here, azimuth: azimuth, distance: leg / 2)
                waypoints.append(RouteWaypoint(here))
                azimuth += 25
                here = point(from: here, azimuth: azimuth, distance: leg / 2)
            } else {
                here = point(from: here, azimuth: azimuth, distance: leg)
            }
            waypoints.append(RouteWaypoint(here, dwell: dwell, name: "stop-\(index)"))
            azimuth -= 10
        }
        return waypoints
    }

    /// A railway line: stations 6 to 10 km apart, heading north-west.
    static func railwayStations(count: Int = 4, dwell: Double = 45) -> [RouteWaypoint] {
        var waypoints = [RouteWaypoint(brisbane, dwell: dwell)]
        var here = brisbane
        for index in 1..<count {
            here = point(from: here, azimuth: 315 + Double(index * 7), distance: 6000 + Double(index) * 1300)
            waypoints.append(RouteWaypoint(here, dwell: dwell))
        }
        return waypoints
    }

    /// A square of `side` metres driven `laps` times without stopping: a long drive for statistics.
    static func laps(_ laps: Int, side: Double = 5000) throws -> SimulatedRoute {
        let corners = (0..<4).reduce(into: [brisbane]) { corners, index in
            corners.append(point(from: corners.last!, azimuth: Double(index) * 90, distance: side))
        }.dropLast()
        var points: [Coordinate] = []
        for _ in 0..<laps { points += corners }
        points.append(brisbane)
        return try SimulatedRoute(polyline: points)
    }
}

/// Sample statistics of a series.
struct SeriesStatistics {
    let values: [Double]

    var mean: Double { values.reduce(0, +) / Double(values.count) }

    var standardDeviation: Double {
        let mean = self.mean
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    /// Sample autocorrelation at `lag`.
    func autocorrelation(lag: Int) -> Double {
        let mean = self.mean
        let centred = values.map { $0 - mean }
        let variance = centred.reduce(0) { $0 + $1 * $1 }
        var covariance = 0.0
        for index in 0..<(centred.count - lag) {
            covariance += centred[index] * centred[index + lag]
        }
        return covariance / variance
    }

    /// Pearson correlation with another series of the same length.
    func correlation(with other: SeriesStatistics) -> Double {
        let meanA = mean, meanB = other.mean
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (a, b) in zip(values, other.values) {
            covariance += (a - meanA) * (b - meanB)
            varianceA += (a - meanA) * (a - meanA)
            varianceB += (b - meanB) * (b - meanB)
        }
        return covariance / (varianceA * varianceB).squareRoot()
    }
}
