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
    /// When set, an `approach` event before the vehicle enters (see `ApproachAlarm`); nil: none (the regions without
    /// an alarm cost the monitor nothing extra per fix).
    public var approach: ApproachAlarm? = nil
    /// The datum the centre was given in. `center` is always WGS-84 (converted when the region was made, see
    /// `init(center:in:radius:identifier:...)`); this is kept so that exports (`geofence fences export`, the fence
    /// file writers) can give the centre back in the datum it came in, as `sourceCenter`. The monitor ignores it.
    public var sourceDatum: Datum = .wgs84

    public init(
        center: Coordinate, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil,
        approach: ApproachAlarm? = nil
    ) {
        self.center = center
        self.radius = radius
        self.identifier = identifier
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwellTime = dwellTime
        self.hysteresis = hysteresis
        self.approach = approach
    }

    /// A region whose centre is given in `datum`: the centre is converted to WGS-84 now (see `Datum` for each
    /// conversion's accuracy) and `sourceDatum` remembers `datum`.
    public init(
        center: Coordinate, in datum: Datum, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil
    ) {
        self.init(center: datum.toWGS84(center), radius: radius, identifier: identifier, notifyOnEntry: notifyOnEntry,
                  notifyOnExit: notifyOnExit, dwellTime: dwellTime, hysteresis: hysteresis)
        sourceDatum = datum
    }

    /// The centre in `sourceDatum`, for exports: `center` converted back (within the round-trip bound of the datum:
    /// 0.2 mm for GCJ-02, 1e-8 m for Tokyo; exact for WGS-84).
    public var sourceCenter: Coordinate { sourceDatum.fromWGS84(center) }

    public var description: String { "\(identifier) \(center) r=\(radius) m" }
}

/// Where the vehicle is relative to a region, as CoreLocation's `CLRegionState`.
public enum RegionState: String, Sendable, Hashable, Codable {
    case unknown
    case inside
    case outside
}
