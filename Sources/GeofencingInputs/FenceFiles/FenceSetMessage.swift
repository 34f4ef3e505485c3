import Geofencing

/// A fence set or a patch as a fleet's back-end sends it: JSON read with the rules of fence files (`FenceFile`), so
/// every feature is read, checked and named in errors as `geofence fences import` does.
///
/// - A set: a GeoJSON FeatureCollection (the fence-file format) with a top-level `"version"`:
///   `{"type": "FeatureCollection", "version": "42", "features": [...]}`. It holds every fence of the unit.
/// - A patch: `{"base_version": "42", "version": "43", "upsert": [features], "remove": [identifiers]}`; `upsert`
///   and `remove` may be missing or empty. It changes the set whose version is `base_version`.
///
/// Versions are strings (non-empty, as identifiers are: at most 1,024 bytes, no NUL); a number is refused, because
/// `1.0` and `1` are one number but two texts, and a version is compared as text. An identifier occurs once in a
/// message: a second feature with it, an identifier removed twice, or one both upserted and removed, is an error
/// (a fence file lets a later row replace an earlier one; a set is the back-end's state and must say one thing).
/// Other top-level members are ignored, as in fence files. Errors name the feature (1-based, in `features` or
/// `upsert`) and the field: `fence set: feature 3 (id "x"): field properties.radius: ...`.
public struct FenceSetMessage: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case set
        case patch(baseVersion: String)
    }

    public var kind: Kind
    public var version: String
    /// A set's features or a patch's upserts, in message order, with unique identifiers.
    public var regions: [Region]
    /// A patch's removals in message order (empty for a set).
    public var removals: [String]

    public init(kind: Kind, version: String, regions: [Region], removals: [String]) {
        self.kind = kind
        self.version = version
        self.regions = regions
        self.removals = removals
    }

    /// Reads a message; `name` stands for it in errors (the file's path, or "fence set").
    public static func parse(_ bytes: [UInt8], name: String) throws(FenceFileError) -> FenceSetMessage {
        let result: Result<FenceSetMessage, FenceFileError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(FenceFileError) {
                return .success(try read(buffer, name: name))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String
    ) throws(FenceFileError) -> FenceSetMessage {
        func syntax<T>(_ step: () throws(FenceJSONSyntaxError) -> T) throws(FenceFileError) -> T {
            do { return try step() } catch { throw FenceJSONSyntax.error(error, in: bytes, file: name) }
        }
        func fail(_ field: String?, _ message: String) -> FenceFileError {
            FenceFileError(file: name, field: field, message: message)
        }
        if let wide = WideTextEncoding.detect(bytes) { throw fail(nil, wide.refusal("fence sets")) }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let members = try syntax { () throws(FenceJSONSyntaxError) in try topLevelMembers(bytes, from: start) }
        guard let members else { throw fail(nil, "is not a JSON object: expected a fence set or a patch") }

        /// A small member's value (`version`, `base_version`, `type`, `remove`), built whole.
        func value(_ key: String) throws(FenceFileError) -> FenceJSONValue? {
            guard let offset = members[key] else { return nil }
            var scanner = FenceJSONScanner(bytes: bytes, start: start)
            scanner.move(to: offset)
            return try syntax { () throws(FenceJSONSyntaxError) in try scanner.value() }
        }
        func version(_ key: String) throws(FenceFileError) -> String {
            guard let value = try value(key), !value.isNull else {
                throw fail(key, "missing: a fence set or patch needs a version (a string)")
            }
            guard let text = value.string else {
                throw fail(key, "is \(FenceJSONValue.describe(value)), not a string (versions are compared as text)")
            }
            do { try FenceValidation.identifier(text) } catch {
                throw fail(key, "is not a valid version: " + error.message)
            }
            return text
        }

        let isPatch = members["base_version"] != nil || members["upsert"] != nil || members["remove"] != nil
        let featuresKey = isPatch ? "upsert" : "features"
        var kind = Kind.set
        if isPatch {
            if members["features"] != nil || members["type"] != nil {
                throw fail(nil, "has both a set's members (type, features) and a patch's (base_version, upsert, "
                    + "remove): send one or the other")
            }
            kind = .patch(baseVersion: try version("base_version"))
        } else {
            let type = try value("type")
            guard type?.string == "FeatureCollection" else {
                throw fail("type", "is \(FenceJSONValue.describe(type)), not \"FeatureCollection\" (a fence set) "
                    + "and the message has no base_version (a patch)")
            }
        }
        let setVersion = try version("version")

        var regions: [Region] = []
        var seen: [String: Int] = [:]
        if let offset = members[featuresKey] {
            var scanner = FenceJSONScanner(bytes: bytes, start: start)
            scanner.move(to: offset)
            guard try syntax({ () throws(FenceJSONSyntaxError) in try scanner.peek() }) == UInt8(ascii: "[") else {
                let found = try value(featuresKey)
                throw fail(featuresKey, "is \(FenceJSONValue.describe(found)), not an array of features")
            }
            if try syntax({ () throws(FenceJSONSyntaxError) in try scanner.open(UInt8(ascii: "]")) }) {
                var number = 0
                repeat {
                    number += 1
                    let feature = try syntax { () throws(FenceJSONSyntaxError) in try scanner.value() }
                    let region = try FenceGeoJSONReader.region(feature, number: number, file: name, datum: .wgs84)
                    if let first = seen[region.identifier] {
                        throw FenceFileError(file: name, feature: number, featureIdentifier: region.identifier,
                                             field: "id", message: "duplicate identifier: feature \(first) has it "
                                                + "too; a fence set names each fence once")
                    }
                    seen[region.identifier] = number
                    regions.append(region)
                } while try syntax({ () throws(FenceJSONSyntaxError) in
                    try scanner.continues(until: UInt8(ascii: "]"))
                })
            }
        } else if !isPatch {
            throw fail("features", "a FeatureCollection needs an array of features")
        }

        var removals: [String] = []
        if let remove = try value("remove"), !remove.isNull {
            guard let items = remove.array else {
                throw fail("remove", "is \(FenceJSONValue.describe(remove)), not an array of identifiers")
            }
            var removed = Set<String>()
            for (index, item) in items.enumerated() {
                let field = "remove[\(index)]"
                guard let identifier = item.identifier else {
                    throw fail(field, "is \(item.kind); an identifier is a string or a number")
                }
                do { try FenceValidation.identifier(identifier) } catch { throw fail(field, error.message) }
                guard removed.insert(identifier).inserted else {
                    throw fail(field, "\(FenceText.quotedIdentifier(identifier)) is removed twice")
                }
                if let feature = seen[identifier] {
                    throw fail(field, "\(FenceText.quotedIdentifier(identifier)) is also upserted (feature "
                        + "\(feature)): a patch either replaces a fence or removes it")
                }
                removals.append(identifier)
            }
        }
        return FenceSetMessage(kind: kind, version: setVersion, regions: regions, removals: removals)
    }

    /// The first pass: the whole document's syntax checked, and where each top-level member's value starts (the
    /// last one when a key is given twice); nil when the document is not an object.
    private static func topLevelMembers(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) throws(FenceJSONSyntaxError) -> [String: Int]? {
        var scanner = FenceJSONScanner(bytes: bytes, start: start)
        guard try scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            try scanner.finish()
            return nil
        }
        var members: [String: Int] = [:]
        if try scanner.open(UInt8(ascii: "}")) {
            repeat {
                let key = try scanner.key()
                _ = try scanner.peek()
                members[key] = scanner.position
                try scanner.skipValue()
            } while try scanner.continues(until: UInt8(ascii: "}"))
            scanner.closed()
        }
        try scanner.finish()
        return members
    }
}
