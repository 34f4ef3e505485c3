/// Thins a projected track for drawing: drops a fix closer than `tolerance` plane metres to the last fix kept, so a
/// 100k-fix log does not become 100k SVG vertices, while keeping what a reader of the map needs exactly.
///
/// Invariants of the result (`TrackSimplifierTests` checks each):
/// - the first and the last fix are kept;
/// - at every change of the inside flag both fixes of the change are kept (the last one in the old state and the
///   first in the new), so the colour changes exactly where the monitor's state changed;
/// - every dropped fix lies within `tolerance` of a kept fix, so at a zoom where `tolerance` is under a pixel the
///   drawn line is off by less than a pixel.
/// O(n) time; the indices returned are increasing.
struct TrackSimplifier: Sendable {
    /// Plane metres; a fix within this distance of the previous kept fix is dropped. 0 keeps everything.
    var tolerance: Double

    func keptIndices(x: [Double], y: [Double], inside: [Bool]) -> [Int] {
        precondition(x.count == y.count && y.count == inside.count, "track arrays of different lengths")
        guard !x.isEmpty else { return [] }
        let toleranceSquared = tolerance * tolerance
        var kept = [0]
        var last = 0
        for index in 1..<x.count {
            let isLast = index == x.count - 1
            let changesState = inside[index] != inside[index - 1]
            if changesState && kept.last != index - 1 {
                kept.append(index - 1)  // the last fix in the old state
                last = index - 1
            }
            let dx = x[index] - x[last], dy = y[index] - y[last]
            if isLast || changesState || dx * dx + dy * dy >= toleranceSquared {
                kept.append(index)
                last = index
            }
        }
        return kept
    }
}
