/// The record slot of each monitored identifier: an open-addressing hash table of record slots (linear probing,
/// at most half full) whose keys are the identifiers the records already hold, so that no identifier is kept twice.
///
/// Memory: one 4-byte bucket per 2 ... 4 regions' worth of load, i.e. 8 ... 16 bytes per region, where a
/// `[String: Int]` holds a copy of each key and its value in 32 ... 64. Every call takes `identifierOf`, which must
/// give the identifier of any slot the index holds (the engine's records); the index never calls it for other slots.
struct IdentifierIndex {
    /// A record slot, or -1 for an empty bucket. The count is a power of two (or zero).
    private var buckets: [Int32] = []
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    private func home(of identifier: String) -> Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        return hasher.finalize() & mask
    }

    /// The bucket holding `identifier`, or nil.
    private func bucket(of identifier: String, identifierOf: (Int) -> String) -> Int? {
        guard count > 0 else { return nil }
        var bucket = home(of: identifier)
        while buckets[bucket] >= 0 {
            if identifierOf(Int(buckets[bucket])) == identifier { return bucket }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    func slot(of identifier: String, identifierOf: (Int) -> String) -> Int? {
        bucket(of: identifier, identifierOf: identifierOf).map { Int(buckets[$0]) }
    }

    /// Adds `slot` under `identifier`, which the index must not hold yet (`identifierOf(slot)` is `identifier`).
    mutating func insert(_ slot: Int, identifier: String, identifierOf: (Int) -> String) {
        if (count + 1) * 2 > buckets.count { grow(identifierOf: identifierOf) }
        var bucket = home(of: identifier)
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(slot)
        count += 1
    }

    /// Removes `identifier`; returns its slot, or nil when the index does not hold it.
    mutating func remove(_ identifier: String, identifierOf: (Int) -> String) -> Int? {
        guard var hole = bucket(of: identifier, identifierOf: identifierOf) else { return nil }
        let slot = Int(buckets[hole])
        // Backward-shift deletion: every entry after the hole whose home is not between the hole and it moves into
        // the hole, so that lookups never need tombstones.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = buckets[next]
            if entry < 0 { break }
            let entryHome = home(of: identifierOf(Int(entry)))
            let staysPut = hole <= next ? (hole < entryHome && entryHome <= next) : (hole < entryHome || entryHome <= next)
            if staysPut { continue }
            buckets[hole] = entry
            hole = next
        }
        buckets[hole] = -1
        count -= 1
        return slot
    }

    /// Every slot the index holds, in no particular order.
    func forEachSlot(_ body: (Int) -> Void) {
        for entry in buckets where entry >= 0 { body(Int(entry)) }
    }

    /// Makes room for `count` identifiers in all, so that inserting them never rehashes (a bulk add knows its count).
    mutating func reserve(_ count: Int, identifierOf: (Int) -> String) {
        var size = max(16, buckets.count)
        while count * 2 > size { size *= 2 }
        if size > buckets.count { rehash(into: size, identifierOf: identifierOf) }
    }

    private mutating func grow(identifierOf: (Int) -> String) {
        rehash(into: max(16, buckets.count * 2), identifierOf: identifierOf)
    }

    private mutating func rehash(into size: Int, identifierOf: (Int) -> String) {
        let old = buckets
        buckets = Array(repeating: -1, count: size)
        for entry in old where entry >= 0 {
            var bucket = home(of: identifierOf(Int(entry)))
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = entry
        }
    }
}
