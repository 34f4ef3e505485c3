/// A monitored area: the counterpart of CoreLocation's `CLRegion` / `CLCircularRegion`, without the 20-region limit
/// and with two shapes the phone APIs lack, polygons and corridors (`RegionShape`).
public struct Region: Sendable, Hashable, CustomStringConvertible {
    /// Names the region; unique among the regions of one monitor (starting a region with an identifier already
    /// monitored replaces that region).
    public let identifier: String
    /// The area (WGS-84): a circle, a polygon with holes, or a corridor along a path.
    public var shape: RegionShape
    /// Report entering the region (didEnterRegion). The state is tracked either way.
    public var notifyOnEntry: Bool = true
    /// Report leaving the region (didExitRegion). The state is tracked either way.
    public var notifyOnExit: Bool = true
    /// When set, one dwell event after the vehicle has stayed inside this long (seconds of GNSS time), like
    /// Android's loitering delay. Reset by an exit.
    public var dwellTime: Double?
    /// Metres a fix must be past the boundary to change the state; nil uses the monitor's default
    /// (`MonitorConfiguration.hysteresis(for:)`).
    public var hysteresis: Double?
    /// When set, an `approach` event before the vehicle enters (see `ApproachAlarm`); nil: none (the regions without
    /// an alarm cost the monitor nothing extra per fix).
    public var approach: ApproachAlarm? = nil
    /// The datum the shape was given in. `shape` is always WGS-84 (converted when the region was made, see
    /// `init(shape:in:identifier:...)`); this is kept so that exports (`geofence fences export`, the fence file
    /// writers) can give the coordinates back in the datum they came in, as `sourceShape`. The monitor ignores it.
    public var sourceDatum: Datum = .wgs84
    /// The speed limit and schedule, out of line: one pointer, nil for the regions without either (most of them),
    /// so a region with no zone rules costs 8 bytes for them.
    private var zoneRules: ZoneRules?

    /// When set, `overspeed` and `overspeedEnd` events while the vehicle is inside (see `SpeedLimit`); nil: none.
    public var speedLimit: SpeedLimit? {
        get { zoneRules?.speedLimit }
        set { zoneRules = ZoneRules.make(speedLimit: newValue, schedule: schedule) }
    }

    /// When set, the region is active only in these weekly windows and produces no event outside them (see
    /// `Schedule`, `RegionEvent.Kind.determined`); nil: always active.
    public var schedule: Schedule? {
        get { zoneRules?.schedule }
        set { zoneRules = ZoneRules.make(speedLimit: speedLimit, schedule: newValue) }
    }

    /// A region of any shape (WGS-84).
    public init(
        shape: RegionShape, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil,
        approach: ApproachAlarm? = nil
    ) {
        self.shape = shape
        self.identifier = identifier
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwellTime = dwellTime
        self.hysteresis = hysteresis
        self.approach = approach
    }

    /// A circular region, as `CLCircularRegion(center:radius:identifier:)`.
    public init(
        center: Coordinate, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil,
        approach: ApproachAlarm? = nil
    ) {
        self.init(shape: .circle(center: center, radius: radius), identifier: identifier, notifyOnEntry: notifyOnEntry,
                  notifyOnExit: notifyOnExit, dwellTime: dwellTime, hysteresis: hysteresis, approach: approach)
    }

    /// A region whose coordinates are given in `datum`: they are converted to WGS-84 now (see `Datum` for each
    /// conversion's accuracy) and `sourceDatum` remembers `datum`.
    public init(
        shape: RegionShape, in datum: Datum, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil
    ) {
        self.init(shape: shape.mapCoordinates(datum.toWGS84), identifier: identifier, notifyOnEntry: notifyOnEntry,
                  notifyOnExit: notifyOnExit, dwellTime: dwellTime, hysteresis: hysteresis)
        sourceDatum = datum
    }

    /// A circular region whose centre is given in `datum` (see `init(shape:in:identifier:...)`).
    public init(
        center: Coordinate, in datum: Datum, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil
    ) {
        self.init(shape: .circle(center: center, radius: radius), in: datum, identifier: identifier,
                  notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit, dwellTime: dwellTime,
                  hysteresis: hysteresis)
    }

    /// The circle's centre; for a polygon or a corridor the centre of its bounding box (for labels and maps).
    public var center: Coordinate { shape.center }

    /// The circle's radius in metres; nil for polygons and corridors.
    public var radius: Double? {
        if case .circle(_, let radius) = shape { radius } else { nil }
    }

    /// The shape in `sourceDatum`, for exports: every coordinate converted back (within the round-trip bound of the
    /// datum: 0.2 mm for GCJ-02, 1e-8 m for Tokyo; exact for WGS-84).
    public var sourceShape: RegionShape {
        sourceDatum == .wgs84 ? shape : shape.mapCoordinates(sourceDatum.fromWGS84)
    }

    /// The centre in `sourceDatum` (see `center`, `sourceShape`).
    public var sourceCenter: Coordinate { sourceDatum.fromWGS84(center) }

    public var description: String { "\(identifier) \(shape)" }
}

/// A region's speed limit and schedule, immutable and shared between copies of the region.
private final class ZoneRules: Sendable, Hashable {
    let speedLimit: SpeedLimit?
    let schedule: Schedule?

    private init(speedLimit: SpeedLimit?, schedule: Schedule?) {
        self.speedLimit = speedLimit
        self.schedule = schedule
    }

    /// nil when there is neither, so a region without zone rules holds no object.
    static func make(speedLimit: SpeedLimit?, schedule: Schedule?) -> ZoneRules? {
        speedLimit == nil && schedule == nil ? nil : ZoneRules(speedLimit: speedLimit, schedule: schedule)
    }

    static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool {
        lhs.speedLimit == rhs.speedLimit && lhs.schedule == rhs.schedule
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(speedLimit)
        hasher.combine(schedule)
    }
}

/// Where the vehicle is relative to a region, as CoreLocation's `CLRegionState`.
public enum RegionState: String, Sendable, Hashable, Codable {
    case unknown
    case inside
    case outside
}
