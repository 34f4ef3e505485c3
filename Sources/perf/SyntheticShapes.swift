import CGeofence
import Glibc
import GeofencingInputs

/// The synthetic shapes of the polygon rows: a polygon far bigger in vertices than any real outline, and a long
/// route. Both are deterministic (fixed formulas and seeds), so every run measures the same shapes.
enum SyntheticShapes {
    private static let metresPerDegreeOfLatitude = 6_371_008.8 * .pi / 180

    /// The offset of (north, east) metres from a point, as a flat-earth step: exact enough for shapes of 100 km,
    /// whose exact form does not matter, only that every engine gets the same integers.
    static func offset(latitude: Double, longitude: Double, north: Double, east: Double) -> Position {
        Position(latitude: latitude + north / metresPerDegreeOfLatitude,
                 longitude: longitude + east / (metresPerDegreeOfLatitude * cos(latitude * .pi / 180)))
    }

    /// A star of `vertexCount` vertices around (-27, 151): at angle t the radius is
    /// 40 km x (1 + 0.25 sin 7t + 0.04 sin 331t), so seven broad arms with fine teeth (40 m to 10 km between vertex and
    /// mean radius). Its vertices go round once with increasing angle and the radius stays positive, so the ring never
    /// crosses itself (vertices 2.5-4 m apart, far more than the 1 cm rounding to 1e-7 degree).
    static func star(vertexCount: Int) -> PolygonShape {
        let centreLatitude = -27.0
        let centreLongitude = 151.0
        let ring = (0..<vertexCount).map { index in
            let angle = 2 * .pi * Double(index) / Double(vertexCount)
            let radius = 40_000 * (1 + 0.25 * sin(7 * angle) + 0.04 * sin(331 * angle))
            return offset(latitude: centreLatitude, longitude: centreLongitude, north: radius * cos(angle),
                          east: radius * sin(angle)).point
        }
        return PolygonShape(name: "star", rings: [ring])
    }

    /// A winding route of `vertexCount` vertices `spacingMetres` apart, starting at (-27.5, 150) heading east: the
    /// heading takes a random turn of up to 3 degrees per vertex and is pulled back toward east, so the route wanders
    /// like a country road without turning back on itself for long.
    static func route(vertexCount: Int, spacingMetres: Double, seedName: String) -> [Position] {
        var generator = SplitMix64(seedNamed: seedName)
        var latitude = -27.5
        var longitude = 150.0
        var heading = Double.pi / 2  // radians clockwise from north: east
        var path: [Position] = []
        path.reserveCapacity(vertexCount)
        for _ in 0..<vertexCount {
            path.append(Position(latitude: latitude, longitude: longitude))
            let next = offset(latitude: latitude, longitude: longitude, north: spacingMetres * cos(heading),
                              east: spacingMetres * sin(heading))
            (latitude, longitude) = (next.latitudeDegrees, next.longitudeDegrees)
            heading += generator.uniform(in: -0.05...0.05) + 0.02 * (Double.pi / 2 - heading)
        }
        return path
    }
}
