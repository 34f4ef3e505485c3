// How a simulated vehicle speeds up, cruises and brakes.

/// How the simulated vehicle moves along its route: it accelerates at `acceleration` up to the cruise speed,
/// cruises, and brakes at `deceleration` so that it comes to rest exactly at each stop (and slows in time for a
/// segment with a lower cruise speed). Each leg between two stops gets one cruise speed drawn uniformly from
/// `cruiseSpeed` (seeded, so the same seed gives the same speeds); a waypoint's own `cruiseSpeed` overrides it for
/// the segment that follows. Jerk is not limited: acceleration switches between 0 and its limits at once.
public struct SpeedProfile: Sendable, Hashable {
    /// Acceleration from rest or to a higher cruise speed, m/s² (> 0).
    public var acceleration: Double
    /// Braking deceleration, m/s², as a positive number (> 0).
    public var deceleration: Double
    /// Cruise speeds in m/s (lower bound > 0) from which each leg's speed is drawn.
    public var cruiseSpeed: ClosedRange<Double>

    public init(acceleration: Double, deceleration: Double, cruiseSpeed: ClosedRange<Double>) {
        self.acceleration = acceleration
        self.deceleration = deceleration
        self.cruiseSpeed = cruiseSpeed
    }

    /// km/h to m/s, for writing speeds the way people say them.
    public static func metresPerSecond(kilometresPerHour: Double) -> Double { kilometresPerHour / 3.6 }

    /// A car in town: 2.0 m/s² (0 to 50 km/h in 7 s, ordinary driving), brakes at 2.5 m/s² (normal, not
    /// emergency, braking), cruises at 40–60 km/h.
    public static let car = SpeedProfile(
        acceleration: 2.0, deceleration: 2.5,
        cruiseSpeed: metresPerSecond(kilometresPerHour: 40)...metresPerSecond(kilometresPerHour: 60))

    /// A city bus: 1.0 m/s² and 1.3 m/s² braking (what standing passengers tolerate), cruises at 30–50 km/h.
    public static let bus = SpeedProfile(
        acceleration: 1.0, deceleration: 1.3,
        cruiseSpeed: metresPerSecond(kilometresPerHour: 30)...metresPerSecond(kilometresPerHour: 50))

    /// A regional train: 0.6 m/s² (an electric multiple unit), 0.8 m/s² service braking, cruises at 80–160 km/h.
    public static let train = SpeedProfile(
        acceleration: 0.6, deceleration: 0.8,
        cruiseSpeed: metresPerSecond(kilometresPerHour: 80)...metresPerSecond(kilometresPerHour: 160))

    /// This profile with one fixed cruise speed in m/s (e.g. to test an alarm at exactly 160 km/h).
    public func cruising(at speed: Double) -> SpeedProfile {
        SpeedProfile(acceleration: acceleration, deceleration: deceleration, cruiseSpeed: speed...speed)
    }

    func validate() throws {
        try SimulationError.check("acceleration", acceleration, "> 0 m/s²") { $0 > 0 }
        try SimulationError.check("deceleration", deceleration, "> 0 m/s²") { $0 > 0 }
        try SimulationError.check("cruiseSpeed lower bound", cruiseSpeed.lowerBound, "> 0 m/s") { $0 > 0 }
        try SimulationError.check("cruiseSpeed upper bound", cruiseSpeed.upperBound, "finite") { _ in true }
    }
}
