import CGeofence
import Glibc
import GeofencingInputs

/// One set of polygon or corridor fences for the polygon rows, with the area its fixes are drawn over.
struct PolygonDataset {
    enum Shapes {
        case polygons([PolygonShape])
        case corridor(CorridorShape)
    }

    /// "australia-states", "dutch-provinces", "synthetic-100k" or "corridor-10k": the `dataset` field of the report.
    let name: String
    let shapes: Shapes
    /// The shapes' bounding box: random fixes fall uniformly over it, and polygon drives bounce inside it.
    let area: GeoArea

    /// Polygons in the table (one per corridor): the `fences` of the report.
    var fenceCount: Int {
        switch shapes {
        case .polygons(let polygons): polygons.count
        case .corridor: 1
        }
    }

    var vertexCount: Int {
        switch shapes {
        case .polygons(let polygons): polygons.reduce(0) { $0 + $1.vertexCount }
        case .corridor(let corridor): corridor.path.count
        }
    }

    /// Polygons from a GeoJSON file (nil when the file is absent: the rows are skipped with a note).
    static func file(_ path: String, named name: String) throws(PolygonGeoJSON.ReadError) -> PolygonDataset? {
        guard let polygons = try PolygonGeoJSON.read(path: path) else { return nil }
        guard let dataset = polygonSet(polygons, named: name) else {
            throw PolygonGeoJSON.ReadError(path: path, problem: "no polygons")
        }
        return dataset
    }

    /// The 10^5-vertex star (SyntheticShapes.star), ~100 km across.
    static func syntheticStar() -> PolygonDataset {
        // A star always has vertices, so there is always a box.
        polygonSet([SyntheticShapes.star(vertexCount: 100_000)], named: "synthetic-100k")!
    }

    /// A 200 km route of 10^4 vertices (20 m apart), half-width 50 m; fixes over its box widened by 1 km.
    static func syntheticCorridor() -> PolygonDataset {
        let path = SyntheticShapes.route(vertexCount: 10_000, spacingMetres: 20, seedName: "corridor-10k/route")
        // A route always has vertices, so there is always a box.
        let box = GeoArea.boundingBox(of: path.map { ($0.latitudeDegrees, $0.longitudeDegrees) })!
        let widen = 1_000 / (6_371_008.8 * .pi / 180)
        let area = GeoArea(south: box.south - widen, north: box.north + widen,
                           west: box.west - widen / cos(box.south * .pi / 180),
                           east: box.east + widen / cos(box.south * .pi / 180))
        return PolygonDataset(name: "corridor-10k",
                              shapes: .corridor(CorridorShape(path: path, halfWidthMillimetres: 50_000)), area: area)
    }

    private static func polygonSet(_ polygons: [PolygonShape], named name: String) -> PolygonDataset? {
        let points = polygons.flatMap { $0.rings.joined() }
            .map { (latitude: Double($0.lat) / 1e7, longitude: Double($0.lon) / 1e7) }
        guard let area = GeoArea.boundingBox(of: points) else { return nil }
        return PolygonDataset(name: name, shapes: .polygons(polygons), area: area)
    }

    /// The fixes of one workload: `random` uniform over the area; `drive` the circle rows' vehicle bouncing inside the
    /// area for polygons, and for a corridor a vehicle along the route (CorridorDrive). Deterministic.
    func fixes(_ workload: Workload, count: Int) -> [Position] {
        let seedName = "\(name)/\(workload.rawValue)"
        if case .corridor(let corridor) = shapes, workload == .drive {
            var generator = SplitMix64(seedNamed: seedName)
            return CorridorDrive.fixes(count: count, along: corridor, generator: &generator)
        }
        return workload.fixes(count: count, over: area, fences: [], seedName: seedName)
    }
}
