/// A set of region slots with O(1) insert and remove and a deterministic iteration order (the same sequence of
/// operations gives the same order, run after run, unlike `Set`), so events come out in the same order every replay.
struct SlotList {
    private(set) var slots: [Int] = []
    private var positions: [Int] = []  // positions[slot] = index in slots, or -1

    var count: Int { slots.count }

    func contains(_ slot: Int) -> Bool {
        slot < positions.count && positions[slot] >= 0
    }

    mutating func insert(_ slot: Int) {
        if slot >= positions.count { positions.append(contentsOf: repeatElement(-1, count: slot - positions.count + 1)) }
        guard positions[slot] < 0 else { return }
        positions[slot] = slots.count
        slots.append(slot)
    }

    /// Removes by swapping the last slot into the hole: iterating indices downwards stays valid while removing.
    mutating func remove(_ slot: Int) {
        guard contains(slot) else { return }
        let index = positions[slot]
        let last = slots.removeLast()
        if last != slot {
            slots[index] = last
            positions[last] = index
        }
        positions[slot] = -1
    }

    /// Removes every slot, keeping the storage: O(count), not O(highest slot).
    mutating func removeAll() {
        for slot in slots { positions[slot] = -1 }
        slots.removeAll(keepingCapacity: true)
    }
}
