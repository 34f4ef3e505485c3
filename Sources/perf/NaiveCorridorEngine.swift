import Glibc

/// The corridor baseline: what an app developer writes without a geofencing library. For every fix, every segment
/// of the path: the nearest point of the segment (found in a flat frame around the fix, degrees of longitude scaled by
/// cos(latitude)), then the haversine distance to it; inside when the smallest is at most the half-width.
///
/// Against the core (WGS-84 geodesic distance to edges straight in longitude and latitude) it differs by the
/// sphere's error, up to 0.56 % of the distance (0.28 m at a 50 m half-width), plus the flat frame's error in
/// placing the nearest point (second order in the segment's 20 m: sub-millimetre). So near the edge the two may
/// legitimately disagree; see PolygonAgreement.
struct NaiveCorridorEngine {
    private let latitudes: [Double]   // radians
    private let longitudes: [Double]  // radians
    let halfWidthMetres: Double

    /// Converts the path (the benchmark times this, and weighs what it keeps, as this engine's build cost).
    init(_ corridor: CorridorShape) {
        latitudes = corridor.path.map { $0.latitudeDegrees * .pi / 180 }
        longitudes = corridor.path.map { $0.longitudeDegrees * .pi / 180 }
        halfWidthMetres = corridor.halfWidthMetres
    }

    /// 1 when the fix is within the half-width of the path, else 0.
    func countInside(_ fix: Position) -> Int {
        distanceMetres(from: fix) <= halfWidthMetres ? 1 : 0
    }

    /// The smallest haversine distance from the fix to any segment, metres.
    func distanceMetres(from fix: Position) -> Double {
        let latitude = fix.latitudeDegrees * .pi / 180
        let longitude = fix.longitudeDegrees * .pi / 180
        let cosLatitude = cos(latitude)
        var nearest = Double.infinity
        for index in 0..<(latitudes.count - 1) {
            // Segment ends relative to the fix, in a flat frame (radians of arc north and east).
            let ax = (longitudes[index] - longitude) * cosLatitude
            let ay = latitudes[index] - latitude
            let bx = (longitudes[index + 1] - longitude) * cosLatitude
            let by = latitudes[index + 1] - latitude
            let (dx, dy) = (bx - ax, by - ay)
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(max(-(ax * dx + ay * dy) / lengthSquared, 0), 1) : 0
            let pointLatitude = latitudes[index] + t * (latitudes[index + 1] - latitudes[index])
            let pointLongitude = longitudes[index] + t * (longitudes[index + 1] - longitudes[index])
            nearest = min(nearest, haversineMetres(latitude, longitude, cosLatitude, pointLatitude, pointLongitude))
        }
        return nearest
    }

    private func haversineMetres(
        _ latitude: Double, _ longitude: Double, _ cosLatitude: Double, _ otherLatitude: Double,
        _ otherLongitude: Double
    ) -> Double {
        let sinHalfLatitude = sin((otherLatitude - latitude) / 2)
        let sinHalfLongitude = sin((otherLongitude - longitude) / 2)
        let a = sinHalfLatitude * sinHalfLatitude
            + cosLatitude * cos(otherLatitude) * sinHalfLongitude * sinHalfLongitude
        return 2 * NaiveHaversineEngine.earthRadiusMetres * asin(min(1, a.squareRoot()))
    }
}
