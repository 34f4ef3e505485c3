import CGeofence
import Foundation

/// The engine's region registry: adding, replacing, restoring and removing regions, each region's record slot,
/// and the map from the core's slots and the identifiers to those slots.
extension MonitorEngine {
    var allRegions: [Region] {
        (0..<regions.slotCount).compactMap { regions.isOccupied($0) ? regions.region($0) : nil }
    }

    var regionCount: Int { slotByIdentifier.count }

    var identifiers: [String] {
        var identifiers: [String] = []
        identifiers.reserveCapacity(slotByIdentifier.count)
        slotByIdentifier.forEachSlot { identifiers.append(regions.identifiers[$0]) }
        return identifiers
    }

    /// The record slot of a monitored identifier.
    func recordSlot(for identifier: String) -> Int? {
        slotByIdentifier.slot(of: identifier) { regions.identifiers[$0] }
    }

    func region(identifier: String) -> Region? {
        recordSlot(for: identifier).map { regions.region($0) }
    }

    func state(for identifier: String) -> RegionState? {
        recordSlot(for: identifier).map { regions.flags[$0].state }
    }

    /// Adds or replaces a region. Returns the events to deliver (didStartMonitoring).
    mutating func start(_ region: Region) throws(RegionMonitorError) -> [MonitorEvent] {
        try add(region)
        return [.didStartMonitoring(region)]
    }

    /// Makes room for `count` more regions in every table a region needs, so that adding them grows none of them
    /// step by step (a bulk add or restore knows its count; the core's table is sized by its capacity already).
    mutating func reserve(_ count: Int) {
        let total = min(regionCount + count, configuration.capacity)
        regions.reserve(total)
        reserveIndex(total)
        undetermined.reserve(total)
    }

    /// Adds or replaces a region (`start`), reporting nothing; returns its slot and whether it is new.
    @discardableResult
    private mutating func add(_ region: Region) throws(RegionMonitorError) -> (slot: Int, isNew: Bool) {
        let shape = try region.coreShape()
        if let slot = recordSlot(for: region.identifier) {
            // Replacement keeps the state: the next fix judges the new shape with the usual hysteresis, so a
            // vehicle the new shape still contains sees no exit and enter.
            let oldHandle = regions.handles[slot]
            let handle = try table.replace(oldHandle, with: shape)
            do throws(RegionMonitorError) {
                try approach.update(regionSlot: slot, region: region, shape: shape)
            } catch {
                // Out of memory in the alarm table: put the old shape back (one the table held a moment ago), so
                // that a failure changes nothing.
                if let old = try? regions.region(slot).coreShape(), let back = try? table.replace(handle, with: old) {
                    link(coreHandle: back, to: slot, replacing: handle)
                    regions.handles[slot] = back
                } else {
                    link(coreHandle: handle, to: slot, replacing: oldHandle)
                    regions.handles[slot] = handle
                }
                throw error
            }
            link(coreHandle: handle, to: slot, replacing: oldHandle)
            // A limit taken away drops its episode, which the store must forget too.
            if region.speedLimit == nil, speedRule.episodes[slot]?.latestFix != nil { changed.insert(slot) }
            speedRule.update(slot, from: regions.speedLimit(slot), to: region.speedLimit)
            if regions.schedule(slot) != region.schedule { schedules.update(slot, schedule: region.schedule) }
            if regions.flags[slot].state == .inside, let speedLimit = region.speedLimit {
                speedRule.watch(slot, speedLimit)
            }
            regions.replace(slot, with: region)
            regions.handles[slot] = handle
            updateDwelling(slot)
            return (slot, false)
        } else {
            let handle = try table.add(shape)
            if region.approach != nil {
                // The alarm table takes the region's next slot (the one `regions.add` is about to give it).
                do throws(RegionMonitorError) {
                    try approach.update(regionSlot: regions.nextSlot, region: region, shape: shape)
                } catch {
                    table.remove(handle)
                    throw error
                }
            }
            let slot = regions.add(region, handle: handle)
            link(coreHandle: handle, to: slot, replacing: nil)
            indexInsert(slot, region.identifier)
            undetermined.insert(slot)
            if region.speedLimit != nil { speedRule.update(slot, from: nil, to: region.speedLimit) }
            if region.schedule != nil { schedules.update(slot, schedule: region.schedule) }
            return (slot, true)
        }
    }

    // The identifier index's changes read the identifiers through a second reference to their array (the index is
    // part of `self`, which it changes). Each such reference ends with its helper, before `regions` changes again:
    // one alive then would make that change copy the whole array.

    private mutating func indexInsert(_ slot: Int, _ identifier: String) {
        let identifiers = regions.identifiers
        slotByIdentifier.insert(slot, identifier: identifier) { identifiers[$0] }
    }

    private mutating func indexRemove(_ identifier: String) -> Int? {
        let identifiers = regions.identifiers
        return slotByIdentifier.remove(identifier) { identifiers[$0] }
    }

    private mutating func reserveIndex(_ count: Int) {
        let identifiers = regions.identifiers
        slotByIdentifier.reserve(count) { identifiers[$0] }
    }

    /// Points the core slot of `coreHandle` at record `slot`, and forgets the core slot of `replacing` (when it is
    /// a different fence). The map grows as `RegionTable`'s arrays: doubling, never past the capacity.
    private mutating func link(coreHandle: gf_handle, to slot: Int, replacing old: gf_handle?) {
        if let old, old != coreHandle { recordSlotByCoreSlot[CoreFenceTable.slot(of: old)] = -1 }
        let coreSlot = CoreFenceTable.slot(of: coreHandle)
        if coreSlot >= recordSlotByCoreSlot.count {
            if coreSlot >= recordSlotByCoreSlot.capacity {
                recordSlotByCoreSlot.reserveCapacity(
                    max(coreSlot + 1, min(max(16, recordSlotByCoreSlot.capacity * 2), configuration.capacity)))
            }
            recordSlotByCoreSlot.append(contentsOf: repeatElement(-1, count: coreSlot - recordSlotByCoreSlot.count + 1))
        }
        recordSlotByCoreSlot[coreSlot] = Int32(slot)
    }

    /// The record slot of a core hit's fence.
    func recordSlot(of handle: gf_handle) -> Int { Int(recordSlotByCoreSlot[CoreFenceTable.slot(of: handle)]) }

    /// Adds or replaces a region whose state was known before (a restarted daemon's store). The state stands as
    /// after an outage: the first usable fix confirms it silently unless it is past the boundary by the threshold,
    /// which is an enter or exit flagged `inferred`. A replaced region keeps its live state. A restored overspeed
    /// episode (`RegionStateRecord.overspeed`, kept only for a region inside with a speed limit) goes on.
    mutating func restore(
        _ region: Region, _ restored: RegionStateRecord
    ) throws(RegionMonitorError) -> [MonitorEvent] {
        try restoreQuietly(region, restored)
        return [.didStartMonitoring(region)]
    }

    /// `restore`, reporting nothing.
    private mutating func restoreQuietly(_ region: Region, _ restored: RegionStateRecord) throws(RegionMonitorError) {
        let (slot, isNew) = try add(region)
        guard isNew, restored.lastKnownState != .unknown else { return }
        regions.flags[slot].lastKnownState = restored.lastKnownState
        regions.flags[slot].confirmsQuietly = true
        regions.flags[slot].storeHoldsLastKnownState = restored.state == restored.lastKnownState
        if restored.lastKnownState == .inside {
            insideSince[Int32(slot)] = restored.insideSince
            regions.flags[slot].dwellReported = restored.dwellReported
            // An episode under way goes on from the first fix (or ends there: `reportOverspeeds`).
            if let episode = restored.overspeed, let speedLimit = region.speedLimit,
               episode.maximumSpeed.isFinite, episode.maximumSpeed >= 0 {
                speedRule.restore(slot, speedLimit, episode)
            }
        }
    }

    /// `start` for each region, in order, into `events` (its didStartMonitoring, or its monitoringDidFail).
    mutating func start(_ batch: some Sequence<Region>, into events: inout [MonitorEvent]) {
        for region in batch {
            do throws(RegionMonitorError) {
                try add(region)
                events.append(.didStartMonitoring(region))
            } catch {
                events.append(.monitoringDidFail(region, error))
            }
        }
    }

    /// `restore` for each entry, in order, into `events` (the didStartMonitoring of each region restored); the
    /// entries refused go to `failures`, with their errors.
    mutating func restore(
        _ batch: some Sequence<(region: Region, state: RegionStateRecord)>, into events: inout [MonitorEvent],
        failures: inout [(region: Region, error: RegionMonitorError)]
    ) {
        for entry in batch {
            do throws(RegionMonitorError) {
                try restoreQuietly(entry.region, entry.state)
                events.append(.didStartMonitoring(entry.region))
            } catch {
                failures.append((entry.region, error))
            }
        }
    }

    mutating func stop(identifier: String) {
        guard let slot = indexRemove(identifier) else { return }
        let handle = regions.handles[slot]
        table.remove(handle)
        recordSlotByCoreSlot[CoreFenceTable.slot(of: handle)] = -1
        approach.remove(regionSlot: slot)
        speedRule.update(slot, from: regions.speedLimit(slot), to: nil)
        schedules.update(slot, schedule: nil)
        regions.remove(slot)
        insideSince[Int32(slot)] = nil
        boundaryWatches[Int32(slot)] = nil
        inside.remove(slot)
        undetermined.remove(slot)
        dwelling.remove(slot)
        requested.remove(slot)
    }

    /// A determined event with the region's current state at the last usable fix, or, before any, after the next.
    mutating func requestState(identifier: String) -> [RegionEvent] {
        guard let slot = recordSlot(for: identifier) else { return [] }
        guard let last = lastUsable else {
            regions.flags[slot].stateRequested = true
            requested.insert(slot)
            return []
        }
        let distance = distanceFromBoundary(last.point, slot)
        let state = regions.flags[slot].state
        events.removeAll(keepingCapacity: events.capacity <= 4096)
        emit(.determined, slot, state: state, time: last.fix.timestamp, at: last.fix.coordinate,
             distance: state == .unknown ? nil : distance)
        return events
    }
}
