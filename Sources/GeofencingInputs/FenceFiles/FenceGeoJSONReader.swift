import Geofencing

/// Reads a GeoJSON FeatureCollection (RFC 7946) of fences: Point features (circles), Polygon and MultiPolygon
/// features (polygon regions) and LineString features (corridors); see `FenceGeoJSONGeometry` for the geometries
/// and their size properties.
///
/// Per feature: the identifier from the feature's `"id"` (string or number), else `properties.id`, else
/// `properties.name` (boundary files such as Natural Earth's or the Dutch provinces' name their features but give no
/// id); optional `notify_on_entry` / `notify_on_exit` (true or false), `dwell_s` and `hysteresis_m` (numbers >= 0),
/// the zone rules `speed_limit_kmh`, `speed_tolerance_kmh`, `speed_duration_s` and `schedule` (`FenceZoneRules`),
/// and `datum` (a string naming the datum of this feature's coordinates, overriding the reader's; see
/// `FenceFile.read`). JSON `null` counts as absent. Types are strict: a radius written as "100" (a string) or true is
/// refused. Every coordinate of the shape is converted from the datum; a polygon or corridor is then checked as the
/// monitor checks it (`RegionIndex`), so a file that reads also monitors. Errors name the feature by its 1-based
/// position and its identifier, and the member at fault.
///
/// The document is read in two passes over its bytes (`FenceJSONScanner`): the first checks the JSON syntax of all of
/// it, building nothing, and finds the top level's `"type"` and `"features"` (the last of each when a key is given
/// twice); the second builds one feature's tree at a time and turns it into a region before reading the next. Memory
/// is the file's bytes, the regions and the largest feature's tree, whatever the number of features; a syntax error
/// anywhere is reported before any error in a feature, and the type before the features, as a parser of the whole
/// document would.
enum FenceGeoJSONReader {
    /// Reads the FeatureCollection in `bytes` from `start` (after any byte order mark); the caller has made sure that
    /// the first byte other than white space is `{` or `[`.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, file: String, datum: Datum
    ) throws(FenceFileError) -> FenceFileContents {
        /// Syntax errors (none in the second pass, after the first has checked the whole document) name the line.
        func syntax<T>(_ step: () throws(FenceJSONSyntaxError) -> T) throws(FenceFileError) -> T {
            do { return try step() } catch { throw FenceJSONSyntax.error(error, in: bytes, file: file) }
        }
        typealias Step = FenceJSONSyntaxError

        let outline = try syntax { () throws(Step) in try Outline(bytes, from: start) }
        guard outline.isObject else {
            throw FenceFile.unrecognisedFormat(file: file, detail: "a JSON array, not a GeoJSON FeatureCollection")
        }
        guard outline.type == "FeatureCollection" else {
            let found = outline.type.map { "its \"type\" is \(FenceText.quotedValue($0))" } ?? "it has no \"type\""
            throw FenceFile.unrecognisedFormat(file: file,
                                               detail: "JSON, but not a GeoJSON FeatureCollection: \(found)")
        }
        guard let features = outline.features else {
            throw FenceFileError(file: file, field: "features",
                                 message: "a FeatureCollection needs an array of features")
        }
        var collector = FenceRegionCollector(file: file, expectedCount: features.count)
        var scanner = FenceJSONScanner(bytes: bytes, start: start)
        scanner.move(to: features.offset)
        if try syntax({ () throws(Step) in try scanner.open(UInt8(ascii: "]")) }) {
            var number = 0
            repeat {
                number += 1
                let feature = try syntax { () throws(Step) in try scanner.value() }
                collector.add(try region(feature, number: number, file: file, datum: datum), from: .feature(number))
            } while try syntax({ () throws(Step) in try scanner.continues(until: UInt8(ascii: "]")) })
        } else {
            collector.warn(FenceFileWarning(file: file, message: "no fences: the FeatureCollection has no features"))
        }
        return FenceFileContents(format: .geojson, regions: collector.regions, warnings: collector.warnings)
    }

    /// The first pass: the whole document checked, and what its top level holds.
    private struct Outline {
        /// The document is an object (else an array: the caller sees to it that it is one of them).
        var isObject = false
        /// The top-level `"type"` when it is a string.
        var type: String?
        /// The top-level `"features"` when it is an array: where it starts and how many elements it has.
        var features: (offset: Int, count: Int)?

        init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(FenceJSONSyntaxError) {
            var scanner = FenceJSONScanner(bytes: bytes, start: start)
            guard try scanner.peek() == UInt8(ascii: "{") else {
                try scanner.skipValue()
                try scanner.finish()
                return
            }
            isObject = true
            if try scanner.open(UInt8(ascii: "}")) {
                repeat {
                    switch try scanner.key() {
                    case "type":
                        type = nil
                        if try scanner.peek() == UInt8(ascii: "\"") { type = try scanner.value().string } else {
                            try scanner.skipValue()
                        }
                    case "features":
                        features = nil
                        guard try scanner.peek() == UInt8(ascii: "[") else {
                            try scanner.skipValue()
                            continue
                        }
                        let offset = scanner.position
                        var count = 0
                        if try scanner.open(UInt8(ascii: "]")) {
                            repeat {
                                try scanner.skipValue()
                                count += 1
                            } while try scanner.continues(until: UInt8(ascii: "]"))
                            scanner.closed()
                        }
                        features = (offset, count)
                    default:
                        try scanner.skipValue()
                    }
                } while try scanner.continues(until: UInt8(ascii: "}"))
                scanner.closed()
            }
            try scanner.finish()
        }
    }

    // MARK: - One feature

    /// One feature read as a region; `number` (1-based) names it in errors. Also used by `FenceSetMessage`.
    static func region(
        _ json: FenceJSONValue, number: Int, file: String, datum: Datum
    ) throws(FenceFileError) -> Region {
        var identifier: String?
        func fail(_ field: String?, _ message: String) -> FenceFileError {
            FenceFileError(file: file, feature: number, featureIdentifier: identifier, field: field, message: message)
        }
        func check(_ field: String, _ validate: () throws(FenceFieldProblem) -> Void) throws(FenceFileError) {
            do { try validate() } catch { throw fail(field, error.message) }
        }

        guard let feature = json.object else {
            throw fail(nil, "is \(json.kind), not a GeoJSON Feature object")
        }
        var properties = FenceJSONObject()
        if let object = feature["properties"]?.object {
            properties = object
        } else if let other = feature["properties"], !other.isNull {
            throw fail("properties", "is \(other.kind), not an object")
        }
        for (field, value) in [("id", feature["id"]), ("properties.id", properties["id"]),
                               ("properties.name", properties["name"])] {
            guard identifier == nil, let value, !value.isNull else { continue }
            guard let text = value.identifier else {
                throw fail(field, "is \(value.kind); an identifier is a string or a number")
            }
            identifier = text
            try check(field) { () throws(FenceFieldProblem) in try FenceValidation.identifier(text) }
        }
        guard feature["type"]?.string == "Feature" else {
            throw fail("type", "is \(FenceJSONValue.describe(feature["type"])), not \"Feature\"")
        }
        guard let identifier else {
            throw fail("id", "missing: a fence needs an identifier (the feature's \"id\", properties.id or "
                + "properties.name)")
        }

        let written = try FenceGeoJSONGeometry.shape(feature["geometry"], properties: properties, fail: fail)
        var featureDatum = datum
        if let value = properties["datum"], !value.isNull {
            guard let name = value.string else {
                throw fail("properties.datum", "is \(FenceJSONValue.describe(value)), not a string naming a datum")
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
            guard let value = properties[key], !value.isNull else { continue }
            guard let flag = value.boolean else {
                throw fail("properties.\(key)", "is \(FenceJSONValue.describe(value)), not true or false")
            }
            region[keyPath: keyPath] = flag
        }
        for (key, unit, keyPath) in [("dwell_s", "s", \Region.dwellTime), ("hysteresis_m", "m", \.hysteresis)] {
            guard let value = properties[key], !value.isNull else { continue }
            guard let number = value.number else {
                throw fail("properties.\(key)", "is \(FenceJSONValue.describe(value)), not a number")
            }
            try check("properties.\(key)") { () throws(FenceFieldProblem) in
                try FenceValidation.nonNegative(number, unit: unit)
            }
            region[keyPath: keyPath] = number
        }
        try readZoneRules(properties, into: &region, fail: fail)
        return region
    }

    /// `speed_limit_kmh`, `speed_tolerance_kmh`, `speed_duration_s` (numbers) and `schedule` (a string), as
    /// `FenceZoneRules` reads them.
    private static func readZoneRules(
        _ properties: FenceJSONObject, into region: inout Region, fail: (String?, String) -> FenceFileError
    ) throws(FenceFileError) {
        var speeds: [Double?] = []
        for key in [FenceZoneRules.limitKey, FenceZoneRules.toleranceKey, FenceZoneRules.durationKey] {
            guard let value = properties[key], !value.isNull else {
                speeds.append(nil)
                continue
            }
            guard let number = value.number else {
                throw fail("properties.\(key)", "is \(FenceJSONValue.describe(value)), not a number")
            }
            speeds.append(number)
        }
        var scheduleText: String?
        if let value = properties[FenceZoneRules.scheduleKey], !value.isNull {
            guard let text = value.string else {
                throw fail("properties.schedule", "is \(FenceJSONValue.describe(value)), not a string")
            }
            scheduleText = text
        }
        do throws(FenceZoneRules.Problem) {
            region.speedLimit = try FenceZoneRules.speedLimit(limit: speeds[0], tolerance: speeds[1], duration: speeds[2])
            region.schedule = try scheduleText.map { (text) throws(FenceZoneRules.Problem) in
                try FenceZoneRules.schedule(text)
            }
        } catch {
            throw fail("properties.\(error.key)", error.message)
        }
    }
}
