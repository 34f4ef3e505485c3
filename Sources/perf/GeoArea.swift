import Glibc
import GeofencingInputs

/// A latitude/longitude rectangle in degrees: where fences are placed and where fixes wander.
struct GeoArea {
    let south: Double
    let north: Double
    let west: Double
    let east: Double

    /// A country-sized area (about 1100 km north-south by 1000 km east-west) inland of Brisbane.
    static let country = GeoArea(south: -35, north: -25, west: 145, east: 155)

    /// The smallest rectangle holding every point (nil for no points).
    static func boundingBox(of points: [(latitude: Double, longitude: Double)]) -> GeoArea? {
        guard let first = points.first else { return nil }
        var box = (south: first.latitude, north: first.latitude, west: first.longitude, east: first.longitude)
        for point in points.dropFirst() {
            box.south = min(box.south, point.latitude)
            box.north = max(box.north, point.latitude)
            box.west = min(box.west, point.longitude)
            box.east = max(box.east, point.longitude)
        }
        return GeoArea(south: box.south, north: box.north, west: box.west, east: box.east)
    }

    /// A point uniform by surface area, not by degree: latitude is drawn uniform in sin(latitude), so the denser
    /// degrees nearer the pole do not get more points per square kilometre.
    func randomPoint(using generator: inout SplitMix64) -> Position {
        let sinSouth = sin(south * .pi / 180)
        let sinNorth = sin(north * .pi / 180)
        let latitude = asin(generator.uniform(in: sinSouth...sinNorth)) * 180 / .pi
        let longitude = generator.uniform(in: west...east)
        return Position(latitude: latitude, longitude: longitude)
    }

    func describe() -> String {
        "lat \(fixed(south, places: 3))..\(fixed(north, places: 3)), "
            + "lon \(fixed(west, places: 3))..\(fixed(east, places: 3))"
    }
}
