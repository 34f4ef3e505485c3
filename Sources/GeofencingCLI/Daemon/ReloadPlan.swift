import Geofencing
import GeofencingStore

/// What a reload changes in the daemon's monitor to make it hold the store's regions: the new and changed regions
/// (with their stored states) and the identifiers the store no longer holds. Read apart from applying, so that a
/// fence set from the back-end is read on the fence-set queue and the fix loop only changes the monitor.
///
/// Read row by row and compared with the monitor's own definitions: a region whose definition the monitor already
/// has is left out (its state in the monitor is the newest), so a set that keeps most regions holds only the few it
/// changes, not a second copy of the rest.
struct ReloadPlan: Sendable {
    /// New regions, and regions whose definition differs from the monitor's, in the store's order.
    var changed: [StoredRegion]
    /// Identifiers the monitor holds and the store does not.
    var removed: [String]
    /// How many regions the store held.
    var storedCount: Int
    /// The daemon's count of reloads when the monitor was read (`Daemon`): the plan holds for that monitor only.
    var generation: Int

    /// Reads the store's regions and compares them with `monitor`'s, which must not change definitions meanwhile
    /// (the daemon changes them only on the fix loop, and tells by `generation`).
    static func read(_ store: GeofenceStore, against monitor: RegionMonitor, generation: Int) throws -> ReloadPlan {
        var inStore = Set<String>()
        var changed: [StoredRegion] = []
        try store.forEachRegion { entry in
            inStore.insert(entry.region.identifier)
            if monitor.monitoredRegion(identifier: entry.region.identifier) != entry.region { changed.append(entry) }
        }
        let removed = monitor.monitoredIdentifiers.filter { !inStore.contains($0) }
        return ReloadPlan(changed: changed, removed: removed, storedCount: inStore.count, generation: generation)
    }
}
