// Why a simulation could not be set up.

/// A route, speed profile, error model or sampling setting the simulator cannot use, with what is wrong.
public enum SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A route needs at least two waypoints.
    case tooFewWaypoints(count: Int)
    /// Waypoint `index` (0-based) has a coordinate that is not finite, outside -90...90 / -180...180, or at a pole
    /// (where a direction of travel is undefined).
    case invalidCoordinate(index: Int)
    /// Waypoints `index` and `index + 1` are the same point, so the segment between them has no direction.
    case zeroLengthSegment(index: Int)
    /// Waypoints `index` and `index + 1` are nearly antipodal: the geodesic between them is not unique.
    case nearlyAntipodalSegment(index: Int)
    /// A numeric setting is out of range: `name` says which, `requirement` what it must be.
    case invalidParameter(name: String, value: Double, requirement: String)

    public var description: String {
        switch self {
        case .tooFewWaypoints(let count):
            "a route needs at least 2 waypoints, got \(count)"
        case .invalidCoordinate(let index):
            "waypoint \(index): coordinate is not a valid WGS-84 position away from the poles"
        case .zeroLengthSegment(let index):
            "waypoints \(index) and \(index + 1) are the same point"
        case .nearlyAntipodalSegment(let index):
            "waypoints \(index) and \(index + 1) are nearly antipodal; insert a waypoint between them"
        case .invalidParameter(let name, let value, let requirement):
            "\(name) = \(value): must be \(requirement)"
        }
    }
}

extension SimulationError {
    /// Throws `invalidParameter` unless `value` is finite and satisfies `isValid`.
    static func check(_ name: String, _ value: Double, _ requirement: String, _ isValid: (Double) -> Bool) throws {
        guard value.isFinite, isValid(value) else {
            throw SimulationError.invalidParameter(name: name, value: value, requirement: requirement)
        }
    }
}
