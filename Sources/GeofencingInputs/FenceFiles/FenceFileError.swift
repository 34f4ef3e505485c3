/// Why a fence file was rejected as a whole: names the file, the place in it (line, or GeoJSON feature), the field
/// and what is wrong, e.g. `stops.csv:7: field radius_m: 'abc' is not a number` or
/// `fences.geojson: feature 3 (id "x"): field geometry.coordinates[0][2]: is a number, not a [longitude, latitude]
/// pair in degrees`.
public struct FenceFileError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The path given to `FenceFile.read`, or the name given to `FenceFile.parse`.
    public var file: String
    /// The 1-based physical line: of the bad record in CSV and GTFS (where the record starts, if a quoted field spans
    /// lines), of a JSON syntax error in GeoJSON; nil when the problem is the file as a whole.
    public var line: Int?
    /// The 1-based index of the bad feature in a GeoJSON FeatureCollection.
    public var feature: Int?
    /// The bad feature's identifier, when it has one.
    public var featureIdentifier: String?
    /// The column (`radius_m`, `stop_lat`) or JSON member (`properties.radius`, `geometry.coordinates`) at fault.
    public var field: String?
    /// What is wrong, without the location.
    public var message: String

    public init(
        file: String, line: Int? = nil, feature: Int? = nil, featureIdentifier: String? = nil, field: String? = nil,
        message: String
    ) {
        self.file = file
        self.line = line
        self.feature = feature
        self.featureIdentifier = featureIdentifier
        self.field = field
        self.message = message
    }

    public var description: String {
        var text = FenceFileLocation.prefix(file: file, line: line, feature: feature,
                                            featureIdentifier: featureIdentifier)
        if let field { text += " field \(field):" }
        return text + " " + message
    }
}
