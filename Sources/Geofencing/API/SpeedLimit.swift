/// A speed limit inside a region: an `overspeed` event when the vehicle has been inside above `limit + tolerance`
/// for `duration` seconds of GNSS time, and an `overspeedEnd` when it has been back at or under `limit` for
/// `duration` seconds, or has left the region (`RegionEvent.Kind.overspeed` says exactly when).
///
/// The values are kept in km/h, the unit fence files and the store use (`speed_limit_kmh`), so that a limit read
/// from a file is written back with the digits it had; `limit` and `tolerance` give them in m/s.
public struct SpeedLimit: Sendable, Hashable {
    /// The limit in km/h: 0 < limit <= `maximumKilometresPerHour`.
    public var limitKilometresPerHour: Double
    /// How far above the limit the vehicle must be before the duration starts counting, km/h: 0 ... 100. The
    /// default, 5 km/h, is above what a GNSS receiver's speed noise reaches at a standstill or a steady speed.
    public var toleranceKilometresPerHour: Double
    /// Seconds the vehicle must stay above limit + tolerance before `overspeed` (and at or under the limit before
    /// `overspeedEnd`): 0 ... 3600. The default, 5 s, is more than one fix at 1 Hz, so a one-fix glitch never
    /// fires.
    public var duration: Double

    /// The highest limit accepted, km/h: faster than any road vehicle, so a limit above it is a mistake (m/s
    /// written as km/h the other way round would be too low to catch).
    public static let maximumKilometresPerHour: Double = 400
    /// The largest tolerance accepted, km/h.
    public static let maximumToleranceKilometresPerHour: Double = 100
    /// The longest duration accepted, seconds.
    public static let maximumDuration: Double = 3600
    public static let defaultToleranceKilometresPerHour: Double = 5
    public static let defaultDuration: Double = 5

    /// A limit in km/h.
    public init(
        kilometresPerHour limit: Double, toleranceKilometresPerHour: Double = SpeedLimit.defaultToleranceKilometresPerHour,
        duration: Double = SpeedLimit.defaultDuration
    ) {
        self.limitKilometresPerHour = limit
        self.toleranceKilometresPerHour = toleranceKilometresPerHour
        self.duration = duration
    }

    /// A limit in m/s (tolerance in m/s too).
    public init(metresPerSecond limit: Double, tolerance: Double = SpeedLimit.defaultToleranceKilometresPerHour / 3.6,
                duration: Double = SpeedLimit.defaultDuration) {
        self.init(kilometresPerHour: limit * 3.6, toleranceKilometresPerHour: tolerance * 3.6, duration: duration)
    }

    /// The limit in m/s.
    public var limit: Double { limitKilometresPerHour / 3.6 }
    /// The tolerance in m/s.
    public var tolerance: Double { toleranceKilometresPerHour / 3.6 }

    /// Why this limit cannot be monitored, or nil: each value must be a finite number in its range.
    public var problem: RegionMonitorError? {
        guard limitKilometresPerHour.isFinite, limitKilometresPerHour > 0,
              limitKilometresPerHour <= Self.maximumKilometresPerHour else {
            return .invalidSpeedLimit(field: "speed_limit_kmh", value: limitKilometresPerHour,
                                      range: "0 km/h < limit <= \(Int(Self.maximumKilometresPerHour)) km/h")
        }
        guard toleranceKilometresPerHour.isFinite, toleranceKilometresPerHour >= 0,
              toleranceKilometresPerHour <= Self.maximumToleranceKilometresPerHour else {
            return .invalidSpeedLimit(field: "speed_tolerance_kmh", value: toleranceKilometresPerHour,
                                      range: "0 ... \(Int(Self.maximumToleranceKilometresPerHour)) km/h")
        }
        guard duration.isFinite, duration >= 0, duration <= Self.maximumDuration else {
            return .invalidSpeedLimit(field: "speed_duration_s", value: duration,
                                      range: "0 ... \(Int(Self.maximumDuration)) s")
        }
        return nil
    }
}
