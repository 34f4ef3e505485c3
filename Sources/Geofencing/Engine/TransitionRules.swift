import CGeofence
import Foundation

/// The transition rules: how one usable fix changes a region's state (hysteresis, the fix's accuracy, the first
/// determination, the return from an outage), the distances they decide on, and the dwell, approach and requested
/// state reports that follow the transitions of a fix.
extension MonitorEngine {
    /// Applies the transition rules to one region for one usable fix.
    ///
    /// An enter or exit carries the crossing its `BoundaryWatch` found (`RegionEvent.crossedAt`); an inferred one
    /// the crossing of the straight segment from the last usable fix before the outage to this fix.
    mutating func judge(_ slot: Int, distance: Double, at point: gf_point, fix: Fix, accuracy: Double) {
        watchBoundary(slot, distance: distance, at: point, fix: fix)
        let record = regions.flags[slot]
        guard !record.eventAtFix else { return }  // an interpolated pass already spoke for this fix
        let threshold = max(regions.hysteresis(slot), accuracy)
        let time = fix.timestamp, at = fix.coordinate
        switch record.state {
        case .inside where distance >= threshold:
            let crossedAt = boundaryWatches[Int32(slot)]?.since
            setState(slot, .outside, since: time)
            if record.notifyOnExit {
                emit(.exit, slot, state: .outside, time: time, at: at, distance: distance, crossedAt: crossedAt)
            }
        case .outside where distance <= -threshold:
            let crossedAt = boundaryWatches[Int32(slot)]?.since
            setState(slot, .inside, since: time)
            if record.notifyOnEntry {
                emit(.enter, slot, state: .inside, time: time, at: at, distance: distance, crossedAt: crossedAt)
            }
        case .unknown:
            regions.flags[slot].stateRequested = false
            // A requested state is answered whatever `configuration.determinations` leaves out.
            let requested = record.stateRequested
            let before = record.lastKnownState
            if before != .unknown {
                // Back from an outage (or a restart): the last known state stands unless this fix is past the
                // boundary by the usual threshold, so a parked vehicle's jitter cannot make inferred transitions.
                regions.flags[slot].confirmsQuietly = false
                regions.flags[slot].storeHoldsLastKnownState = false
                let crossed = before == .inside ? distance >= threshold : distance <= -threshold
                let found: RegionState = crossed ? (before == .inside ? .outside : .inside) : before
                // Somewhere in the outage: estimated on the straight segment across it (nil after a restart).
                let inferredCrossing = crossed
                    ? lastUsable.flatMap { crossingTime(slot, leaving: before, from: $0, to: (fix, point)) } : nil
                let alreadyChanged = changed.contains(slot)
                let insideBefore = insideSince[Int32(slot)]
                // The dwell clock keeps running when the vehicle stayed inside.
                setState(slot, found, since: found == .inside && !crossed ? insideBefore ?? time : time)
                restartBoundaryWatch(slot, distance: distance, at: point, fix: fix)
                if !crossed, record.storeHoldsLastKnownState, !alreadyChanged,
                   regionStateRecord(slot) == RegionStateRecord(
                       state: before, insideSince: insideBefore, dwellReported: record.dwellReported) {
                    // The restored record stands as the store holds it: nothing for the store to write (a restart
                    // with 10^6 regions rewrites none of them).
                    changed.remove(slot)
                }
                let notify = found == .inside ? record.notifyOnEntry : record.notifyOnExit
                if crossed && notify {
                    emit(found == .inside ? .enter : .exit, slot, state: found, time: time, at: at,
                         distance: distance, inferred: true, crossedAt: inferredCrossing)
                } else if !record.confirmsQuietly
                    && (requested || configuration.reportsDetermination(of: found, before: .unknown)) {
                    emit(.determined, slot, state: found, time: time, at: at, distance: distance)
                }
            } else {
                // First determination: no state to flap from, so only the fix's own uncertainty matters.
                let found: RegionState
                if distance <= -accuracy { found = .inside } else if distance > accuracy { found = .outside } else { return }
                setState(slot, found, since: time)
                let asEnter = found == .inside && configuration.reportsInitialInsideAsEnter && record.notifyOnEntry
                if asEnter || requested || configuration.reportsDetermination(of: found, before: .unknown) {
                    emit(asEnter ? .enter : .determined, slot, state: found, time: time, at: at, distance: distance)
                }
            }
        default:
            break
        }
    }

    /// The signed distance the rules need for a hit of the main query. The core measures a polygon's depth inside
    /// only as far as a cell of the polygon's own edge grid (beyond, the query reports a lower bound: a fix deep inside
    /// needs no more to be inside). A region not yet inside needs the depth to decide an enter, and its event the
    /// exact value: measured once to the threshold (cheap: the edges within it), then exactly only when it decides.
    func depth(of slot: Int, hit distance: Double, at point: gf_point, accuracy: Double) -> Double {
        guard distance <= 0, regions.flags[slot].state != .inside, !regions.isCircle(slot) else { return distance }
        let threshold = max(regions.hysteresis(slot), accuracy)
        let bounded = distanceToDecide(point, slot, threshold: threshold)
        return bounded <= -threshold ? distanceFromBoundary(point, slot) : bounded
    }

    mutating func judgeUnseen(_ slot: Int, at point: gf_point, fix: Fix, accuracy: Double) {
        let record = regions.flags[slot]
        guard !record.seenAtFix else { return }
        // Outside (the query did not return it): decide on a bounded search, measure exactly only for the event.
        let threshold = max(regions.hysteresis(slot), accuracy)
        var distance = distanceToDecide(point, slot, threshold: threshold)
        if distance >= threshold || (record.state == .unknown && distance > accuracy) {
            distance = distanceFromBoundary(point, slot)
        }
        judge(slot, distance: distance, at: point, fix: fix, accuracy: accuracy)
    }

    /// Signed distance in metres from a region's boundary (negative inside), as the core computes it (a polygon
    /// or corridor: exact within 50 km of its boundary, beyond that at least 50 km; its cost grows with the
    /// distance, see `CoreFenceTable.exactDistance`).
    func distanceFromBoundary(_ point: gf_point, _ slot: Int) -> Double {
        table.exactDistance(from: point, to: regions.handles[slot], isCircle: regions.isCircle(slot))
    }

    /// The signed distance when only whether it reaches `threshold` matters: exact within it, beyond it a value past
    /// it (cheap for a large shape: only the edges within the threshold are searched). The rules' test, made before
    /// the exact distance an event carries.
    func distanceToDecide(_ point: gf_point, _ slot: Int, threshold: Double) -> Double {
        regions.isCircle(slot)
            ? table.distance(from: point, to: regions.handles[slot])
            : table.distance(from: point, to: regions.handles[slot], limit: threshold + 1)
    }

    // MARK: - After the transitions

    /// Approach events of this fix, after its transitions (so an enter at this fix has already spent the alarm).
    mutating func reportApproaches(at fix: Fix, point: gf_point) {
        let firings = approach.observe(fix, at: point) { slot in regions.flags[slot].state }
        for firing in firings {
            emit(.approach, firing.regionSlot, state: .outside, time: fix.timestamp, at: fix.coordinate,
                 distance: firing.distance)
        }
    }

    mutating func reportDwells(at fix: Fix, point: gf_point) {
        var index = dwelling.count - 1
        while index >= 0 {
            let slot = dwelling.slots[index]
            index -= 1
            // Outside its schedule's windows a dwell waits for the next window instead of being lost.
            if !schedules.isEmpty, !schedules.isActive(slot) { continue }
            guard let since = insideSince[Int32(slot)], let dwell = regions.dwellTime(slot),
                  fix.timestamp.timeIntervalSince(since) >= dwell else { continue }
            regions.flags[slot].dwellReported = true
            changed.insert(slot)
            dwelling.remove(slot)
            emit(.dwell, slot, state: .inside, time: fix.timestamp, at: fix.coordinate,
                 distance: distanceFromBoundary(point, slot))
        }
    }

    /// The regions that asked for their state before any usable fix (`requested`: empty at most fixes, which the
    /// caller tests before calling).
    mutating func answerRequests(at fix: Fix, point: gf_point) {
        for slot in requested.slots {
            let record = regions.flags[slot]
            guard record.isOccupied, record.stateRequested else { continue }
            regions.flags[slot].stateRequested = false
            guard !record.eventAtFix else { continue }  // already reported at this fix
            emit(.determined, slot, state: record.state, time: fix.timestamp, at: fix.coordinate,
                 distance: record.state == .unknown ? nil : distanceFromBoundary(point, slot))
        }
        requested = SlotList()
    }
}
