// One sample of a simulated drive: the truth, the error, and what the receiver reported.
import Foundation
import Geofencing

/// Where the simulated vehicle really is at one instant.
public struct TrueState: Sendable, Hashable {
    /// GNSS time (UTC).
    public var time: Date
    /// The true position.
    public var coordinate: Coordinate
    /// True speed over ground, m/s (exactly 0 while standing at a stop).
    public var speed: Double
    /// Direction of the route here, degrees clockwise from true north, 0 ..< 360 (kept while standing).
    public var course: Double
    /// Metres driven since the first waypoint.
    public var distanceAlongRoute: Double
    /// The route segment the vehicle is on (waypoint `segment` to `segment + 1`).
    public var segment: Int

    public init(
        time: Date, coordinate: Coordinate, speed: Double, course: Double, distanceAlongRoute: Double, segment: Int
    ) {
        self.time = time
        self.coordinate = coordinate
        self.speed = speed
        self.course = course
        self.distanceAlongRoute = distanceAlongRoute
        self.segment = segment
    }
}

/// One sample time of a simulated drive.
public struct SimulatedSample: Sendable, Hashable {
    /// Where the vehicle really was.
    public var truth: TrueState
    /// The receiver's position error at this time (also during outages, when nothing was reported).
    public var error: PositionError
    /// What the receiver reported: a fix, `.noFix` during an outage, or nil when it said nothing (a silent outage).
    public var observation: Observation?

    public init(truth: TrueState, error: PositionError, observation: Observation?) {
        self.truth = truth
        self.error = error
        self.observation = observation
    }

    /// The sample's GNSS time.
    public var time: Date { truth.time }
}
