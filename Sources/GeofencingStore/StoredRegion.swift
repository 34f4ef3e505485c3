import Geofencing

/// A region as the store keeps it: its definition and its state record, which a restarted monitor carries on from
/// (`RegionMonitor.restoreMonitoring(for: region, state: stateRecord)`).
public struct StoredRegion: Sendable, Hashable {
    /// The definition, every field as it was last upserted.
    public var region: Region
    /// The record the monitor last reported for the region (`ObservationOutcome.changedStates`), as
    /// `GeofenceStore.append(_:states:)` stored it; nothing known (state unknown) for a region never reported.
    public var stateRecord: RegionStateRecord

    public init(region: Region, stateRecord: RegionStateRecord) {
        self.region = region
        self.stateRecord = stateRecord
    }
}
