// Schema versions 1 -> 2 -> 3: real version-1 and version-2 files (made by the sqlite3 shell from each version's
// DDL, as the builds before datums and before polygons wrote them) are upgraded in one transaction when opened for
// writing; a failure half way leaves them as they were.
import CSQLite
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Schema migration", .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct SchemaMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v1.sqlite")
    }

    /// Version 1's schema, verbatim as `StoreSQL.createSchema` wrote it before version 2 (commit 26544a2), with
    /// the pragmas that marked the file: the file a deployed daemon has on disk.
    static let versionOneSchema = """
        PRAGMA journal_mode = WAL;
        BEGIN;
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE regions (
            position        INTEGER PRIMARY KEY,
            identifier      TEXT NOT NULL UNIQUE,
            latitude        REAL NOT NULL,
            longitude       REAL NOT NULL,
            radius          REAL NOT NULL,
            notify_on_entry INTEGER NOT NULL CHECK (notify_on_entry IN (0, 1)),
            notify_on_exit  INTEGER NOT NULL CHECK (notify_on_exit IN (0, 1)),
            dwell_time      REAL,
            hysteresis      REAL,
            state           TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            known_state     TEXT NOT NULL CHECK (known_state IN ('unknown', 'inside', 'outside')),
            inside_since    REAL,
            dwell_reported  INTEGER NOT NULL CHECK (dwell_reported IN (0, 1))
        ) STRICT;
        CREATE TABLE events (
            sequence     INTEGER PRIMARY KEY CHECK (sequence > 0),
            kind         TEXT NOT NULL CHECK (kind IN ('enter', 'exit', 'dwell', 'approach', 'state')),
            region       TEXT NOT NULL,
            time         REAL NOT NULL,
            time_unix    REAL GENERATED ALWAYS AS (time + 978307200.0) VIRTUAL,
            latitude     REAL NOT NULL,
            longitude    REAL NOT NULL,
            distance     REAL,
            state        TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            inferred     INTEGER NOT NULL CHECK (inferred IN (0, 1)),
            interpolated INTEGER NOT NULL CHECK (interpolated IN (0, 1))
        ) STRICT;
        CREATE TABLE sinks (
            name   TEXT PRIMARY KEY NOT NULL,
            cursor INTEGER NOT NULL CHECK (cursor >= 0)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO meta (key, value) VALUES ('last_sequence', 2);
        PRAGMA application_id = 1197829958;
        PRAGMA user_version = 1;
        INSERT INTO regions VALUES (1, 'depot', -27.4698, 153.0251, 100, 1, 1, NULL, NULL, 'inside', 'inside',
            226362313.0, 0);
        INSERT INTO regions VALUES (2, 'O''Connell St', -27.47, 153.03, 250.5, 0, 1, 60, 5, 'outside', 'outside',
            NULL, 0);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
            interpolated) VALUES (1, 'state', 'depot', 226362300.0, -27.4698, 153.0251, 12.5, 'outside', 0, 0);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
            interpolated) VALUES (2, 'enter', 'depot', 226362313.0, -27.4698, 153.0251, -3.25, 'inside', 0, 0);
        INSERT INTO sinks VALUES ('jsonl', 1);
        COMMIT;
        """

    private func makeVersionOneStore() throws {
        try run(SQLiteShell.executable, ["-batch", path, Self.versionOneSchema])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "1\n")
    }

    /// What the version-1 file held, as the store reads it after the upgrade.
    private func expectVersionOneContent(_ store: GeofenceStore) throws {
        let regions = try store.regions()
        #expect(regions.map(\.region.identifier) == ["depot", "O'Connell St"])
        #expect(regions.allSatisfy { $0.region.sourceDatum == .wgs84 && $0.region.approach == nil })
        #expect(regions[0].region.center == Coordinate(latitude: -27.4698, longitude: 153.0251))
        #expect(regions[0].stateRecord.state == .inside)
        #expect(regions[0].stateRecord.insideSince == Date(timeIntervalSinceReferenceDate: 226_362_313))
        #expect(regions[1].region.radius == 250.5 && regions[1].region.dwellTime == 60
            && regions[1].region.hysteresis == 5 && !regions[1].region.notifyOnEntry)
        #expect(try store.lastSequence() == 2)
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [2])
    }

    @Test("opening a version-1 store for writing upgrades it through versions 2 and 3 to 4 and keeps everything")
    func upgradesVersionOne() throws {
        try makeVersionOneStore()
        do {
            let store = try GeofenceStore(path: path)
            try expectVersionOneContent(store)
            // The new columns work: a GCJ-02 region and an approach alarm, stored and read back.
            let gcj = Region(center: Coordinate(latitude: 39.91334545536069, longitude: 116.38404722455657),
                                     in: .gcj02, radius: 80, identifier: "beijing")
            var depot = try #require(try store.region(identifier: "depot")).region
            depot.approach = ApproachAlarm(leadTime: 45, maximumDistance: 600)
            try store.upsertRegions([gcj, depot])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "\(StoreSQL.schemaVersion)\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
        let reopened = try GeofenceStore(path: path, readOnly: true)
        let beijing = try #require(try reopened.region(identifier: "beijing"))
        #expect(beijing.region.sourceDatum == .gcj02)
        // Stored in WGS-84: the eviltransform test point's WGS-84 position (see DatumTests), to the iteration's bound.
        #expect(abs(beijing.region.center.latitude - 39.911954) < 2e-9)
        #expect(abs(beijing.region.center.longitude - 116.377817) < 2e-9)
        let depot = try #require(try reopened.region(identifier: "depot"))
        #expect(depot.region.approach == ApproachAlarm(leadTime: 45, maximumDistance: 600))
        #expect(depot.stateRecord.state == .inside, "changing the definition keeps the state")
    }

    @Test("a version-1 store opened read-only: schemaNeedsUpgrade, the file unchanged")
    func readOnlyRefusesVersionOne() throws {
        try makeVersionOneStore()
        let before = try #require(fileBytes(path))
        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: path, readOnly: true) }
        #expect(error == .schemaNeedsUpgrade(path: path, found: 1, current: StoreSQL.schemaVersion))
        #expect(error?.description.contains("version 1") == true)
        #expect(fileBytes(path) == before)
    }

    /// Each step failing in turn (the disk full at every ALTER and version pragma of 1 -> 2, and at steps of each
    /// later upgrade up to 7, which run in the same transaction): the open throws, and the file is byte for byte
    /// the version-1 file, which then upgrades normally.
    @Test("a failure during the migration leaves the version-1 file untouched", arguments: [
        "migrate to version 2: add regions.source_datum", "migrate to version 2: add regions.approach_seconds",
        "migrate to version 2: add regions.approach_distance", "migrate to version 2: set user_version",
        "migrate to version 3: copy regions as circles", "migrate to version 3: set user_version",
        "migrate to version 4: create fence_set", "migrate to version 4: set user_version",
        "migrate to version 5: add events.crossed_at", "migrate to version 5: set user_version",
        "migrate to version 6 (zone rules): copy events", "migrate to version 6 (zone rules): set user_version",
        "migrate to version 7 (overspeed episodes): add regions.overspeed_latest",
        "migrate to version 7 (overspeed episodes): set user_version",
    ])
    func failedMigrationChangesNothing(failingStep: String) throws {
        try makeVersionOneStore()
        let schemaBefore = try run(SQLiteShell.executable, [path, ".schema"])
        try expectUpgradeFailingAt(failingStep, leavesUnchanged: path)
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "1\n")
        #expect(try run(SQLiteShell.executable, [path, ".schema"]) == schemaBefore)

        let store = try GeofenceStore(path: path)
        try expectVersionOneContent(store)
    }

    @Test("a new store is created at the current version with the datum, approach and shape columns")
    func newStoreIsCurrentVersion() throws {
        let fresh = directory.path("new.sqlite")
        do {
            let store = try GeofenceStore(path: fresh)
            let tokyo = Region(center: Coordinate(latitude: 35.6548652, longitude: 139.7445839), in: .tokyo,
                                       radius: 120, identifier: "origin")
            try store.upsertRegions([tokyo])
            #expect(try store.region(identifier: "origin")?.region == tokyo)
        }
        #expect(try run(SQLiteShell.executable, [fresh, "PRAGMA user_version"]) == "\(StoreSQL.schemaVersion)\n")
        let columns = try run(SQLiteShell.executable, [fresh, "SELECT name FROM pragma_table_info('regions')"])
        #expect(columns.contains("source_datum\napproach_seconds\napproach_distance\n"))
        #expect(columns.contains("identifier\nshape\nlatitude\nlongitude\nradius\ngeometry\n"))
        // The CHECK constraint refuses a datum the library does not know.
        #expect(throws: CommandFailure.self) {
            try run(SQLiteShell.executable, [fresh, "UPDATE regions SET source_datum = 'nad27'"])
        }
    }

    @Test("a region's approach alarm is part of its definition: stored, replaced, refused when not positive")
    func approachValidation() throws {
        let store = try GeofenceStore(path: directory.path("a.sqlite"))
        var region = Fixture.region("r")
        region.approach = ApproachAlarm(leadTime: 30)
        try store.upsertRegions([region])
        for (seconds, distance) in [(0.0, 10.0), (-5, nil), (.nan, nil), (30, -1)] as [(Double, Double?)] {
            var bad = Fixture.region("r", radius: 300)
            bad.approach = ApproachAlarm(leadTime: seconds, maximumDistance: distance)
            let error = #expect(throws: StoreError.self) { try store.upsertRegions([bad]) }
            #expect(error?.description.contains("\"r\"") == true, "\(String(describing: error))")
        }
        let stored = try #require(try store.region(identifier: "r"))
        #expect(stored.region.approach == ApproachAlarm(leadTime: 30) && stored.region.radius == region.radius,
                "a refused definition writes nothing")
        // Replacing the definition replaces the alarm with it.
        try store.upsertRegions([Fixture.region("r", radius: 300)])
        #expect(try store.region(identifier: "r")?.region.approach == nil)
    }
}
