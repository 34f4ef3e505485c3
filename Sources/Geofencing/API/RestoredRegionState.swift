import Foundation

/// What a monitor knew about a region before it stopped (a daemon's store, read after a restart), for
/// `RegionMonitor.restoreMonitoring(for:state:)`.
public struct RestoredRegionState: Sendable, Hashable, Codable {
    /// The last known state (inside or outside); unknown restores nothing.
    public var state: RegionState
    /// GNSS time since which the vehicle has been inside (keeps the dwell clock running across the restart).
    public var insideSince: Date?
    /// The dwell event was already reported for this stay inside.
    public var dwellReported: Bool

    public init(state: RegionState, insideSince: Date? = nil, dwellReported: Bool = false) {
        self.state = state
        self.insideSince = insideSince
        self.dwellReported = dwellReported
    }
}
