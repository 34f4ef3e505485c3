import Foundation
import Geofencing

/// The fence files of `geofence --fences FILE` and `geofence fences import|export`: GeoJSON, CSV and GTFS stops.txt.
///
/// ```swift
/// let fences = try FenceFile.read(path: "stops.txt", defaultRadius: 80)
/// for warning in fences.warnings { print(warning) }          // stops.txt:7: duplicate identifier "1" replaces line 3
/// for region in fences.regions { monitor.startMonitoring(for: region) }
/// ```
///
/// Fence files are UTF-8; UTF-16 and UTF-32 text is refused with or without a byte order mark (`WideTextEncoding`).
/// The format is recognised by content, never by the extension: after an optional UTF-8 byte order mark and blanks,
/// `{` or `[` starts JSON, which must be a GeoJSON FeatureCollection; anything else is a table whose header decides
/// (see `FenceFileFormat`). A file is read whole or not at all: the first invalid record or feature makes the read
/// throw a `FenceFileError` naming the file, line or feature, and field. Every region read keeps the monitor's
/// limits (|latitude| <= 85°, 1 m <= radius or half-width <= 50 km, rings of 3 corners or more, ...), so it can be
/// monitored without a further error. Polygons and corridors come from GeoJSON only (see `FenceGeoJSONGeometry`);
/// CSV and GTFS rows are circles. Writing fence files is in GeofencingWriters (`FenceFile.geojson`, `FenceFile.csv`).
public enum FenceFile {
    /// The formats, as error messages list them.
    public static let acceptedFormats = "a GeoJSON FeatureCollection (Point features with a radius, Polygon, "
        + "MultiPolygon, LineString with half_width_m), a CSV file with the header id,lat,lon,radius_m, or a GTFS "
        + "stops.txt (header with stop_id, stop_lat, stop_lon)"

    /// Reads the fence file at `path`.
    ///
    /// - Parameters:
    ///   - defaultRadius: the radius in metres of every GTFS stop (1 ... 50,000); CSV and GeoJSON files give their
    ///     own radii.
    ///   - datum: the datum of the file's coordinates. Each coordinate is converted to WGS-84 as it is read, and the
    ///     region's `sourceDatum` remembers the datum. Precedence: a CSV row's `datum` cell or a GeoJSON feature's
    ///     `properties.datum` overrides this for that row or feature; an empty cell or a missing property keeps it.
    ///     Ranges (|latitude| <= 85°, |longitude| <= 180°) are checked on the coordinates as written and again after
    ///     the conversion.
    /// - Throws: `FenceFileError` naming the path and the system's reason when the file cannot be opened or read,
    ///   and as `parse` for its content.
    public static func read(
        path: String, defaultRadius: Double = 100, datum: Datum = .wgs84
    ) throws(FenceFileError) -> FenceFileContents {
        try parse(try FenceFileBytes.contents(ofFile: path), name: path, defaultRadius: defaultRadius, datum: datum)
    }

    /// Reads a fence file held in memory; `name` stands for the file in errors and warnings. `datum` as for `read`.
    ///
    /// An empty file (or one of blanks only) gives no regions and a warning, as does a table with only its header
    /// or a FeatureCollection without features.
    public static func parse(
        _ data: Data, name: String, defaultRadius: Double = 100, datum: Datum = .wgs84
    ) throws(FenceFileError) -> FenceFileContents {
        let result: Result<FenceFileContents, FenceFileError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            if let wide = WideTextEncoding.detect(bytes) {
                return .failure(FenceFileError(file: name, message: wide.refusal("fence files")))
            }
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let first = bytes[start...].firstIndex { !isWhitespace($0) }
            do throws(FenceFileError) {
                guard let first else {
                    return .success(emptyContents(format: .csv, file: name, message: "no fences: the file is empty"))
                }
                if bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") {
                    return .success(try FenceGeoJSONReader.read(bytes, from: start, file: name, datum: datum))
                }
                return .success(try FenceTableReader.read(bytes, from: start, file: name, defaultRadius: defaultRadius,
                                                          datum: datum))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Shared by the readers

    static func emptyContents(format: FenceFileFormat, file: String, message: String) -> FenceFileContents {
        FenceFileContents(format: format, regions: [], warnings: [FenceFileWarning(file: file, message: message)])
    }

    static func unrecognisedFormat(file: String, detail: String) -> FenceFileError {
        FenceFileError(file: file, message: "not a fence file (\(detail)); expected \(acceptedFormats)")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
