import Geofencing

/// What a fence file holds: its format, its regions and the warnings met while reading it.
public struct FenceFileContents: Sendable {
    /// The format recognised from the content.
    public var format: FenceFileFormat
    /// The regions in file order, with unique identifiers. When an identifier occurs again, the later region
    /// replaces the earlier one *at the earlier one's position* (as assigning to an existing dictionary key), and a
    /// warning says so.
    public var regions: [Region]
    /// Duplicates replaced, an empty file or one with only a header, skipped GTFS nodes without coordinates.
    public var warnings: [FenceFileWarning]

    public init(format: FenceFileFormat, regions: [Region], warnings: [FenceFileWarning]) {
        self.format = format
        self.regions = regions
        self.warnings = warnings
    }
}
