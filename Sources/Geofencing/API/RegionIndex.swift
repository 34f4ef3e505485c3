import CGeofence

/// A fixed set of regions for one-off questions without states or events: which regions contain this
/// coordinate, and how far inside it is. The counterpart of `CLRegion.contains(_:)` for many regions at once
/// (the `geofence query` batch command).
///
/// Classification is the core's: circles within the band (2 cm + 1e-4 of the radius) of the WGS-84 geodesic answer;
/// polygons exact on the e7 coordinates; corridors within 20 mm + 1e-7 of the distance.
/// Thread-safe (`Sendable`): queries take one lock, because the core's query buffer is reused.
public final class RegionIndex: Sendable {
    /// The regions, in the order given (identifiers unique).
    public let regions: [Region]
    private let table: Locked<CoreFenceTable>

    /// Builds the index. Throws the first region's error (as `startMonitoringOrThrow(for:)` would), or
    /// `duplicateIdentifier` when two regions share an identifier.
    public init(regions: [Region]) throws(RegionMonitorError) {
        let table = try CoreFenceTable(capacity: max(1, regions.count))
        var identifiers = Set<String>()
        for (slot, region) in regions.enumerated() {
            guard identifiers.insert(region.identifier).inserted else { throw .duplicateIdentifier(region.identifier) }
            let handle = try table.add(try region.coreShape())
            // A fresh table hands out slots 0, 1, 2, ... in order: the slot is the region's index.
            precondition(CoreFenceTable.slot(of: handle) == slot, "a fresh core table gave slots out of order")
        }
        self.regions = regions
        self.table = Locked(table)
    }

    /// The regions containing `coordinate`, with the signed distance from each one's boundary in metres (negative:
    /// inside; a fix exactly on the boundary, distance 0, counts as inside), in the order the regions were given.
    /// Empty for an invalid coordinate.
    public func regions(containing coordinate: Coordinate) -> [(region: Region, distance: Double)] {
        guard let point = CoreFenceTable.point(coordinate) else { return [] }
        var found: [(slot: Int, distance: Double)] = []
        table.withLock { table in
            table.query(point, marginMillimetres: 0) { hits in
                for hit in hits where hit.distance_mm <= 0 {
                    let slot = CoreFenceTable.slot(of: hit.handle)
                    // A polygon's query depth is a lower bound away from its boundary: measure it exactly.
                    let distance = regions[slot].shape.isCircle
                        ? Double(hit.distance_mm) / 1000 : table.distance(from: point, to: hit.handle)
                    found.append((slot, distance))
                }
            }
        }
        return found.sorted { $0.slot < $1.slot }.map { (regions[$0.slot], $0.distance) }
    }
}
