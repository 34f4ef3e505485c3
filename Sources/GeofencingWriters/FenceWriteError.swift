import Geofencing
import GeofencingInputs

/// Why regions could not be written in the asked format: a region the format cannot hold. Names the region and the
/// format that can, e.g. `cannot write region "zone" as CSV: it is a polygon, and CSV holds circles only (id, lat,
/// lon, radius_m); write GeoJSON instead, which holds every shape`.
public struct FenceWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format asked for.
    public var format: FenceFileFormat
    /// The first region the format cannot hold.
    public var identifier: String
    /// What is wrong with it, without the region.
    public var message: String

    public init(format: FenceFileFormat, identifier: String, message: String) {
        self.format = format
        self.identifier = identifier
        self.message = message
    }

    public var description: String {
        "cannot write region \(FenceText.quotedIdentifier(identifier)) as \(format.rawValue.uppercased()): \(message)"
    }
}
