import Foundation
import Geofencing

/// Reads a GeoJSON FeatureCollection (RFC 7946) of fences: Point features (circles), Polygon and MultiPolygon
/// features (polygon regions) and LineString features (corridors); see `FenceGeoJSONGeometry` for the geometries
/// and their size properties.
///
/// Per feature: the identifier from the feature's `"id"` (string or number), else `properties.id`, else
/// `properties.name` (boundary files such as Natural Earth's or the Dutch provinces' name their features but give no
/// id); optional `notify_on_entry` / `notify_on_exit` (true or false), `dwell_s` and `hysteresis_m` (numbers >= 0),
/// and `datum` (a string naming the datum of this feature's coordinates, overriding the reader's; see
/// `FenceFile.read`). JSON `null` counts as absent. Types are strict: a radius written as "100" (a string) or true is
/// refused. Every coordinate of the shape is converted from the datum; a polygon or corridor is then checked as the
/// monitor checks it (`RegionIndex`), so a file that reads also monitors. Errors name the feature by its 1-based
/// position and its identifier, and the member at fault.
enum FenceGeoJSONReader {
    static func read(_ data: Data, file: String, datum: Datum) throws(FenceFileError) -> FenceFileContents {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FenceJSONSyntax.error(error, in: data, file: file)
        }
        guard let collection = json as? [String: Any] else {
            throw FenceFile.unrecognisedFormat(file: file, detail: "a JSON array, not a GeoJSON FeatureCollection")
        }
        guard let type = collection["type"] as? String, type == "FeatureCollection" else {
            let found = (collection["type"] as? String).map { "its \"type\" is \(FenceText.quotedValue($0))" }
                ?? "it has no \"type\""
            throw FenceFile.unrecognisedFormat(file: file,
                                               detail: "JSON, but not a GeoJSON FeatureCollection: \(found)")
        }
        guard let features = collection["features"] as? [Any] else {
            throw FenceFileError(file: file, field: "features",
                                 message: "a FeatureCollection needs an array of features")
        }
        var collector = FenceRegionCollector(file: file, expectedCount: features.count)
        for (index, feature) in features.enumerated() {
            collector.add(try region(feature, number: index + 1, file: file, datum: datum), from: .feature(index + 1))
        }
        if features.isEmpty {
            collector.warn(FenceFileWarning(file: file, message: "no fences: the FeatureCollection has no features"))
        }
        return FenceFileContents(format: .geojson, regions: collector.regions, warnings: collector.warnings)
    }

    // MARK: - One feature

    private static func region(
        _ json: Any, number: Int, file: String, datum: Datum
    ) throws(FenceFileError) -> Region {
        var identifier: String?
        func fail(_ field: String?, _ message: String) -> FenceFileError {
            FenceFileError(file: file, feature: number, featureIdentifier: identifier, field: field, message: message)
        }
        func check(_ field: String, _ validate: () throws(FenceFieldProblem) -> Void) throws(FenceFileError) {
            do { try validate() } catch { throw fail(field, error.message) }
        }

        guard let feature = json as? [String: Any] else {
            throw fail(nil, "is \(JSONValue.kind(json)), not a GeoJSON Feature object")
        }
        var properties: [String: Any] = [:]
        if let object = feature["properties"] as? [String: Any] {
            properties = object
        } else if let other = feature["properties"], !JSONValue.isNull(other) {
            throw fail("properties", "is \(JSONValue.kind(other)), not an object")
        }
        for (field, value) in [("id", feature["id"]), ("properties.id", properties["id"]),
                               ("properties.name", properties["name"])] {
            guard identifier == nil, let value, !JSONValue.isNull(value) else { continue }
            guard let text = JSONValue.identifier(value) else {
                throw fail(field, "is \(JSONValue.kind(value)); an identifier is a string or a number")
            }
            identifier = text
            try check(field) { () throws(FenceFieldProblem) in try FenceValidation.identifier(text) }
        }
        guard feature["type"] as? String == "Feature" else {
            throw fail("type", "is \(JSONValue.describe(feature["type"])), not \"Feature\"")
        }
        guard let identifier else {
            throw fail("id", "missing: a fence needs an identifier (the feature's \"id\", properties.id or "
                + "properties.name)")
        }

        let written = try FenceGeoJSONGeometry.shape(feature["geometry"], properties: properties, fail: fail)
        var featureDatum = datum
        if let value = properties["datum"], !JSONValue.isNull(value) {
            guard let name = value as? String else {
                throw fail("properties.datum", "is \(JSONValue.describe(value)), not a string naming a datum")
            }
            try check("properties.datum") { () throws(FenceFieldProblem) in
                featureDatum = try FenceValidation.datum(name)
            }
        }
        var region: Region
        if case .circle(let center, let radius) = written {
            var converted = center
            try check("geometry.coordinates") { () throws(FenceFieldProblem) in
                converted = try FenceValidation.wgs84Center(center, in: featureDatum)
            }
            region = Region(center: converted, radius: radius, identifier: identifier)
            region.sourceDatum = featureDatum
        } else {
            region = Region(shape: written, in: featureDatum, identifier: identifier)
            // What the monitor would refuse (a ring of 3 equal corners, a shape across ±180°, a corridor too wide for
            // its latitude, a vertex carried past 85° by the datum shift), with its reason.
            do {
                _ = try RegionIndex(regions: [region])
            } catch {
                throw fail("geometry", "\(error)")
            }
        }
        for (key, keyPath) in [("notify_on_entry", \Region.notifyOnEntry), ("notify_on_exit", \.notifyOnExit)] {
            guard let value = properties[key], !JSONValue.isNull(value) else { continue }
            guard let flag = JSONValue.boolean(value) else {
                throw fail("properties.\(key)", "is \(JSONValue.describe(value)), not true or false")
            }
            region[keyPath: keyPath] = flag
        }
        for (key, unit, keyPath) in [("dwell_s", "s", \Region.dwellTime), ("hysteresis_m", "m", \.hysteresis)] {
            guard let value = properties[key], !JSONValue.isNull(value) else { continue }
            guard let number = JSONValue.number(value) else {
                throw fail("properties.\(key)", "is \(JSONValue.describe(value)), not a number")
            }
            try check("properties.\(key)") { () throws(FenceFieldProblem) in
                try FenceValidation.nonNegative(number, unit: unit)
            }
            region[keyPath: keyPath] = number
        }
        return region
    }
}

/// What JSONSerialization returns, taken apart strictly and cheaply.
///
/// swift-corelibs-foundation (Swift 6.3) gives String, [Any], [String: Any], NSNull, and NSNumber for numbers and
/// booleans alike (a boolean is an NSNumber of C type `char`). A number written with more than 17 characters comes as
/// an NSDecimalNumber whose `doubleValue` is not correctly rounded: 45 % of random doubles came back 1 to 6 ulps off
/// (measured); its exact decimal text converted by `Double(_:)` gives them all back bit for bit, so exported regions
/// re-import equal. Types are tested on the metatype: `value is NSNull` or `as? NSNumber` on a Swift dictionary or
/// string first bridges it to an Objective-C object, which took most of the reading time.
enum JSONValue {
    static func isNull(_ json: Any) -> Bool {
        type(of: json) is NSNull.Type
    }

    private static func nsNumber(_ json: Any) -> NSNumber? {
        type(of: json) is NSNumber.Type ? json as? NSNumber : nil
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    static func number(_ json: Any) -> Double? {
        guard let number = nsNumber(json), !isBoolean(number) else { return nil }
        if let decimal = number as? NSDecimalNumber { return Double(decimal.stringValue) ?? decimal.doubleValue }
        return number.doubleValue
    }

    static func boolean(_ json: Any) -> Bool? {
        guard let number = nsNumber(json), isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// A string, or a number as JSON wrote it ("17", "1.5").
    static func identifier(_ json: Any) -> String? {
        if let text = json as? String { return text }
        if let number = nsNumber(json), !isBoolean(number) { return number.stringValue }
        return nil
    }

    /// "a string", "an array", ... for messages.
    static func kind(_ json: Any) -> String {
        if json is String { return "a string" }
        if json is [Any] { return "an array" }
        if json is [String: Any] { return "an object" }
        if isNull(json) { return "null" }
        if let number = nsNumber(json) { return isBoolean(number) ? "a boolean" : "a number" }
        return "an unknown JSON value"
    }

    /// The value itself when short (strings, numbers, booleans), else its kind; "missing" for nil.
    static func describe(_ json: Any?) -> String {
        guard let json else { return "missing" }
        if let text = json as? String { return "the string " + FenceText.quotedValue(text) }
        if let flag = boolean(json) { return flag ? "true" : "false" }
        if let number = nsNumber(json) { return number.stringValue }
        return kind(json)
    }
}
