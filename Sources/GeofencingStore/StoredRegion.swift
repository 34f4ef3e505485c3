import Geofencing

/// A region as the store keeps it: its definition, its current state, and what a restarted monitor needs to carry
/// on (`RegionMonitor.restoreMonitoring(for: region, state: restored)`).
public struct StoredRegion: Sendable, Hashable {
    /// The definition, every field as it was last upserted.
    public var region: Region
    /// The current state: unknown before the first fix and after an outage (a `state` event with state unknown).
    public var state: RegionState
    /// The last known state (inside or outside; unknown only until the first determination, never overwritten by
    /// unknown), the GNSS time since which the vehicle has been inside, and whether that stay's dwell event was
    /// reported.
    public var restored: RestoredRegionState

    public init(region: Region, state: RegionState, restored: RestoredRegionState) {
        self.region = region
        self.state = state
        self.restored = restored
    }
}
