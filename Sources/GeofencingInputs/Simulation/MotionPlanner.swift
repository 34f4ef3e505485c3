// Turns a route and a speed profile into the fastest motion that keeps to the acceleration, braking and speed limits.

extension MotionPlan {
    /// Plans the drive: on each segment the vehicle accelerates, cruises and brakes as fast as the profile allows,
    /// coming to rest at every stop and never exceeding a segment's cruise speed.
    ///
    /// Speeds at the waypoints come from the classic two passes over the route: backward, the fastest speed from
    /// which the vehicle can still brake for everything ahead; forward, the fastest it can have reached from
    /// behind. Within a segment the speed is then min(cruise, accelerating from the entry speed, braking to the
    /// exit speed): at most an acceleration, a cruise and a braking phase.
    ///
    /// - Parameter random: draws each leg's cruise speed from the profile's range.
    init(route: SimulatedRoute, profile: SpeedProfile, random: inout SplitMix64) {
        let limits = Self.segmentSpeedLimits(route: route, profile: profile, random: &random)
        let waypointSpeeds = Self.waypointSpeeds(route: route, profile: profile, limits: limits)
        var builder = PhaseList()
        let last = route.waypoints.count - 1

        builder.stand(segment: 0, at: 0, for: route.waypoints[0].dwell ?? 0, waypoint: 0)
        for segment in 0..<last {
            builder.drive(
                segment: segment, from: route.waypointDistances[segment], length: route.segmentLengths[segment],
                entrySpeed: waypointSpeeds[segment], exitSpeed: waypointSpeeds[segment + 1],
                limit: limits[segment], profile: profile)
            let next = segment + 1
            if next == last || route.waypoints[next].isStop {
                builder.stand(segment: segment, at: route.waypointDistances[next],
                              for: route.waypoints[next].dwell ?? 0, waypoint: next)
            }
        }
        self.init(phases: builder.phases, stops: builder.stops)
    }

    /// Cruise speed of each segment: the waypoint's own, else the one drawn for its leg (stop to stop).
    private static func segmentSpeedLimits(
        route: SimulatedRoute, profile: SpeedProfile, random: inout SplitMix64
    ) -> [Double] {
        var limits: [Double] = []
        var legSpeed = random.uniform(in: profile.cruiseSpeed)
        for segment in 0..<(route.waypoints.count - 1) {
            if segment > 0, route.waypoints[segment].isStop {
                legSpeed = random.uniform(in: profile.cruiseSpeed)
            }
            limits.append(route.waypoints[segment].cruiseSpeed ?? legSpeed)
        }
        return limits
    }

    /// Speed at each waypoint: 0 at stops and the ends; elsewhere as fast as the neighbouring limits, braking for
    /// what lies ahead and accelerating from what lies behind allow.
    private static func waypointSpeeds(route: SimulatedRoute, profile: SpeedProfile, limits: [Double]) -> [Double] {
        let last = route.waypoints.count - 1
        var speeds = route.waypoints.indices.map { index -> Double in
            if index == 0 || index == last || route.waypoints[index].isStop { return 0 }
            return min(limits[index - 1], limits[index])
        }
        for index in stride(from: last - 1, through: 0, by: -1) {
            let braking = (speeds[index + 1] * speeds[index + 1]
                + 2 * profile.deceleration * route.segmentLengths[index]).squareRoot()
            speeds[index] = min(speeds[index], braking)
        }
        for index in 0..<last {
            let accelerating = (speeds[index] * speeds[index]
                + 2 * profile.acceleration * route.segmentLengths[index]).squareRoot()
            speeds[index + 1] = min(speeds[index + 1], accelerating)
        }
        return speeds
    }
}

/// Collects phases back to back, skipping those of zero length.
private struct PhaseList {
    var phases: [MotionPhase] = []
    var stops: [MotionPlan.Stop] = []
    private var time = 0.0

    /// Standing still at a stop.
    mutating func stand(segment: Int, at distance: Double, for dwell: Double, waypoint: Int) {
        stops.append(MotionPlan.Stop(waypoint: waypoint, arrival: time, departure: time + dwell))
        append(MotionPhase(startTime: time, duration: dwell, segment: segment, startDistance: distance,
                           startSpeed: 0, acceleration: 0), force: phases.isEmpty)
    }

    /// Accelerate from `entrySpeed` towards `limit`, cruise, brake to `exitSpeed`, covering `length` metres.
    mutating func drive(
        segment: Int, from start: Double, length: Double, entrySpeed: Double, exitSpeed: Double, limit: Double,
        profile: SpeedProfile
    ) {
        let a = profile.acceleration, d = profile.deceleration
        // The speed where the acceleration and braking curves meet (v² grows by 2as from each end).
        let meeting = ((2 * a * d * length + d * entrySpeed * entrySpeed + a * exitSpeed * exitSpeed) / (a + d))
            .squareRoot()
        // max(...): the passes guarantee peak >= both end speeds; this only absorbs rounding.
        let peak = max(min(limit, meeting), entrySpeed, exitSpeed)
        let accelerating = (peak * peak - entrySpeed * entrySpeed) / (2 * a)
        let braking = (peak * peak - exitSpeed * exitSpeed) / (2 * d)
        let cruising = max(0, length - accelerating - braking)

        append(MotionPhase(startTime: time, duration: (peak - entrySpeed) / a, segment: segment,
                           startDistance: start, startSpeed: entrySpeed, acceleration: a))
        append(MotionPhase(startTime: time, duration: cruising / peak, segment: segment,
                           startDistance: start + accelerating, startSpeed: peak, acceleration: 0))
        append(MotionPhase(startTime: time, duration: (peak - exitSpeed) / d, segment: segment,
                           startDistance: start + length - braking, startSpeed: peak, acceleration: -d))
    }

    private mutating func append(_ phase: MotionPhase, force: Bool = false) {
        guard phase.duration > 0 || force else { return }
        phases.append(phase)
        time = phase.endTime
    }
}
