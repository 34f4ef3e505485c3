// One point of a simulated route.
import Geofencing

/// A point the simulated vehicle drives through or stops at.
public struct RouteWaypoint: Sendable, Hashable {
    /// Where the point is (WGS-84).
    public var coordinate: Coordinate
    /// Seconds the vehicle stands still here; nil when it drives through without stopping. The first and the last
    /// waypoint are always stops (nil counts as 0 s there): the vehicle starts and ends at rest.
    public var dwell: Double?
    /// Cruise speed in m/s on the segment from this waypoint to the next, overriding the speed profile's (a speed
    /// limit, a slow stretch); nil to use the profile's cruise speed for the leg.
    public var cruiseSpeed: Double?
    /// A name for the point, e.g. a stop identifier; the simulator only passes it on.
    public var name: String?

    public init(_ coordinate: Coordinate, dwell: Double? = nil, cruiseSpeed: Double? = nil, name: String? = nil) {
        self.coordinate = coordinate
        self.dwell = dwell
        self.cruiseSpeed = cruiseSpeed
        self.name = name
    }

    /// Whether the vehicle comes to rest here.
    public var isStop: Bool { dwell != nil }
}
