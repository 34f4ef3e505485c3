// Schema version 2 -> 3: a real version-2 file (made by the sqlite3 shell from version 2's DDL, as the build before
// polygons wrote it) gets the shape and geometry columns by a rebuild of its regions table, in one transaction;
// every region comes back as the circle it was, with its position, state, stay, datum and approach alarm.
import CSQLite
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Schema migration from version 2", .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct SchemaVersionTwoMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v2.sqlite")
    }

    /// Version 2's schema, verbatim as `StoreSQL.createSchema` wrote it before version 3 (commit 06f8f67, the
    /// column definitions expanded), with the pragmas that marked the file, and rows that use every column.
    static let versionTwoSchema = """
        PRAGMA journal_mode = WAL;
        BEGIN;
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE regions (
            position        INTEGER PRIMARY KEY,  -- insertion order; a replaced region keeps its place
            identifier      TEXT NOT NULL UNIQUE,
            latitude        REAL NOT NULL,        -- degrees, WGS-84
            longitude       REAL NOT NULL,        -- degrees, WGS-84
            radius          REAL NOT NULL,        -- metres
            notify_on_entry INTEGER NOT NULL CHECK (notify_on_entry IN (0, 1)),
            notify_on_exit  INTEGER NOT NULL CHECK (notify_on_exit IN (0, 1)),
            dwell_time      REAL,                 -- seconds; NULL: no dwell event
            hysteresis      REAL,                 -- metres; NULL: the monitor's default
            state           TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            known_state     TEXT NOT NULL CHECK (known_state IN ('unknown', 'inside', 'outside')),
            inside_since    REAL,                 -- GNSS time (seconds since 2001); NULL unless inside
            dwell_reported  INTEGER NOT NULL CHECK (dwell_reported IN (0, 1)),
            source_datum TEXT NOT NULL DEFAULT 'wgs84' CHECK (source_datum IN ('wgs84', 'gcj02', 'tokyo')),
            approach_seconds REAL CHECK (approach_seconds > 0),
            approach_distance REAL CHECK (approach_distance > 0)
        ) STRICT;

        -- The outbox. No foreign key to regions: an event outlives the region it concerns.
        CREATE TABLE events (
            sequence     INTEGER PRIMARY KEY CHECK (sequence > 0),
            kind         TEXT NOT NULL CHECK (kind IN ('enter', 'exit', 'dwell', 'approach', 'state')),
            region       TEXT NOT NULL,
            time         REAL NOT NULL,           -- GNSS time, seconds since 2001 (bit-exact Date)
            time_unix    REAL GENERATED ALWAYS AS (time + 978307200.0) VIRTUAL,
            latitude     REAL NOT NULL,
            longitude    REAL NOT NULL,
            distance     REAL,                    -- metres, negative inside; NULL when the state is unknown
            state        TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            inferred     INTEGER NOT NULL CHECK (inferred IN (0, 1)),
            interpolated INTEGER NOT NULL CHECK (interpolated IN (0, 1))
        ) STRICT;

        -- Delivery cursors: each sink has delivered every event with sequence <= cursor.
        CREATE TABLE sinks (
            name   TEXT PRIMARY KEY NOT NULL,
            cursor INTEGER NOT NULL CHECK (cursor >= 0)
        ) STRICT, WITHOUT ROWID;

        INSERT INTO meta (key, value) VALUES ('last_sequence', 3);
        PRAGMA application_id = 1197829958;
        PRAGMA user_version = 2;
        INSERT INTO regions VALUES (1, 'depot', -27.4698, 153.0251, 100, 1, 1, NULL, NULL, 'inside', 'inside',
            226362313.0, 1, 'wgs84', 45, 600);
        INSERT INTO regions VALUES (3, 'beijing', 39.911954, 116.377817, 80, 0, 1, 60, 5, 'outside', 'outside',
            NULL, 0, 'gcj02', NULL, NULL);
        INSERT INTO regions VALUES (7, 'O''Connell St', 0.3333333333333333, -0.6666666666666666, 14.285714285714286,
            1, 0, NULL, 1e-300, 'unknown', 'inside', 226362000.5, 0, 'tokyo', 30, NULL);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
            interpolated) VALUES (1, 'state', 'depot', 226362300.0, -27.4698, 153.0251, 12.5, 'outside', 0, 0);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
            interpolated) VALUES (2, 'enter', 'depot', 226362313.0, -27.4698, 153.0251, -3.25, 'inside', 0, 1);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
            interpolated) VALUES (3, 'dwell', 'depot', 226362373.0, -27.4698, 153.0251, -4.5, 'inside', 0, 0);
        INSERT INTO sinks VALUES ('jsonl', 1);
        INSERT INTO sinks VALUES ('mqtt', 3);
        COMMIT;
        """

    private func makeVersionTwoStore() throws {
        try run(SQLiteShell.executable, ["-batch", path, Self.versionTwoSchema])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "2\n")
    }

    /// The version-2 file's regions, as the store must read them after the upgrade.
    private static let expectedRegions: [StoredRegion] = {
        var depot = Region(center: Coordinate(latitude: -27.4698, longitude: 153.0251), radius: 100,
                           identifier: "depot")
        depot.approach = ApproachAlarm(leadTime: 45, maximumDistance: 600)
        var beijing = Region(center: Coordinate(latitude: 39.911954, longitude: 116.377817), radius: 80,
                             identifier: "beijing", notifyOnEntry: false, dwellTime: 60, hysteresis: 5)
        beijing.sourceDatum = .gcj02
        var street = Region(center: Coordinate(latitude: 1.0 / 3.0, longitude: -2.0 / 3.0), radius: 100.0 / 7.0,
                            identifier: "O'Connell St", notifyOnExit: false, hysteresis: 1e-300)
        street.sourceDatum = .tokyo
        street.approach = ApproachAlarm(leadTime: 30)
        return [
            StoredRegion(region: depot, stateRecord: RegionStateRecord(
                state: .inside, insideSince: Date(timeIntervalSinceReferenceDate: 226_362_313), dwellReported: true)),
            StoredRegion(region: beijing, stateRecord: RegionStateRecord(state: .outside)),
            StoredRegion(region: street, stateRecord: RegionStateRecord(
                state: .unknown, lastKnownState: .inside,
                insideSince: Date(timeIntervalSinceReferenceDate: 226_362_000.5))),
        ]
    }()

    private func expectVersionTwoContent(_ store: GeofenceStore) throws {
        #expect(try store.regions() == Self.expectedRegions)
        #expect(try store.lastSequence() == 3)
        #expect(try store.sinks() == ["jsonl": 1, "mqtt": 3])
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [2, 3])
        #expect(try store.events(after: 0, limit: 10).map(\.interpolated) == [false, true, false])
    }

    @Test("opening a version-2 store for writing upgrades it to 3 and 4: every region a circle, all else kept")
    func upgradesVersionTwo() throws {
        try makeVersionTwoStore()
        let corridor = Region(
            shape: .corridor(path: [Coordinate(latitude: -27.47, longitude: 153.02),
                                    Coordinate(latitude: -27.48, longitude: 153.03)], halfWidth: 25),
            identifier: "route")
        do {
            let store = try GeofenceStore(path: path)
            try expectVersionTwoContent(store)
            // The new columns work in the upgraded file; the new region goes after the old ones.
            try store.upsertRegions([corridor])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "\(StoreSQL.schemaVersion)\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
        #expect(try run(SQLiteShell.executable, [path, "SELECT position FROM regions ORDER BY position"])
            == "1\n3\n7\n8\n", "positions are kept, so the order is")
        let reopened = try GeofenceStore(path: path, readOnly: true)
        #expect(try reopened.regions() == Self.expectedRegions + [.new(corridor)])
    }

    @Test("the upgraded file has the same regions table as a new one, and no trace of the old")
    func upgradedSchemaMatchesNewSchema() throws {
        try makeVersionTwoStore()
        _ = try GeofenceStore(path: path)
        let fresh = directory.path("fresh.sqlite")
        _ = try GeofenceStore(path: fresh)
        // The events table's text differs (ALTER TABLE ADD COLUMN appends its column), its columns do not.
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name != 'events' ORDER BY name"
        let upgraded = try run(SQLiteShell.executable, [path, schema])
        #expect(upgraded == (try run(SQLiteShell.executable, [fresh, schema])))
        let columns = "SELECT * FROM pragma_table_xinfo('events')"
        #expect(try run(SQLiteShell.executable, [path, columns]) == (try run(SQLiteShell.executable, [fresh, columns])))
        #expect(!upgraded.contains("regions_version_2"))
        #expect(upgraded.contains("CHECK ((geometry IS NULL) = (shape = 'circle'))"))
    }

    @Test("a version-2 store opened read-only: schemaNeedsUpgrade, the file unchanged")
    func readOnlyRefusesVersionTwo() throws {
        try makeVersionTwoStore()
        let before = try #require(fileBytes(path))
        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: path, readOnly: true) }
        #expect(error == .schemaNeedsUpgrade(path: path, found: 2, current: StoreSQL.schemaVersion))
        #expect(fileBytes(path) == before)
    }

    /// Every step of 2 -> 3 failing in turn (disk full): the open throws, the file is byte for byte the version-2
    /// file (the rename and the new table rolled back with the rest), and it then upgrades normally.
    @Test("a failure during the rebuild leaves the version-2 file untouched", arguments: [
        "migrate to version 3: rename regions", "migrate to version 3: create regions",
        "migrate to version 3: copy regions as circles", "migrate to version 3: drop the old regions",
        "migrate to version 3: set user_version",
    ])
    func failedMigrationChangesNothing(failingStep: String) throws {
        try makeVersionTwoStore()
        let schemaBefore = try run(SQLiteShell.executable, [path, ".schema"])
        try expectUpgradeFailingAt(failingStep, leavesUnchanged: path)
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "2\n")
        #expect(try run(SQLiteShell.executable, [path, ".schema"]) == schemaBefore)

        let store = try GeofenceStore(path: path)
        try expectVersionTwoContent(store)
    }
}
