import Foundation

/// What the monitor knows about a region beyond its definition, in the form that outlives the process: a daemon's
/// store keeps the records `RegionMonitor.process(_:)` reports as changed (`ObservationOutcome.changedStates`) and
/// gives them back after a restart to `RegionMonitor.restoreMonitoring(for:state:)`.
///
/// Invariants (as the monitor keeps them): `lastKnownState` is `state` whenever `state` is known; `insideSince` is
/// nil unless `lastKnownState` is inside; `dwellReported` is false unless `lastKnownState` is inside; `overspeed` is
/// nil unless the region has a speed limit.
public struct RegionStateRecord: Sendable, Hashable, Codable {
    /// The current state: unknown before the first determination and while an outage lasts.
    public var state: RegionState
    /// The last known state: inside or outside, unknown only before the first determination. An outage does not
    /// change it, so a state found afterwards that differs from it is an inferred transition, and a restart
    /// restores it.
    public var lastKnownState: RegionState
    /// GNSS time since which the vehicle has been inside (the dwell clock, kept across an outage and a restart).
    public var insideSince: Date?
    /// The dwell event of the current stay inside was reported.
    public var dwellReported: Bool
    /// The speed-limit episode under way in the region (`SpeedLimit`), nil when none: a restart continues it.
    public var overspeed: OverspeedEpisode?

    /// - Parameter lastKnownState: nil: the same as `state` (what it is whenever `state` is known).
    public init(
        state: RegionState, lastKnownState: RegionState? = nil, insideSince: Date? = nil, dwellReported: Bool = false,
        overspeed: OverspeedEpisode? = nil
    ) {
        self.state = state
        self.lastKnownState = lastKnownState ?? state
        self.insideSince = insideSince
        self.dwellReported = dwellReported
        self.overspeed = overspeed
    }
}

/// An overspeed episode that has begun and not ended, as a state record keeps it: from the first fix above limit +
/// tolerance (before `overspeed` is reported, a candidate) to its `overspeedEnd`. Restored, it goes on: no second
/// `overspeed`, and the end reports the maximum speed and the time over the limit of the whole episode.
///
/// A record is reported changed (`ObservationOutcome.changedStates`) when the episode starts, is reported, gains a
/// higher maximum, starts or stops a stretch under the limit, or ends, and otherwise at most every
/// `OverspeedEpisode.refreshInterval` seconds of GNSS time while it lasts (for `latestFix`), so a store holds a
/// `latestFix` less than that interval older than the episode's real last fix.
public struct OverspeedEpisode: Sendable, Hashable, Codable {
    /// GNSS time of the episode's first fix above limit + tolerance.
    public var overSince: Date
    /// The highest speed of the episode so far, m/s.
    public var maximumSpeed: Double
    /// `overspeed` has been reported (the episode fired); its `overspeedEnd` not yet.
    public var reported: Bool
    /// GNSS time of the first fix of the current stretch at or under the limit in a reported episode; nil when
    /// the speed is above the limit.
    public var underSince: Date?
    /// GNSS time of the episode's latest fix in the zone. A restored episode whose first fix comes more than the
    /// monitor's `outageTimeout` after it does not go on (README "Event semantics", speed limit).
    public var latestFix: Date

    /// How often, at most, a lasting episode whose other fields stay the same is reported changed, seconds of GNSS
    /// time: a store write every 5 s of a steady overspeed, and a restart's gap overestimated by less than that.
    public static let refreshInterval: TimeInterval = 5

    public init(overSince: Date, maximumSpeed: Double, reported: Bool, underSince: Date? = nil, latestFix: Date) {
        self.overSince = overSince
        self.maximumSpeed = maximumSpeed
        self.reported = reported
        self.underSince = underSince
        self.latestFix = latestFix
    }
}
