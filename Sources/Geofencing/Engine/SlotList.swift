/// A set of region slots with O(1) insert and remove and a deterministic iteration order (the same sequence of
/// operations gives the same order, run after run, unlike `Set`), so events come out in the same order every replay.
///
/// Memory: 4 bytes per slot up to the highest slot ever inserted (`positions`) and 4 per member: slots are below
/// the core's capacity (2^24), so 32-bit entries hold them, and a list that a first fix fills with 10^6 regions
/// costs 8 MB rather than 16. Growth: the arrays double, but never past `capacityLimit` (a list that may hold every
/// region of a monitor is given its capacity, so that filling it to that holds no slack).
struct SlotList {
    private var members: [Int32] = []
    private var positions: [Int32] = []  // positions[slot] = index in members, or -1
    private let capacityLimit: Int

    init(capacityLimit: Int = .max) {
        self.capacityLimit = capacityLimit
    }

    /// The members, in the list's order (a view: reading it allocates nothing).
    var slots: LazyMapCollection<[Int32], Int> { members.lazy.map { Int($0) } }

    var count: Int { members.count }

    func contains(_ slot: Int) -> Bool {
        slot < positions.count && positions[slot] >= 0
    }

    mutating func insert(_ slot: Int) {
        if slot >= positions.count {
            if slot >= positions.capacity { positions.reserveCapacity(grown(positions.capacity, toHold: slot + 1)) }
            positions.append(contentsOf: repeatElement(-1, count: slot - positions.count + 1))
        }
        guard positions[slot] < 0 else { return }
        positions[slot] = Int32(members.count)
        if members.count == members.capacity {
            members.reserveCapacity(grown(members.capacity, toHold: members.count + 1))
        }
        members.append(Int32(slot))
    }

    /// Removes by swapping the last slot into the hole: iterating indices downwards stays valid while removing.
    mutating func remove(_ slot: Int) {
        guard contains(slot) else { return }
        let index = Int(positions[slot])
        let last = members.removeLast()
        if Int(last) != slot {
            members[index] = last
            positions[Int(last)] = Int32(index)
        }
        positions[slot] = -1
    }

    /// Makes room for slots below `count` and as many members, so that inserting them grows nothing.
    mutating func reserve(_ count: Int) {
        positions.reserveCapacity(count)
        members.reserveCapacity(count)
    }

    /// Double `capacity` (at least `count`), at most `capacityLimit` unless `count` needs more.
    private func grown(_ capacity: Int, toHold count: Int) -> Int {
        max(count, min(max(16, capacity * 2), capacityLimit))
    }

    /// Removes every slot, keeping the storage: O(count), not O(highest slot).
    mutating func removeAll() {
        for slot in members { positions[Int(slot)] = -1 }
        members.removeAll(keepingCapacity: true)
    }
}
