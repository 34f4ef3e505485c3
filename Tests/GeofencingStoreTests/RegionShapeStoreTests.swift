// Polygons and corridors in the store: every vertex comes back bit for bit (closing vertices, holes, the parts of a
// multi-polygon, datum-converted shapes with their source datum); the table's CHECKs tie the columns to the shape;
// a row whose geometry text is damaged is refused by name, and nothing else is lost.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Stored region shapes")
struct RegionShapeStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    private static func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A square ring around (latitude, longitude), `size` degrees a side, closed (GeoJSON style) when asked.
    private static func square(_ latitude: Double, _ longitude: Double, size: Double, closed: Bool) -> [Coordinate] {
        let ring = [point(latitude, longitude), point(latitude, longitude + size),
                    point(latitude + size, longitude + size), point(latitude + size, longitude)]
        return closed ? ring + [ring[0]] : ring
    }

    /// One region of each kind, with numbers a decimal text round trip would change.
    static let shapedRegions: [Region] = {
        let holes = Region(
            shape: .polygon(rings: [square(-27.5, 153.0, size: 0.1, closed: true),
                                    square(-27.48, 153.02, size: 0.01, closed: true),
                                    square(-27.46, 153.05, size: 1.0 / 300.0, closed: false)]),
            identifier: "with holes", notifyOnExit: false, dwellTime: 120, hysteresis: 2.5)
        // Two parts side by side and an island in a hole of the first: rings that do not overlap.
        let parts = Region(
            shape: .polygon(rings: [square(52.0, 4.0, size: 0.5, closed: true),
                                    square(52.1, 4.1, size: 0.2, closed: true),
                                    square(52.15, 4.15, size: 0.05, closed: true),
                                    square(52.0, 5.0, size: 0.25, closed: true)]),
            identifier: "multi-polygon")
        let route = Region(
            shape: .corridor(path: [point(1.0 / 3.0, -2.0 / 3.0), point(0.3333334, -0.6), point(1e-7, -0.0),
                                    point(-84.99999999999999, 179.99999999999997)],
                             halfWidth: 100.0 / 7.0),
            identifier: "route \"A\"; DROP TABLE regions", notifyOnEntry: false)
        var alarm = Region(shape: .polygon(rings: [square(-33.9, 151.2, size: 0.02, closed: false)]),
                           identifier: "approach")
        alarm.approach = ApproachAlarm(leadTime: 60, maximumDistance: 800)
        // Given in GCJ-02 and Tokyo: stored in WGS-84, the source datum kept for export.
        let beijing = Region(
            shape: .polygon(rings: [[point(39.91, 116.38), point(39.92, 116.38), point(39.92, 116.39)]]),
            in: .gcj02, identifier: "beijing")
        let tokyo = Region(
            shape: .corridor(path: [point(35.6548652, 139.7445839), point(35.66, 139.75)], halfWidth: 30),
            in: .tokyo, identifier: "tokyo")
        let circle = Region(center: point(-27.4698, 153.0251), radius: 100, identifier: "circle")
        return [holes, parts, route, alarm, beijing, tokyo, circle]
    }()

    @Test("polygons with holes, multi-polygons, corridors and datum-converted shapes come back equal")
    func roundTrip() throws {
        let regions = Self.shapedRegions
        #expect(regions[4].sourceDatum == .gcj02 && regions[5].sourceDatum == .tokyo)
        #expect(regions[4].shape != regions[4].sourceShape, "the GCJ-02 polygon was converted")
        do {
            let store = try GeofenceStore(path: path)
            #expect(try store.upsertRegions(regions) == (added: regions.count, replaced: 0))
            #expect(try store.regions() == regions.map(StoredRegion.new))
        }
        let reopened = try GeofenceStore(path: path, readOnly: true)
        #expect(try reopened.regions() == regions.map(StoredRegion.new))
        for region in regions {
            #expect(try reopened.region(identifier: region.identifier)?.region == region)
        }
        #expect(try reopened.region(identifier: "beijing")?.region.sourceShape == Self.shapedRegions[4].sourceShape)
    }

    @Test("the columns a sqlite3 user sees: shape, the box centre, radius NULL for polygons, GeoJSON geometry",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
    func columnsAsStored() throws {
        let store = try GeofenceStore(path: path)
        let polygon = Region(shape: .polygon(rings: [Self.square(10, 20, size: 2, closed: true)]), identifier: "p")
        let corridor = Region(shape: .corridor(path: [Self.point(1, 2), Self.point(1e-5, 2.5)], halfWidth: 12.5),
                              identifier: "c")
        try store.upsertRegions([polygon, corridor])
        let rows = try run(SQLiteShell.executable, [
            path, "SELECT shape, latitude, longitude, quote(radius), geometry FROM regions ORDER BY position"])
        #expect(rows == """
            polygon|11.0|21.0|NULL|[[[20.0,10.0],[22.0,10.0],[22.0,12.0],[20.0,12.0],[20.0,10.0]]]
            corridor|0.500005|2.25|12.5|[[2.0,1.0],[2.5,1e-05]]

            """)
        // SQLite's own JSON reading agrees that the text is GeoJSON coordinates.
        #expect(try run(SQLiteShell.executable, [
            path, "SELECT json_extract(geometry, '$[0][2][1]') FROM regions WHERE identifier = 'p'"]) == "12.0\n")
    }

    @Test("a region changing shape keeps its state and its place")
    func changingShapeKeepsState() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("r"), Fixture.region("other")])
        try store.append([Fixture.event(1, .enter, "r", at: 10)], states: ["r": Fixture.inside(since: 10)])
        let before = try #require(try store.region(identifier: "r"))
        let polygon = Region(shape: .polygon(rings: [Self.square(-27.5, 153, size: 0.1, closed: true)]),
                             identifier: "r")
        #expect(try store.upsertRegions([polygon]) == (added: 0, replaced: 1))
        let after = try #require(try store.region(identifier: "r"))
        #expect(after.region == polygon)
        #expect(after.stateRecord == before.stateRecord && after.stateRecord.state == .inside)
        // And back to a circle: the geometry goes, the radius comes back.
        try store.upsertRegions([Fixture.region("r", radius: 42)])
        #expect(try store.region(identifier: "r")?.region == Fixture.region("r", radius: 42))
        #expect(try store.regions().map(\.region.identifier) == ["r", "other"])
    }

    static let unstorable: [(Region, String)] = [
        (Region(shape: .polygon(rings: []), identifier: "no rings"), "region \"no rings\": the polygon has no rings"),
        (Region(shape: .polygon(rings: [square(0, 0, size: 1, closed: true), []]), identifier: "empty ring"),
         "region \"empty ring\": ring 2 of the polygon has no vertices"),
        (Region(shape: .polygon(rings: [[point(0, 0), point(.nan, 1), point(1, 1)]]), identifier: "nan vertex"),
         "region \"nan vertex\": vertex 2 of ring 1 of the polygon, (nan, 1.0), is not finite"),
        (Region(shape: .corridor(path: [point(0, 0), point(1, .infinity)], halfWidth: 10), identifier: "inf"),
         "region \"inf\": vertex 2 of the corridor's path, (1.0, inf), is not finite"),
        (Region(shape: .corridor(path: [], halfWidth: 10), identifier: "no path"),
         "region \"no path\": the corridor's path has no vertices"),
        (Region(shape: .corridor(path: [point(0, 0), point(1, 1)], halfWidth: .nan), identifier: "nan width"),
         "region \"nan width\": the corridor's half-width is not a number"),
    ]

    @Test("a shape the store cannot keep is refused by name, and nothing of the call is written",
          arguments: unstorable)
    func unstorableShape(bad: Region, reason: String) throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("kept")])
        let error = #expect(throws: StoreError.self) {
            try store.upsertRegions([Self.shapedRegions[0], bad])
        }
        #expect(error == .invalidArgument(path: path, reason: reason))
        #expect(try store.regions().map(\.region.identifier) == ["kept"])
    }

    @Test("a large polygon (10^5 vertices) round-trips bit for bit")
    func largePolygon() throws {
        let count = 100_000
        let ring = (0..<count).map { index in
            let angle = Double(index) / Double(count) * 2 * .pi
            let wobble = 0.95 + 0.05 * sin(Double(index) * 12.9898)  // irregular digits, the same on every run
            return Self.point(-25 + 10 * wobble * sin(angle), 134 + 15 * wobble * cos(angle))
        }
        let region = Region(shape: .polygon(rings: [ring]), identifier: "big")
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([region])
        #expect(try GeofenceStore(path: path, readOnly: true).region(identifier: "big")?.region == region)
    }
}

/// Rows edited behind the store's back (the sqlite3 shell): the CHECKs refuse rows that break the shape's columns;
/// text that passes them but is not geometry makes the read throw `corrupt` naming the row.
@Suite("Damaged region shapes", .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct DamagedRegionShapeTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    private func makeStore() throws -> [Region] {
        let regions = [
            Fixture.region("circle"),
            Region(shape: .polygon(rings: [[Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                                             Coordinate(latitude: 1, longitude: 1)]]), identifier: "zone"),
            Region(shape: .corridor(path: [Coordinate(latitude: 0, longitude: 0),
                                           Coordinate(latitude: 1, longitude: 1)], halfWidth: 20), identifier: "road"),
        ]
        try GeofenceStore(path: path).upsertRegions(regions)
        return regions
    }

    @Test("the table's CHECKs refuse a row whose columns do not fit its shape", arguments: [
        "UPDATE regions SET radius = NULL WHERE identifier = 'circle'",
        "UPDATE regions SET geometry = '[[0,0]]' WHERE identifier = 'circle'",
        "UPDATE regions SET geometry = NULL WHERE identifier = 'zone'",
        "UPDATE regions SET radius = 5 WHERE identifier = 'zone'",
        "UPDATE regions SET radius = NULL WHERE identifier = 'road'",
        "UPDATE regions SET shape = 'square' WHERE identifier = 'road'",
        "UPDATE regions SET shape = 'circle' WHERE identifier = 'road'",
    ])
    func checksRefuseMismatchedColumns(update: String) throws {
        _ = try makeStore()
        #expect(throws: CommandFailure.self) { try run(SQLiteShell.executable, [path, update]) }
    }

    @Test("damaged geometry text: the read throws corrupt naming the row and the fault; nothing is lost", arguments: [
        ("zone", "[[[0,0],[1,0]", "regions row \"zone\" geometry: at character 14: ring 1 is not closed (the text ends)"),
        ("zone", "[[[0,0],[1,\"a\"]]]",
         "regions row \"zone\" geometry: at character 12: expected a number in position 2 of ring 1, found '\"'"),
        ("zone", "[]", "regions row \"zone\" geometry: the polygon has no rings"),
        ("zone", "[[]]", "regions row \"zone\" geometry: ring 1 has no positions"),
        ("zone", "[[0,0],[1,1]]", "regions row \"zone\" geometry: at character 3: expected '[' opening position 1 "
            + "of ring 1, found '0'"),
        ("road", "[[0,0,0],[1,1]]",
         "regions row \"road\" geometry: position 1 of the path has 3 numbers, not [longitude, latitude]"),
        ("road", "[[0,1e999],[1,1]]",
         "regions row \"road\" geometry: at character 5: '1e999' in position 1 of the path is not a finite number"),
        ("road", "[[0,0],[1,1]] x", "regions row \"road\" geometry: at character 15: unexpected 'x' after the "
            + "coordinates"),
    ])
    func damagedGeometry(identifier: String, text: String, detail: String) throws {
        let regions = try makeStore()
        try run(SQLiteShell.executable, [path, "UPDATE regions SET geometry = '\(text.replacingOccurrences(of: "'", with: "''"))' "
            + "WHERE identifier = '\(identifier)'"])
        let before = try #require(fileBytes(path))
        do {
            let store = try GeofenceStore(path: path)
            let error = #expect(throws: StoreError.self) { _ = try store.regions() }
            #expect(error == .corrupt(path: path, detail: detail))
            #expect(throws: StoreError.self) { _ = try store.region(identifier: identifier) }
            // The other rows read, and the file did not change.
            #expect(try store.region(identifier: "circle")?.region == regions[0])
        }
        #expect(fileBytes(path) == before, "a failed read changed the file")
        // Writing the definition again repairs the row, and its state is kept.
        let store = try GeofenceStore(path: path)
        try store.append([Fixture.event(1, .enter, identifier)], states: [identifier: Fixture.inside(since: 0)])
        let repaired = regions.first { $0.identifier == identifier }!
        try store.upsertRegions([repaired])
        let row = try #require(try store.region(identifier: identifier))
        #expect(row.region == repaired && row.stateRecord.state == .inside)
        #expect(try store.regions().map(\.region) == regions)
    }
}
