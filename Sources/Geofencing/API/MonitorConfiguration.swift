/// The tunable rules of a `RegionMonitor`. The defaults come from measurements on real logs (README, "Event
/// semantics"); every one can be changed per monitor, the hysteresis also per region.
public struct MonitorConfiguration: Sendable, Hashable {
    /// Most regions monitored at once (at most 16,777,215, the core's limit).
    public var capacity: Int = 1_000_000
    /// Default hysteresis: metres a fix must be past a boundary to change the state, for regions of at least
    /// 4x this radius. In the moored-yacht log (nmea-20130630.log: 92 minutes stationary, in three stretches) no fix
    /// strayed more than 9.6 m from its stretch's median position (p95 5.2 ... 8.6 m, p99 6.9 ... 9.5 m per
    /// stretch), so 10 m keeps a vehicle parked on a boundary from flapping. Smaller regions get a quarter of their
    /// radius, so that entering stays possible.
    public var defaultHysteresis: Double = 10
    /// Fixes with a horizontal accuracy (95 %) worse than this many metres are not used for transitions; they
    /// count as "no usable fix" for the outage rule.
    public var maximumAccuracy: Double = 100
    /// Seconds of GNSS time without a usable fix after which every state becomes unknown. Also the largest step
    /// forward in time that an observation may take without confirmation (see `timeBaseConfirmation`).
    public var outageTimeout: Double = 60
    /// Consecutive observations that must agree on a new time base before the monitor adopts it: a time that jumps
    /// forward by more than `outageTimeout` or goes backwards is held until the observations after it either
    /// continue the old time (the held ones are dropped and counted: one bogus time costs only itself) or agree
    /// with it, this many in all (they are then processed in order, none lost). 3 (the jump and two more) by
    /// default: one or two bogus epochs in a row, as receivers emit them after a cold start, are dropped, and a
    /// real outage is acted on two observations late. Values below 1 count as 1 (every new time base adopted at
    /// once), values above 1,000 as 1,000.
    public var timeBaseConfirmation: Int = 3
    /// Longest gap in seconds between two usable fixes across which a pass through a region (both fixes outside)
    /// is interpolated; longer gaps are not interpolated (the path between them is anyone's guess).
    public var maximumInterpolationGap: Double = 10
    /// Fastest speed, in metres per second, that a segment between two fixes may imply for a pass to be
    /// interpolated across it. A faster "segment" is a position glitch, not a drive: interpolating it would invent
    /// passes through every region in between. 100 m/s (360 km/h) is above any road or rail vehicle's speed.
    public var maximumInterpolationSpeed: Double = 100
    /// Report a region found inside at its first determination as an enter (Android's INITIAL_TRIGGER_ENTER)
    /// instead of only a determined state (CoreLocation's behaviour, the default).
    public var reportsInitialInsideAsEnter: Bool = false
    /// Which regions' `determined` events (didDetermineState) the rules report. `.everyRegion` (the default,
    /// CoreLocation's behaviour): each region's first determination, inside or outside, and every state an outage
    /// makes unknown. `.insideOnly`: only those of regions found inside (and of regions inside when an outage makes
    /// their state unknown), so that a first fix among 10^6 regions is a handful of events, not 10^6 "outside" ones.
    /// The states themselves are kept and reported in `ObservationOutcome.changedStates` either way, and an answer
    /// to `RegionMonitor.requestState(for:)` always comes.
    public var determinations: DeterminationReporting = .everyRegion
    /// Sequence number of the first event (a store restoring a monitor continues its numbering). Wraps to 0 after
    /// 2^64 - 1.
    public var firstSequence: UInt64 = 1
    /// Whether `process(_:)` returns the changed state records in `ObservationOutcome.changedStates` (the default).
    /// false: the outcome's `changedStates` stays empty and the monitor keeps the list of regions changed since
    /// `RegionMonitor.clearChangedStates()`, to be read in parts with `RegionMonitor.changedStates(from:limit:)`:
    /// a daemon stores a first fix's 10^6 records a part at a time instead of holding them all in one dictionary,
    /// and a replay that stores nothing never builds one.
    public var returnsChangedStates: Bool = true

    public init() {}

    /// Which regions' `determined` events a monitor reports (`MonitorConfiguration.determinations`).
    public enum DeterminationReporting: Sendable, Hashable {
        /// Every region's: inside, outside, or unknown after an outage.
        case everyRegion
        /// Only regions found inside, or inside until an outage made their state unknown; regions found outside,
        /// or outside before the outage, change their state silently.
        case insideOnly
    }

    /// Whether a `determined` event with `state` is reported for a region whose state was `before` (the state an
    /// outage made unknown, or unknown before the first determination).
    func reportsDetermination(of state: RegionState, before: RegionState) -> Bool {
        switch determinations {
        case .everyRegion: true
        case .insideOnly: state == .inside || (state == .unknown && before == .inside)
        }
    }

    /// The hysteresis a region gets when it sets none: `defaultHysteresis`, at most a quarter of a circle's radius
    /// or a corridor's half-width. A polygon gets `defaultHysteresis` whatever its size (its narrowest part is not
    /// known without an expensive search): give a polygon narrower than about 4x that its own `Region.hysteresis`.
    public func hysteresis(for shape: RegionShape) -> Double {
        switch shape {
        case .circle(_, let radius): hysteresis(forRadius: radius)
        case .corridor(_, let halfWidth): hysteresis(forRadius: halfWidth)
        case .polygon: defaultHysteresis
        }
    }

    /// The hysteresis a circle of this radius gets when it sets none: `defaultHysteresis`, at most a quarter of the
    /// radius.
    public func hysteresis(forRadius radius: Double) -> Double {
        min(defaultHysteresis, radius / 4)
    }
}
