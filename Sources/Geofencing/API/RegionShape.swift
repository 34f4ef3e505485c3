/// The area of a `Region`, in WGS-84 coordinates.
///
/// Polygon and corridor edges are straight lines in (longitude, latitude), as GeoJSON's are (RFC 7946 3.1.1): over
/// an edge of a few kilometres that line is within centimetres of the geodesic one at mid latitudes; long edges of a
/// coarse polygon differ more (an east-west edge of 100 km at 45 deg bows up to about 40 m from the geodesic), so give
/// long boundaries with intermediate vertices if the difference matters.
public enum RegionShape: Sendable, Hashable, CustomStringConvertible {
    /// A circle: the geodesic distance to `center` at most `radius` metres (1 ... 50,000).
    case circle(center: Coordinate, radius: Double)
    /// A polygon: `rings[0]` the outer boundary, the others holes. Each ring has at least 3 distinct vertices, in
    /// either orientation; a last vertex equal to the first (GeoJSON's closed rings) is allowed and ignored. Inside
    /// by the even-odd rule over all rings, so the parts of a multi-polygon may be given as further rings as long as
    /// no two of them overlap. Limits: every vertex within 85 deg of latitude, no polygon across +-180 deg of
    /// longitude, at most 4,000,000 vertices.
    case polygon(rings: [[Coordinate]])
    /// A corridor: every point within `halfWidth` metres (1 ... 50,000) of the polyline `path` (at least 2 vertices;
    /// a route, a road). Same limits as a polygon.
    case corridor(path: [Coordinate], halfWidth: Double)

    /// The circle's centre, or the centre of the bounding box of the polygon's (all its rings') or corridor's
    /// vertices; not a valid coordinate when the shape has no valid vertex.
    public var center: Coordinate {
        if case .circle(let center, _) = self { return center }
        guard let box = boundingBox else { return Coordinate(latitude: .nan, longitude: .nan) }
        return Coordinate(latitude: (box.southWest.latitude + box.northEast.latitude) / 2,
                          longitude: (box.southWest.longitude + box.northEast.longitude) / 2)
    }

    /// The south-west and north-east corners of the box around the valid vertices (a circle: its centre, both
    /// corners), in degrees of latitude and longitude; nil when there is none. Shapes never cross +-180 degrees, so
    /// west <= east.
    public var boundingBox: (southWest: Coordinate, northEast: Coordinate)? {
        let points: [Coordinate]
        switch self {
        case .circle(let center, _): points = [center]
        case .polygon(let rings): points = rings.flatMap { $0 }
        case .corridor(let path, _): points = path
        }
        let valid = points.filter(\.isValid)
        guard let first = valid.first else { return nil }
        var south = first.latitude, north = first.latitude, west = first.longitude, east = first.longitude
        for point in valid {
            south = min(south, point.latitude)
            north = max(north, point.latitude)
            west = min(west, point.longitude)
            east = max(east, point.longitude)
        }
        return (Coordinate(latitude: south, longitude: west), Coordinate(latitude: north, longitude: east))
    }

    /// Whether this is a circle (the core measures a circle's distance exactly at any depth; a polygon's depth inside
    /// only near its boundary, see `RegionIndex` and `MonitorEngine`).
    var isCircle: Bool {
        if case .circle = self { true } else { false }
    }

    /// Every vertex (the circle's centre, the polygon's rings in order, the corridor's path).
    public var vertexCount: Int {
        switch self {
        case .circle: 1
        case .polygon(let rings): rings.reduce(0) { $0 + $1.count }
        case .corridor(let path, _): path.count
        }
    }

    /// The same shape with every coordinate passed through `transform` (a datum conversion).
    public func mapCoordinates(_ transform: (Coordinate) -> Coordinate) -> RegionShape {
        switch self {
        case .circle(let center, let radius): .circle(center: transform(center), radius: radius)
        case .polygon(let rings): .polygon(rings: rings.map { $0.map(transform) })
        case .corridor(let path, let halfWidth): .corridor(path: path.map(transform), halfWidth: halfWidth)
        }
    }

    public var description: String {
        switch self {
        case .circle(let center, let radius): "\(center) r=\(radius) m"
        case .polygon(let rings): "polygon of \(rings.count) ring(s), \(vertexCount) vertices"
        case .corridor(let path, let halfWidth): "corridor of \(path.count) vertices, half-width \(halfWidth) m"
        }
    }
}
