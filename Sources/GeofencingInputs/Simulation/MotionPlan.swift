// The vehicle's motion along the route as a list of constant-acceleration phases, so the true position and speed
// are known exactly at any instant (not only at sample times): approach-alarm tests measure against that truth.
import Foundation

/// A stretch of time during which the vehicle's acceleration along the route is constant (accelerating, cruising,
/// braking, or standing at a stop).
struct MotionPhase: Sendable, Hashable {
    /// Seconds from the start of the drive.
    var startTime: Double
    var duration: Double
    /// The route segment the vehicle is on (while standing at a stop: the segment that arrived there).
    var segment: Int
    /// Metres along the route at `startTime`.
    var startDistance: Double
    /// m/s at `startTime`.
    var startSpeed: Double
    /// m/s², negative when braking.
    var acceleration: Double

    var endTime: Double { startTime + duration }

    /// Distance along the route and speed `elapsed` seconds into the phase (clamped to the phase).
    func state(after elapsed: Double) -> (distance: Double, speed: Double) {
        let t = min(max(elapsed, 0), duration)
        let speed = max(0, startSpeed + acceleration * t)
        return (startDistance + startSpeed * t + 0.5 * acceleration * t * t, speed)
    }
}

/// The whole drive: phases back to back from time 0, plus when the vehicle reached and left each stop.
struct MotionPlan: Sendable {
    /// One stop of the plan, times in seconds from the start of the drive.
    struct Stop: Sendable, Hashable {
        var waypoint: Int
        var arrival: Double
        var departure: Double
    }

    let phases: [MotionPhase]
    /// Seconds from the start of the drive to the end of the last dwell.
    let duration: Double
    /// Every stop in route order, the first and the last waypoint included.
    let stops: [Stop]

    init(phases: [MotionPhase], stops: [Stop]) {
        precondition(!phases.isEmpty, "a plan has at least one phase")
        self.phases = phases
        self.stops = stops
        duration = phases.last!.endTime
    }

    /// Segment, distance along the route and speed at `time` seconds from the start; before the start and after
    /// the end the vehicle stands at the first or last waypoint.
    func state(at time: Double) -> (segment: Int, distance: Double, speed: Double) {
        // The last phase that has started by `time` (binary search: plans of long drives have thousands).
        var low = 0, high = phases.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if phases[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        let phase = phases[low]
        let state = phase.state(after: time - phase.startTime)
        return (phase.segment, state.distance, state.speed)
    }

    /// The true state `offset` seconds into the drive along `route` (the route the plan was made for), labelled
    /// with the GNSS time `date`.
    func truth(on route: SimulatedRoute, atOffset offset: Double, date: Date) -> TrueState {
        let state = self.state(at: offset)
        let point = route.point(
            inSegment: state.segment, at: state.distance - route.waypointDistances[state.segment])
        return TrueState(
            time: date, coordinate: point.coordinate, speed: state.speed, course: point.course,
            distanceAlongRoute: state.distance, segment: state.segment)
    }
}
