import Foundation
import Geofencing

/// One fix of the track drawn on the map.
public struct MapTrackPoint: Sendable, Hashable {
    public var coordinate: Coordinate
    /// GNSS time of the fix, shown in the track's tooltip; nil when the source had none.
    public var time: Date?
    /// Inside at least one region at this fix: the track leaving this fix is drawn in the inside colour.
    public var inside: Bool

    public init(coordinate: Coordinate, time: Date? = nil, inside: Bool) {
        self.coordinate = coordinate
        self.time = time
        self.inside = inside
    }
}
