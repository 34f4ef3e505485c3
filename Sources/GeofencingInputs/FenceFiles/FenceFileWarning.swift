/// Something in a fence file that was read anyway but that its author may not have meant, e.g.
/// `stops.csv:7: duplicate identifier "stop-1" replaces line 3`
/// or `stops.csv: no fences: the file holds only a header`.
public struct FenceFileWarning: Sendable, Hashable, CustomStringConvertible {
    /// The path given to `FenceFile.read`, or the name given to `FenceFile.parse`.
    public var file: String
    /// The 1-based physical line (CSV and GTFS; for a record spanning lines, the line where it starts).
    public var line: Int?
    /// The 1-based index of the feature in a GeoJSON FeatureCollection.
    public var feature: Int?
    /// What is odd, without the location.
    public var message: String

    public init(file: String, line: Int? = nil, feature: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.feature = feature
        self.message = message
    }

    public var description: String {
        FenceFileLocation.prefix(file: file, line: line, feature: feature, featureIdentifier: nil) + " " + message
    }
}
