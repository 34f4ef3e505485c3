import Geofencing
import GeofencingEvents
import GeofencingInputs
import GeofencingSinks
import GeofencingStore

/// Applies fence sets and patches (`FenceSetMessage`) to a store: the whole message is checked first, then its
/// changes are written in one transaction (`GeofenceStore.applyFenceSet`), so a rejected message changes nothing.
///
/// Rules, in order (the first that fails rejects the message):
/// 1. At most `maximumBytes` bytes, checked before anything is parsed.
/// 2. The message reads (`FenceSetMessage.parse`: every feature with the rules of `fences import`, identifiers
///    unique) and every region is one the monitor takes (`Region.validate()`).
/// 3. A patch's `base_version` is the store's current fence-set version (else the back-end sends the full set). A
///    patch that was already applied (its `version` is the current one and it would change nothing: a retained
///    message delivered again) is `unchanged`.
/// 4. A patch removes only identifiers the store holds: a removal of an unknown one means the back-end and the
///    unit disagree about the set, which only a full set repairs.
/// 5. The store holds at most `maximumFences` fences afterwards (the running monitor's capacity).
/// A full set with the current version and exactly the stored definitions is `unchanged` (nothing written); any
/// other valid set is applied: identifiers that stay keep their state records (no exit and enter again), removed
/// ones go with their states, new ones start with nothing known and are determined at the next fix.
struct FenceSetApplier {
    /// `--max-fence-set-bytes`' default: 64 MiB.
    static let defaultMaximumBytes = MQTTSink.defaultMaximumFenceSetBytes  // one bound for the link and the applier
    /// The most fences a set may leave in the store: the monitor's default capacity.
    static let maximumFences = MonitorConfiguration().capacity

    let store: GeofenceStore
    var maximumBytes = defaultMaximumBytes
    /// How the message is named in errors.
    var messageName = "fence set"

    func apply(_ payload: [UInt8]) -> FenceSetAck {
        let held: [StoredRegion]
        do { held = try store.regions() } catch {
            return FenceSetAck(version: nil, status: .rejected, fences: 0, error: "store \(store.path): \(error)")
        }
        func rejected(_ version: String?, _ reason: String) -> FenceSetAck {
            FenceSetAck(version: version, status: .rejected, fences: held.count, error: reason)
        }
        guard payload.count <= maximumBytes else {
            return rejected(nil, "\(messageName): \(payload.count) bytes, more than --max-fence-set-bytes "
                + "\(maximumBytes)")
        }
        let message: FenceSetMessage
        do { message = try FenceSetMessage.parse(payload, name: messageName) } catch {
            return rejected(nil, error.description)
        }
        for region in message.regions {
            do { try region.validate() } catch {
                return rejected(message.version, "\(messageName): fence \(JSONText.quoted(region.identifier)): "
                    + "\(error)")
            }
        }
        let current: String?
        do { current = try store.fenceSetVersion() } catch {
            return rejected(message.version, "store \(store.path): \(error)")
        }

        var stored: [String: Region] = [:]
        stored.reserveCapacity(held.count)
        for entry in held { stored[entry.region.identifier] = entry.region }
        var upsert: [Region] = []
        var added = 0
        for region in message.regions {
            guard let previous = stored[region.identifier] else {
                added += 1
                upsert.append(region)
                continue
            }
            if previous != region { upsert.append(region) }
        }
        var remove: [String]
        switch message.kind {
        case .set:
            let kept = Set(message.regions.map(\.identifier))
            remove = held.map(\.region.identifier).filter { !kept.contains($0) }
        case .patch(let base):
            // Applied before (a retained patch delivered again): its version is current and it would change nothing.
            if message.version == current, upsert.isEmpty, message.removals.allSatisfy({ stored[$0] == nil }) {
                return FenceSetAck(version: message.version, status: .unchanged, fences: held.count)
            }
            guard base == current else {
                return rejected(message.version, "\(messageName): field base_version: \(JSONText.quoted(base)) is "
                    + "not the current version (\(current.map(JSONText.quoted) ?? "no set applied yet")); send the "
                    + "full set")
            }
            if let unknown = message.removals.first(where: { stored[$0] == nil }) {
                return rejected(message.version, "\(messageName): field remove: no fence \(JSONText.quoted(unknown)) "
                    + "in the current set; send the full set")
            }
            remove = message.removals
        }
        if message.version == current, upsert.isEmpty, remove.isEmpty {
            return FenceSetAck(version: message.version, status: .unchanged, fences: held.count)
        }
        let fences = held.count + added - remove.count
        guard fences <= Self.maximumFences else {
            return rejected(message.version, "\(messageName): \(fences) fences, more than the \(Self.maximumFences) "
                + "a unit monitors")
        }
        do {
            try store.applyFenceSet(version: message.version, expectedVersion: current, upsert: upsert,
                                    remove: remove)
        } catch {
            return rejected(message.version, "store \(store.path): \(error)")
        }
        return FenceSetAck(version: message.version, status: .applied, fences: fences, added: added,
                           removed: remove.count, replaced: upsert.count - added)
    }
}
