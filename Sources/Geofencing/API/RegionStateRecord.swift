import Foundation

/// What the monitor knows about a region beyond its definition, in the form that outlives the process: a daemon's
/// store keeps the records `RegionMonitor.process(_:)` reports as changed (`ObservationOutcome.changedStates`) and
/// gives them back after a restart to `RegionMonitor.restoreMonitoring(for:state:)`.
///
/// Invariants (as the monitor keeps them): `lastKnownState` is `state` whenever `state` is known; `insideSince` is
/// nil unless `lastKnownState` is inside; `dwellReported` is false unless `lastKnownState` is inside.
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

    /// - Parameter lastKnownState: nil: the same as `state` (what it is whenever `state` is known).
    public init(
        state: RegionState, lastKnownState: RegionState? = nil, insideSince: Date? = nil, dwellReported: Bool = false
    ) {
        self.state = state
        self.lastKnownState = lastKnownState ?? state
        self.insideSince = insideSince
        self.dwellReported = dwellReported
    }
}
