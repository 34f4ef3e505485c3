import CGeofence
import Foundation

/// Reads the polygons of a GeoJSON FeatureCollection (RFC 7946) of Polygon and MultiPolygon features, such as the
/// state and province outlines in ../shared/data/polygons. Each Polygon (each part of a MultiPolygon) becomes one
/// PolygonShape, named after the feature's "name" property and the part's number: the engines get one polygon per
/// part, so a fix inside a state counts once as long as the state's parts do not overlap (true of these files: they
/// are islands and mainland).
enum PolygonGeoJSON {
    /// What was wrong with a file, naming the file and the place in it.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        let problem: String

        var description: String { "\(path): \(problem)" }
    }

    /// The polygons of the file at `path`, or nil when the file does not exist.
    static func read(path: String) throws(ReadError) -> [PolygonShape]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        let root: Any
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ReadError(path: path, problem: "not readable as JSON: \(error.localizedDescription)")
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection",
              let features = collection["features"] as? [Any] else {
            throw ReadError(path: path, problem: "not a GeoJSON FeatureCollection with a \"features\" array")
        }
        var polygons: [PolygonShape] = []
        for (featureIndex, feature) in features.enumerated() {
            do {
                polygons += try shapes(of: feature)
            } catch {
                throw ReadError(path: path, problem: "features[\(featureIndex)]: \(error.problem)")
            }
        }
        return polygons
    }

    /// A problem inside one feature, with the JSON path to the offending field.
    private struct FeatureProblem: Error {
        let problem: String
    }

    private static func shapes(of feature: Any) throws(FeatureProblem) -> [PolygonShape] {
        guard let feature = feature as? [String: Any], let geometry = feature["geometry"] as? [String: Any],
              let type = geometry["type"] as? String, let coordinates = geometry["coordinates"] as? [Any] else {
            throw FeatureProblem(problem: "no geometry with \"type\" and \"coordinates\"")
        }
        let name = (feature["properties"] as? [String: Any])?["name"] as? String ?? "unnamed"
        switch type {
        case "Polygon":
            return [PolygonShape(name: name, rings: try rings(coordinates, field: "geometry.coordinates"))]
        case "MultiPolygon":
            return try coordinates.enumerated().map { (part, polygon) throws(FeatureProblem) in
                guard let polygon = polygon as? [Any] else {
                    throw FeatureProblem(problem: "geometry.coordinates[\(part)] is not an array of rings")
                }
                return PolygonShape(name: "\(name) part \(part)",
                                    rings: try rings(polygon, field: "geometry.coordinates[\(part)]"))
            }
        default:
            throw FeatureProblem(problem: "geometry.type is \"\(type)\", not Polygon or MultiPolygon")
        }
    }

    /// The rings of one Polygon's coordinates, each without its closing vertex.
    private static func rings(_ polygon: [Any], field: String) throws(FeatureProblem) -> [[gf_point]] {
        guard !polygon.isEmpty else { throw FeatureProblem(problem: "\(field) has no rings") }
        return try polygon.enumerated().map { (ringIndex, ring) throws(FeatureProblem) in
            guard let positions = ring as? [Any] else {
                throw FeatureProblem(problem: "\(field)[\(ringIndex)] is not an array of positions")
            }
            var points = try positions.enumerated().map { (index, position) throws(FeatureProblem) in
                guard let pair = position as? [Any], pair.count >= 2,
                      let longitude = (pair[0] as? NSNumber)?.doubleValue,
                      let latitude = (pair[1] as? NSNumber)?.doubleValue,
                      abs(latitude) <= 85, abs(longitude) <= 180 else {
                    throw FeatureProblem(problem: "\(field)[\(ringIndex)][\(index)] is not [longitude, latitude] "
                        + "with |latitude| <= 85 and |longitude| <= 180")
                }
                return Position(latitude: latitude, longitude: longitude).point
            }
            if points.count > 1, let first = points.first, let last = points.last,
               first.lat == last.lat, first.lon == last.lon {
                points.removeLast()
            }
            guard points.count >= 3 else {
                throw FeatureProblem(problem: "\(field)[\(ringIndex)] has \(points.count) distinct-end vertices, "
                    + "fewer than 3")
            }
            return points
        }
    }
}
