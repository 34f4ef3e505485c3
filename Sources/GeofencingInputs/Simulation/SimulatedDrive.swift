// The result of a simulation: samples with truth and observations, and the truth at any instant.
import Foundation
import Geofencing

/// A simulated drive: what the receiver reported at each sample time, next to where the vehicle really was.
///
/// The truth is exact at every instant, not only at the samples (`truth(at:)`), so a test can measure when an
/// event really happened, e.g. when the vehicle entered a region (`firstTime(within:of:)`), to a microsecond.
public struct SimulatedDrive: Sendable {
    /// The route driven.
    public let route: SimulatedRoute
    /// GNSS time of the first sample (the moment the vehicle starts its first dwell).
    public let startTime: Date
    /// Seconds from `startTime` to the end of the last dwell.
    public let duration: TimeInterval
    /// One sample per sample time, in time order, outages included.
    public let samples: [SimulatedSample]
    /// Each stop's arrival and departure, in route order.
    public let stopVisits: [StopVisit]
    /// The outages (scheduled and random) as GNSS time intervals, in the order they were generated.
    public let outages: [Range<Date>]
    let plan: MotionPlan
    /// Highest speed of the whole drive, m/s: bounds how fast a distance can change.
    let topSpeed: Double

    init(route: SimulatedRoute, plan: MotionPlan, startTime: Date, samples: [SimulatedSample],
         outages: [Range<Double>]) {
        self.route = route
        self.plan = plan
        self.startTime = startTime
        self.samples = samples
        duration = plan.duration
        stopVisits = plan.stops.map { stop in
            let waypoint = route.waypoints[stop.waypoint]
            return StopVisit(
                waypointIndex: stop.waypoint, coordinate: waypoint.coordinate, name: waypoint.name,
                arrival: startTime.addingTimeInterval(stop.arrival),
                departure: startTime.addingTimeInterval(stop.departure))
        }
        self.outages = outages.map {
            startTime.addingTimeInterval($0.lowerBound)..<startTime.addingTimeInterval($0.upperBound)
        }
        topSpeed = plan.phases.map { max($0.startSpeed, $0.state(after: $0.duration).speed) }.max() ?? 0
    }

    /// Everything the receiver reported, in time order: the input a monitor would get.
    public var observations: [Observation] { samples.compactMap(\.observation) }

    /// The fixes alone (no-fix reports left out).
    public var fixes: [Fix] { samples.compactMap { $0.observation?.fix } }

    /// Where the vehicle really was at `time`; before the start and after the end, at the first or last waypoint.
    public func truth(at time: Date) -> TrueState {
        plan.truth(on: route, atOffset: time.timeIntervalSince(startTime), date: time)
    }
}
