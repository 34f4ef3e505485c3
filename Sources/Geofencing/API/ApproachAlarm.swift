/// An early warning before the vehicle reaches a region: "approaching" fires once per approach when the estimated
/// time to reach the boundary drops to `leadTime` seconds (the station alarm: a fixed radius is early enough for a
/// bus and far too late for a train; a time scales with the speed).
///
/// The estimate extrapolates the vehicle's current velocity (from the last few seconds of usable fixes) along a
/// straight line: a vehicle that keeps its speed and course gets the alarm `leadTime` seconds before it enters
/// (measured on simulated bus and train runs: within ±2 s, README "Approach alarms"); one that brakes before the
/// boundary gets it early, one that accelerates gets it late. See `RegionEvent.Kind.approach` for when it fires,
/// re-arms and stays silent.
public struct ApproachAlarm: Sendable, Hashable {
    /// Seconds of estimated travel time to the boundary at which the alarm fires; 0 < leadTime <=
    /// `maximumLeadTime`.
    public var leadTime: Double
    /// When set, the alarm also waits until the fix is at most this many metres from the boundary (a slow vehicle
    /// far away is not yet "approaching" however few seconds it would need); 0 < maximumDistance <=
    /// `maximumDistanceLimit`.
    public var maximumDistance: Double?

    /// The longest lead time accepted, seconds. A straight-line extrapolation of the current velocity says little
    /// about where a road vehicle will be in more than a few minutes, and the candidates for an alarm are the
    /// regions within speed × lead time of the fix: 300 s at the 100 m/s the monitor takes as the fastest vehicle
    /// is 30 km, inside the core's 50 km query margin.
    public static let maximumLeadTime: Double = 300
    /// The largest distance limit accepted, metres: the core's query margin (50 km), beyond which no region is
    /// ever a candidate anyway.
    public static let maximumDistanceLimit: Double = 50_000

    public init(leadTime: Double, maximumDistance: Double? = nil) {
        self.leadTime = leadTime
        self.maximumDistance = maximumDistance
    }

    /// Why this alarm cannot be monitored, or nil when it can: a lead time or distance limit that is not a finite
    /// number in its range.
    var problem: RegionMonitorError? {
        guard leadTime.isFinite, leadTime > 0, leadTime <= Self.maximumLeadTime else {
            return .invalidApproachLeadTime(leadTime)
        }
        if let distance = maximumDistance,
           !(distance.isFinite && distance > 0 && distance <= Self.maximumDistanceLimit) {
            return .invalidApproachDistance(distance)
        }
        return nil
    }
}
