/// A circular fence: the counterpart of CoreLocation's `CLCircularRegion`, without its 20-region limit.
public struct CircularRegion: Sendable, Hashable, CustomStringConvertible {
    /// Names the region; unique among the regions of one monitor (starting a region with an identifier already
    /// monitored replaces that region).
    public let identifier: String
    /// The centre (WGS-84); |latitude| <= 85 degrees.
    public var center: Coordinate
    /// Radius in metres, 1 ... `RegionMonitor.maximumRegionMonitoringDistance` (50 km).
    public var radius: Double
    /// Report entering the region (didEnterRegion). The state is tracked either way.
    public var notifyOnEntry: Bool = true
    /// Report leaving the region (didExitRegion). The state is tracked either way.
    public var notifyOnExit: Bool = true
    /// When set, one dwell event after the vehicle has stayed inside this long (seconds of GNSS time), like
    /// Android's loitering delay. Reset by an exit.
    public var dwellTime: Double?
    /// Metres a fix must be past the boundary to change the state; nil uses the monitor's default
    /// (`MonitorConfiguration.hysteresis(forRadius:)`).
    public var hysteresis: Double?

    public init(
        center: Coordinate, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil
    ) {
        self.center = center
        self.radius = radius
        self.identifier = identifier
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwellTime = dwellTime
        self.hysteresis = hysteresis
    }

    public var description: String { "\(identifier) \(center) r=\(radius) m" }
}

/// Where the vehicle is relative to a region, as CoreLocation's `CLRegionState`.
public enum RegionState: String, Sendable, Hashable, Codable {
    case unknown
    case inside
    case outside
}
