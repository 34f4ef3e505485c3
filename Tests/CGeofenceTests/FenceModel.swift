// What a table should contain, kept in plain Swift: the model the churn test compares the core against.
import CGeofence
import GeofencingTestSupport
import GeofencingInputs

struct FenceModel {
    /// Live fences in no particular order, in an array so a random one can be picked and all scanned quickly.
    private(set) var fences: [FenceRecord] = []
    /// Where each live handle sits in `fences`.
    private var positions: [gf_handle: Int] = [:]

    var count: Int { fences.count }

    func contains(_ handle: gf_handle) -> Bool {
        positions[handle] != nil
    }

    subscript(handle: gf_handle) -> FenceRecord? {
        positions[handle].map { fences[$0] }
    }

    /// Adds a fence; returns false when its handle is already live (the core handed out a duplicate).
    mutating func insert(_ fence: FenceRecord) -> Bool {
        guard positions[fence.handle] == nil else { return false }
        positions[fence.handle] = fences.count
        fences.append(fence)
        return true
    }

    /// Removes a live fence by swapping the last one into its place, O(1).
    mutating func remove(_ handle: gf_handle) {
        guard let position = positions.removeValue(forKey: handle) else { return }
        let last = fences.removeLast()
        if position < fences.count {
            fences[position] = last
            positions[last.handle] = position
        }
    }

    mutating func update(_ handle: gf_handle, centre: gf_point, radiusMM: UInt32) {
        guard let position = positions[handle] else { return }
        fences[position].centre = centre
        fences[position].radiusMM = radiusMM
    }

    func randomFence(using random: inout SplitMix64) -> FenceRecord? {
        fences.randomElement(using: &random)
    }
}
