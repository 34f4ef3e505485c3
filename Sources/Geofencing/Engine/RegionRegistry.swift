import CGeofence
import Foundation

/// The engine's region registry: adding, replacing, restoring and removing regions, each region's record slot,
/// and the map from the core's slots and the identifiers to those slots.
extension MonitorEngine {
    var regions: [Region] { records.compactMap { $0?.region } }

    var regionCount: Int { slotByIdentifier.count }

    var identifiers: [String] {
        var identifiers: [String] = []
        identifiers.reserveCapacity(slotByIdentifier.count)
        slotByIdentifier.forEachSlot { identifiers.append(identifierOf($0)) }
        return identifiers
    }

    /// The identifier of a record slot the identifier index holds (its keys).
    func identifierOf(_ slot: Int) -> String { records[slot]!.definition.identifier }

    /// The record slot of a monitored identifier.
    func recordSlot(for identifier: String) -> Int? {
        slotByIdentifier.slot(of: identifier, identifierOf: identifierOf)
    }

    func region(identifier: String) -> Region? {
        recordSlot(for: identifier).flatMap { records[$0]?.region }
    }

    func state(for identifier: String) -> RegionState? {
        recordSlot(for: identifier).flatMap { records[$0]?.state }
    }

    /// Adds or replaces a region. Returns the events to deliver (didStartMonitoring).
    func start(_ region: Region) throws(RegionMonitorError) -> [MonitorEvent] {
        let shape = try region.coreShape()
        let hysteresis = region.hysteresis ?? configuration.hysteresis(for: region.shape)
        if let slot = recordSlot(for: region.identifier), var record = records[slot] {
            // Replacement keeps the state: the next fix judges the new shape with the usual hysteresis, so a
            // vehicle the new shape still contains sees no exit and enter.
            let handle = try table.replace(record.handle, with: shape)
            do throws(RegionMonitorError) {
                try approach.update(regionSlot: slot, region: region, shape: shape)
            } catch {
                // Out of memory in the alarm table: put the old shape back (one the table held a moment ago), so
                // that a failure changes nothing.
                if let old = try? record.region.coreShape(), let back = try? table.replace(handle, with: old) {
                    link(coreHandle: back, to: slot, replacing: handle)
                    records[slot]!.handle = back
                } else {
                    link(coreHandle: handle, to: slot, replacing: record.handle)
                    records[slot]!.handle = handle
                }
                throw error
            }
            link(coreHandle: handle, to: slot, replacing: record.handle)
            // A limit taken away drops its episode, which the store must forget too.
            if region.speedLimit == nil, speedRule.episodes[slot]?.latestFix != nil { changed.insert(slot) }
            speedRule.update(slot, from: record.definition.speedLimit, to: region.speedLimit)
            if record.definition.schedule != region.schedule { schedules.update(slot, schedule: region.schedule) }
            if record.state == .inside, let speedLimit = region.speedLimit { speedRule.watch(slot, speedLimit) }
            record.region = region
            record.handle = handle
            record.hysteresis = hysteresis
            records[slot] = record
            updateDwelling(slot)
        } else {
            let handle = try table.add(shape)
            let slot = freeRecordSlots.popLast() ?? records.count
            do throws(RegionMonitorError) {
                try approach.update(regionSlot: slot, region: region, shape: shape)
            } catch {
                table.remove(handle)
                if slot < records.count { freeRecordSlots.append(slot) }
                throw error
            }
            if slot == records.count { records.append(nil) }
            records[slot] = RegionRecord(
                definition: RegionDefinition(region), handle: handle, hysteresis: hysteresis)
            link(coreHandle: handle, to: slot, replacing: nil)
            slotByIdentifier.insert(slot, identifier: region.identifier, identifierOf: identifierOf)
            undetermined.insert(slot)
            speedRule.update(slot, from: nil, to: region.speedLimit)
            if region.schedule != nil { schedules.update(slot, schedule: region.schedule) }
        }
        return [.didStartMonitoring(region)]
    }

    /// Points the core slot of `coreHandle` at record `slot`, and forgets the core slot of `replacing` (when it is
    /// a different fence).
    private func link(coreHandle: gf_handle, to slot: Int, replacing old: gf_handle?) {
        if let old, old != coreHandle { recordSlotByCoreSlot[CoreFenceTable.slot(of: old)] = -1 }
        let coreSlot = CoreFenceTable.slot(of: coreHandle)
        if coreSlot >= recordSlotByCoreSlot.count {
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
    func restore(_ region: Region, _ restored: RegionStateRecord) throws(RegionMonitorError) -> [MonitorEvent] {
        let isNew = recordSlot(for: region.identifier) == nil
        let events = try start(region)
        guard isNew, restored.lastKnownState != .unknown, let slot = recordSlot(for: region.identifier) else {
            return events
        }
        records[slot]!.lastKnownState = restored.lastKnownState
        records[slot]!.confirmsQuietly = true
        records[slot]!.storeHoldsLastKnownState = restored.state == restored.lastKnownState
        if restored.lastKnownState == .inside {
            records[slot]!.insideSince = restored.insideSince
            records[slot]!.dwellReported = restored.dwellReported
            // An episode under way goes on from the first fix (or ends there: `reportOverspeeds`).
            if let episode = restored.overspeed, let speedLimit = region.speedLimit,
               episode.maximumSpeed.isFinite, episode.maximumSpeed >= 0 {
                speedRule.restore(slot, speedLimit, episode)
            }
        }
        return events
    }

    func stop(identifier: String) {
        guard let slot = slotByIdentifier.remove(identifier, identifierOf: identifierOf),
              let record = records[slot] else { return }
        table.remove(record.handle)
        recordSlotByCoreSlot[CoreFenceTable.slot(of: record.handle)] = -1
        approach.remove(regionSlot: slot)
        speedRule.update(slot, from: record.definition.speedLimit, to: nil)
        schedules.update(slot, schedule: nil)
        records[slot] = nil
        freeRecordSlots.append(slot)
        inside.remove(slot)
        undetermined.remove(slot)
        dwelling.remove(slot)
        requested.remove(slot)
    }

    /// A determined event with the region's current state at the last usable fix, or, before any, after the next.
    func requestState(identifier: String) -> [RegionEvent] {
        guard let slot = recordSlot(for: identifier), let record = records[slot] else { return [] }
        guard let last = lastUsable else {
            records[slot]?.stateRequested = true
            requested.insert(slot)
            return []
        }
        let distance = distanceFromBoundary(last.point, record)
        events.removeAll(keepingCapacity: events.capacity <= 4096)
        emit(.determined, slot, state: record.state, time: last.fix.timestamp, at: last.fix.coordinate,
             distance: record.state == .unknown ? nil : distance)
        return events
    }
}

/// One monitored region and its state. Its slot in `MonitorEngine.records` is the engine's own (a replaced polygon
/// gets a new core fence, and so a new core slot, but keeps its record slot and its place in every list).
struct RegionRecord {
    /// The region's definition, packed (`RegionDefinition`); `region` rebuilds it.
    var definition: RegionDefinition
    var region: Region {
        get { definition.region }
        set { definition = RegionDefinition(newValue) }
    }
    /// The core fence; `MonitorEngine.recordSlotByCoreSlot` maps its slot back to this record.
    var handle: gf_handle
    /// Metres past the boundary a fix must be to change the state.
    var hysteresis: Double
    var state: RegionState = .unknown
    /// `RegionStateRecord.lastKnownState`: `state` whenever that is known (`setState`), kept while an outage makes
    /// `state` unknown; a different state found afterwards is an inferred transition.
    var lastKnownState: RegionState = .unknown
    /// Restored from a store: a first fix that confirms `lastKnownState` reports nothing (the state never
    /// changed as far as anyone listening knows), so a restart with 100,000 regions is not 100,000 events.
    var confirmsQuietly = false
    /// Restored from a record whose `state` is its `lastKnownState`: a quiet confirmation leaves the record as the
    /// store holds it, so it is not reported as changed (`ObservationOutcome.changedStates`).
    var storeHoldsLastKnownState = false
    /// GNSS time since which the vehicle has been inside (for dwell), nil when outside or unknown.
    var insideSince: Date?
    var dwellReported = false
    /// requestState(for:) came before any usable fix: answer after the next one.
    var stateRequested = false
    /// The fix number at which the core's query last returned this region.
    var seenAtFix: UInt64 = 0
    /// The fix number at which this region last produced an event (one state change per region per fix).
    var eventAtFix: UInt64 = 0
    /// Where the fixes since the last one on the state's side of the boundary crossed it (`BoundaryWatch`).
    var boundaryWatch = BoundaryWatch()

    /// What a store keeps of this region to restore it.
    var stateRecord: RegionStateRecord {
        RegionStateRecord(
            state: state, lastKnownState: lastKnownState, insideSince: insideSince, dwellReported: dwellReported)
    }
}
