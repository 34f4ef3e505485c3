import Geofencing

/// Groups a polygon region's rings into the parts of a GeoJSON MultiPolygon: each outer ring with the holes it
/// contains.
///
/// A `RegionShape.polygon` is inside by the even-odd rule over all its rings, so its rings may come in any order;
/// GIS tools read a GeoJSON Polygon as one outer ring and holes inside it, and a MultiPolygon as parts that do not
/// overlap. The grouping: a ring's depth is the number of other rings containing it; even depth makes it the outer
/// ring of a part (depth 0, or an island in a hole), odd depth a hole of the containing ring of depth one less (the
/// earliest such ring when overlapping parts offer several). Parts come in the order of their outer rings, each
/// with its holes in their order, so rings already in that order (as every GeoJSON file gives them) keep it.
///
/// Containment of ring i in ring j is decided on one vertex of i: the first that is not on j's boundary (rings of
/// non-overlapping parts may share vertices and edges), by the even-odd rule in (longitude, latitude) as the core
/// classifies. Cost: for a valid ring set (`RingSet`: what the reader and the monitor take), the core's nesting,
/// O(V log V); otherwise a bounding-box test per pair of rings, and a point-in-ring test (linear in j's vertices) for
/// pairs whose boxes overlap.
enum FenceRingGrouping {
    /// The parts, as indices into `rings`: each part's first index is its outer ring, the others its holes.
    static func parts(_ rings: [[Coordinate]]) -> [[Int]] {
        if let parents = try? RingSet.nesting(rings) { return parts(parents: parents) }
        let boxes = rings.map(Box.init)
        var containers: [[Int]] = Array(repeating: [], count: rings.count)
        for i in rings.indices {
            for j in rings.indices where i != j && boxes[j].contains(boxes[i]) {
                if ringLies(rings[i], inside: rings[j]) { containers[i].append(j) }
            }
        }
        let depth = containers.map(\.count)
        var parts: [[Int]] = []
        var partOfShell: [Int: Int] = [:]
        for index in rings.indices where depth[index] % 2 == 0 {
            partOfShell[index] = parts.count
            parts.append([index])
        }
        for index in rings.indices where depth[index] % 2 == 1 {
            // The parent: a container one level up (the first of them in ring order).
            let parent = containers[index].filter { depth[$0] == depth[index] - 1 }.min()
            if let parent, let part = partOfShell[parent] {
                parts[part].append(index)
            } else {
                // Only overlapping rings get here (no container one level up): a part of its own.
                partOfShell[index] = parts.count
                parts.append([index])
            }
        }
        return parts.sorted { $0[0] < $1[0] }
    }

    /// The parts of a valid ring set from the core's nesting (`RingSet`): O(V log V) however many rings. A ring at
    /// even depth is an outer ring, one at odd depth a hole of its parent.
    private static func parts(parents: [Int?]) -> [[Int]] {
        var depth = [Int](repeating: -1, count: parents.count)
        func depthOf(_ ring: Int) -> Int {
            if depth[ring] < 0 { depth[ring] = parents[ring].map { depthOf($0) + 1 } ?? 0 }
            return depth[ring]
        }
        var parts: [[Int]] = []
        var partOfShell: [Int: Int] = [:]
        for ring in parents.indices where depthOf(ring) % 2 == 0 {
            partOfShell[ring] = parts.count
            parts.append([ring])
        }
        for ring in parents.indices where depthOf(ring) % 2 == 1 {
            if let parent = parents[ring], let part = partOfShell[parent] { parts[part].append(ring) }
        }
        return parts
    }

    /// The rings in the order of `parts`: the order a MultiPolygon written from them reads back in.
    static func canonical(_ rings: [[Coordinate]]) -> [[Coordinate]] {
        let order = parts(rings).flatMap { $0 }
        return order == Array(rings.indices) ? rings : order.map { rings[$0] }
    }

    /// Whether `ring` lies inside `container`, judged on its first vertex off the container's boundary (false when
    /// every vertex is on it: the same ring twice).
    private static func ringLies(_ ring: [Coordinate], inside container: [Coordinate]) -> Bool {
        for vertex in ring {
            switch classify(vertex, container) {
            case .inside: return true
            case .outside: return false
            case .boundary: continue
            }
        }
        return false
    }

    private enum Place { case inside, outside, boundary }

    /// Even-odd crossing test of `point` against the closed ring (a closing vertex, if any, adds an empty edge).
    private static func classify(_ point: Coordinate, _ ring: [Coordinate]) -> Place {
        let x = point.longitude, y = point.latitude
        var inside = false
        var previous = ring[ring.count - 1]
        for current in ring {
            let (x1, y1, x2, y2) = (previous.longitude, previous.latitude, current.longitude, current.latitude)
            previous = current
            // On the edge: collinear and within its box.
            let cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
            if cross == 0, min(x1, x2) <= x, x <= max(x1, x2), min(y1, y2) <= y, y <= max(y1, y2) { return .boundary }
            if (y1 > y) != (y2 > y), x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) { inside.toggle() }
        }
        return inside ? .inside : .outside
    }

    private struct Box {
        var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity

        init(_ ring: [Coordinate]) {
            for point in ring {
                west = min(west, point.longitude)
                east = max(east, point.longitude)
                south = min(south, point.latitude)
                north = max(north, point.latitude)
            }
        }

        func contains(_ other: Box) -> Bool {
            west <= other.west && other.east <= east && south <= other.south && other.north <= north
        }
    }
}
