// Schema version 5 -> 6 (zone rules): a real version-5 file is upgraded in one transaction, keeping its regions,
// states, events and cursors; a failure in any step of the upgrade leaves it as it was; the new columns and event
// kinds are stored and read back, and bad zone rules are refused naming the region and the field.
import CSQLite
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingStore
import Testing

@Suite("Schema migration: zone rules", .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct ZoneRulesMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v5.sqlite")
    }

    /// Version 5's outbox, verbatim as `StoreSQL.createSchema` wrote it before the zone rules (version 4's with
    /// events.crossed_at).
    static let versionFiveEvents = """
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
            interpolated INTEGER NOT NULL CHECK (interpolated IN (0, 1)),
            crossed_at   REAL                     -- estimated boundary crossing, seconds since 2001; NULL: none
        ) STRICT
        """

    /// Undoes version 7's and 6's additions in a file this build wrote: version 5's file, as a deployed unit has
    /// it.
    static let undoZoneRules = OverspeedEpisodeMigrationTests.undoOverspeedEpisodes + """

        BEGIN;
        ALTER TABLE regions DROP COLUMN speed_limit_kmh;
        ALTER TABLE regions DROP COLUMN speed_tolerance_kmh;
        ALTER TABLE regions DROP COLUMN speed_duration_s;
        ALTER TABLE regions DROP COLUMN schedule;
        ALTER TABLE events RENAME TO events_6;
        \(versionFiveEvents);
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred, interpolated,
                crossed_at)
            SELECT sequence, kind, region, time, latitude, longitude, distance, state, inferred, interpolated,
                crossed_at
            FROM events_6;
        DROP TABLE events_6;
        PRAGMA user_version = 5;
        COMMIT;
        """

    /// The enter of the version-5 store, with a crossing time (version 5's column, which the rebuild keeps).
    static let crossingEnter: EventRecord = {
        var enter = Fixture.event(2, .enter, "depot")
        enter.crossedAt = Date(timeIntervalSinceReferenceDate: -0.1 / 3)
        return enter
    }()

    /// A version-5 store with a region inside, two events (the enter with its crossing time) and a sink.
    static func makeVersionFiveStore(at path: String) throws {
        do {
            let store = try GeofenceStore(path: path)
            _ = try store.upsertRegions([Fixture.region("depot")])
            // Registered first: a new sink starts at the newest event.
            try store.registerSink("jsonl")
            try store.append([Fixture.event(1, .state, "depot", state: .outside), Self.crossingEnter],
                             states: ["depot": Fixture.inside(since: 0)])
            try store.markDelivered(sink: "jsonl", through: 1)
        }
        try run(SQLiteShell.executable, [path, undoZoneRules])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "5\n")
    }

    private func expectVersionFiveContent(_ store: GeofenceStore) throws {
        #expect(try store.regions() == [StoredRegion(region: Fixture.region("depot"), stateRecord: Fixture.inside(since: 0))])
        #expect(try store.lastSequence() == 2)
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [2])
    }

    @Test("opening a version-5 store for writing upgrades it (to 7), keeps everything, and takes the zone rules")
    func upgradesVersionFive() throws {
        try Self.makeVersionFiveStore(at: path)
        var depot = Fixture.region("depot")
        depot.speedLimit = SpeedLimit(kilometresPerHour: 40, toleranceKilometresPerHour: 3, duration: 4)
        depot.schedule = try Schedule(parsing: "Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00")
        var overspeed = Fixture.event(3, .overspeed, "depot")
        overspeed.maximumSpeed = 15.5
        overspeed.overLimitDuration = 6
        do {
            let store = try GeofenceStore(path: path)
            try expectVersionFiveContent(store)
            _ = try store.upsertRegions([depot])
            try store.append([overspeed], states: [:])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "7\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
        let reopened = try GeofenceStore(path: path, readOnly: true)
        let stored = try #require(try reopened.region(identifier: "depot"))
        #expect(stored.region == depot)
        #expect(stored.stateRecord == Fixture.inside(since: 0), "changing the definition keeps the state")
        #expect(try reopened.undelivered(sink: "jsonl", limit: 10) == [Self.crossingEnter, overspeed])
        #expect(try run(SQLiteShell.executable, [path, "SELECT speed_limit_kmh, schedule FROM regions"])
            == "40.0|Australia/Brisbane Mo-Fr 07:00-09:00; Mo-Fr 14:30-16:00\n")
    }

    @Test("a failure in any step of the zone-rules upgrade leaves the version-5 file untouched", arguments:
        StoreSQL.zoneRulesMigration(to: 6).map(\.name))
    func failedMigrationChangesNothing(failingStep: String) throws {
        try Self.makeVersionFiveStore(at: path)
        try expectUpgradeFailingAt(failingStep, leavesUnchanged: path)
        try expectVersionFiveContent(try GeofenceStore(path: path))
    }

    /// The upgraded file's tables are a new file's, column for column and CHECK for CHECK: the rebuilt outbox
    /// (with version 5's crossed_at) and the regions table with the four added columns.
    @Test("an upgraded version-5 file has the tables of a new file")
    func upgradedSchemaIsNewSchema() throws {
        try Self.makeVersionFiveStore(at: path)
        let (upgraded, new) = try schemasAfterUpgrade(of: path, besideNewStoreAt: directory.path("new.sqlite"))
        #expect(upgraded == new)
        #expect(upgraded.contains("crossed_at") && upgraded.contains("'overspeed_end'")
            && upgraded.contains("speed_limit_kmh"))
    }

    @Test("bad zone rules are refused naming the region and the field; nothing stored changes")
    func badZoneRulesRefused() throws {
        let store = try GeofenceStore(path: directory.path("new.sqlite"))
        _ = try store.upsertRegions([Fixture.region("depot")])
        var absurd = Fixture.region("depot")
        absurd.speedLimit = SpeedLimit(kilometresPerHour: 9000)
        var unknownZone = Fixture.region("depot")
        unknownZone.schedule = Schedule(timeZoneIdentifier: "Mars/Base", windows: [.init(days: 1, start: 0, end: 60)])
        for (region, expected) in [(absurd, "speed_limit_kmh"), (unknownZone, "unknown time zone \"Mars/Base\"")] {
            let error = #expect(throws: StoreError.self) { _ = try store.upsertRegions([region]) }
            #expect(error.map { "\($0)".contains("\"depot\"") && "\($0)".contains(expected) } == true, "\(String(describing: error))")
        }
        #expect(try store.regions().map(\.region) == [Fixture.region("depot")])
    }
}
