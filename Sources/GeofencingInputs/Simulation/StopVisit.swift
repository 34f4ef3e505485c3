// When the simulated vehicle stood at each stop.
import Foundation
import Geofencing

/// The vehicle's stay at one stop of the route (the first and the last waypoint count as stops).
public struct StopVisit: Sendable, Hashable {
    /// Index of the stop among the route's waypoints.
    public var waypointIndex: Int
    /// The stop's coordinate: the true position throughout the stay.
    public var coordinate: Coordinate
    /// The waypoint's name, if it has one.
    public var name: String?
    /// When the vehicle came to rest here (the start of the drive for the first waypoint).
    public var arrival: Date
    /// When it started moving again (the end of the drive for the last waypoint).
    public var departure: Date

    public init(waypointIndex: Int, coordinate: Coordinate, name: String?, arrival: Date, departure: Date) {
        self.waypointIndex = waypointIndex
        self.coordinate = coordinate
        self.name = name
        self.arrival = arrival
        self.departure = departure
    }
}
