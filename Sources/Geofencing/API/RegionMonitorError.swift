import CGeofence

/// Why a region could not be monitored. Delivered to `monitoringDidFailFor` and thrown by
/// `RegionMonitor.startMonitoringOrThrow(for:)`; the regions already monitored are never affected.
public enum RegionMonitorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The identifier is empty.
    case emptyIdentifier
    /// The identifier contains U+0000 (NUL) at this UTF-8 byte offset (from 0). No identifier may: the exec sink's
    /// GEOFENCE_REGION, command arguments and every C string end at a NUL, so such a region would reach sinks and
    /// logs under a shorter, different name.
    case identifierContainsNUL(byteOffset: Int)
    /// The centre is not a valid coordinate, or lies beyond 85 degrees of latitude.
    case invalidCenter(Coordinate)
    /// The radius (or a corridor's half-width) is not a number, below 1 m, or above
    /// `maximumRegionMonitoringDistance`.
    case invalidRadius(Double)
    /// The polygon or corridor cannot be monitored: what is wrong with it (a ring of fewer than 3 vertices, an
    /// invalid vertex, a shape across +-180 degrees, ...).
    case invalidShape(String)
    /// The hysteresis override is negative or not a number.
    case invalidHysteresis(Double)
    /// The dwell time is negative or not a number.
    case invalidDwellTime(Double)
    /// The approach alarm's lead time is not a number in 0 < T <= `ApproachAlarm.maximumLeadTime` (300 s).
    case invalidApproachLeadTime(Double)
    /// The approach alarm's distance limit is not a number in 0 < d <= `ApproachAlarm.maximumDistanceLimit` (50 km).
    case invalidApproachDistance(Double)
    /// A speed limit's value is out of range: the field (`speed_limit_kmh`, `speed_tolerance_kmh`,
    /// `speed_duration_s`), the value, and the range (see `SpeedLimit`).
    case invalidSpeedLimit(field: String, value: Double, range: String)
    /// The schedule cannot be monitored (an unknown time zone, a window that ends before it starts, ...): why.
    case invalidSchedule(String)
    /// The monitor already holds its configured capacity of regions.
    case capacityReached(Int)
    /// The core could not allocate memory.
    case outOfMemory
    /// Two regions of one `RegionIndex` share this identifier.
    case duplicateIdentifier(String)
    /// The core reported an unexpected status (a bug): its name.
    case core(String)

    public var description: String {
        switch self {
        case .emptyIdentifier: "the region identifier is empty"
        case .identifierContainsNUL(let offset):
            "the region identifier contains U+0000 (NUL) at byte \(offset), which no identifier may (a C string, an "
                + "environment variable or a command argument would end there)"
        case .invalidCenter(let c): "the region centre \(c) is not a valid coordinate within 85 degrees of latitude"
        case .invalidRadius(let r): "the region radius \(r) m is outside 1 m ... 50000 m"
        case .invalidShape(let problem): "the region shape is invalid: \(problem)"
        case .invalidHysteresis(let h): "the hysteresis \(h) m is negative or not a number"
        case .invalidDwellTime(let t): "the dwell time \(t) s is negative or not a number"
        case .invalidApproachLeadTime(let t):
            "the approach alarm's lead time \(t) s is outside 0 s < T <= \(Int(ApproachAlarm.maximumLeadTime)) s"
        case .invalidApproachDistance(let d):
            "the approach alarm's maximum distance \(d) m is outside 0 m < d <= "
                + "\(Int(ApproachAlarm.maximumDistanceLimit)) m"
        case .invalidSpeedLimit(let field, let value, let range):
            "the speed limit's \(field) \(value) is outside \(range)"
        case .invalidSchedule(let problem): "the schedule is invalid: \(problem)"
        case .capacityReached(let n): "the monitor already holds its capacity of \(n) regions"
        case .outOfMemory: "out of memory"
        case .duplicateIdentifier(let identifier): "two regions share the identifier \"\(identifier)\""
        case .core(let name): "the geofence core failed with \(name)"
        }
    }
}
