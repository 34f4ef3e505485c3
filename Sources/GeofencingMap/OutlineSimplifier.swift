/// Thins a polygon's rings or a corridor's path for drawing (Douglas–Peucker in plane metres), so a state border of
/// tens of thousands of vertices becomes a few thousand SVG vertices. Drawing only: the monitor always uses the
/// region's own vertices.
///
/// Invariants of the result (`OutlineSimplifierTests` checks each):
/// - a path keeps its first and last vertex; a ring keeps at least 3 vertices (when it has 3), so no ring and no
///   part of a multi-polygon disappears from the map, however small;
/// - every dropped vertex lies within `tolerance` of the drawn segment between the kept vertices on either side of
///   it (the segment that replaces it), so the drawn outline is off by at most `tolerance` from the region's;
/// - the indices returned are increasing.
/// Time O(n log n) for typical outlines (O(n²) in the worst case of Douglas–Peucker, a spiral); no recursion, so a
/// 10^5-vertex ring cannot overflow the stack.
struct OutlineSimplifier: Sendable {
    /// Plane metres. 0 keeps every vertex that is not exactly on the segment between its neighbours' kept vertices.
    var tolerance: Double

    /// Kept indices of an open polyline (a corridor's path).
    func keptIndices(ofPath x: [Double], _ y: [Double]) -> [Int] {
        precondition(x.count == y.count, "outline arrays of different lengths")
        guard x.count > 2 else { return Array(x.indices) }
        var keep = [Bool](repeating: false, count: x.count)
        keep[0] = true
        keep[x.count - 1] = true
        simplify(x, y, from: 0, to: x.count - 1, keep: &keep)
        return keep.indices.filter { keep[$0] }
    }

    /// Kept indices of a closed ring, given without a repeated closing vertex (the segment from the last vertex
    /// back to the first closes it).
    func keptIndices(ofRing x: [Double], _ y: [Double]) -> [Int] {
        precondition(x.count == y.count, "outline arrays of different lengths")
        guard x.count > 3 else { return Array(x.indices) }
        // Split the ring at vertex 0 and the vertex farthest from it; both are kept, and each half is a path.
        var far = 1, farthest = -1.0
        for index in 1..<x.count {
            let dx = x[index] - x[0], dy = y[index] - y[0], distance = dx * dx + dy * dy
            if distance > farthest {
                farthest = distance
                far = index
            }
        }
        // The closing half runs from `far` through the last vertex back to vertex 0, appended as index count.
        let closedX = x + [x[0]], closedY = y + [y[0]]
        var keep = [Bool](repeating: false, count: closedX.count)
        keep[0] = true
        keep[far] = true
        simplify(closedX, closedY, from: 0, to: far, keep: &keep)
        simplify(closedX, closedY, from: far, to: x.count, keep: &keep)
        var kept = (0..<x.count).filter { keep[$0] }
        if kept.count < 3 {
            // Everything within tolerance of the chord 0-far (a sliver or a speck): keep the vertex farthest from
            // it too, so the ring is still drawn as a triangle.
            var third = -1, thirdDistance = -1.0
            for index in 1..<x.count where index != far {
                let distance = Self.segmentDistanceSquared(x, y, index, 0, far)
                if distance > thirdDistance {
                    thirdDistance = distance
                    third = index
                }
            }
            kept = (kept + [third]).sorted()
        }
        return kept
    }

    /// Marks what Douglas–Peucker keeps strictly between `first` and `last` (both already kept).
    private func simplify(_ x: [Double], _ y: [Double], from first: Int, to last: Int, keep: inout [Bool]) {
        let toleranceSquared = tolerance * tolerance
        var pending = [(first, last)]
        while let (start, end) = pending.popLast() {
            guard end > start + 1 else { continue }
            var farthest = start + 1, farthestDistance = -1.0
            for index in (start + 1)..<end {
                let distance = Self.segmentDistanceSquared(x, y, index, start, end)
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            guard farthestDistance > toleranceSquared else { continue }
            keep[farthest] = true
            pending.append((start, farthest))
            pending.append((farthest, end))
        }
    }

    /// Squared plane distance from vertex `point` to the segment from vertex `start` to vertex `end`.
    static func segmentDistanceSquared(_ x: [Double], _ y: [Double], _ point: Int, _ start: Int, _ end: Int) -> Double {
        segmentDistanceSquared(px: x[point], py: y[point], ax: x[start], ay: y[start], bx: x[end], by: y[end])
    }

    /// Squared distance from (px, py) to the segment (ax, ay)-(bx, by).
    static func segmentDistanceSquared(
        px: Double, py: Double, ax: Double, ay: Double, bx: Double, by: Double
    ) -> Double {
        let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
        var t = length > 0 ? ((px - ax) * dx + (py - ay) * dy) / length : 0
        t = min(max(t, 0), 1)
        let ex = ax + t * dx - px, ey = ay + t * dy - py
        return ex * ex + ey * ey
    }
}
