// The events' crossing times in the store: kept bit-exact, NULL without one; the upgrade of a version-4 file (no
// events.crossed_at) to 5 in one transaction.
import CSQLite
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingStore
import Testing

@Suite("Crossing times in the store",
       .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct CrossingTimeStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v4.sqlite")
    }

    static func crossing(_ sequence: UInt64, crossedAt: Double?) -> EventRecord {
        var event = Fixture.event(sequence, .enter, "depot", at: Double(sequence))
        event.crossedAt = crossedAt.map(Fixture.time)
        return event
    }

    /// A version-4 store with a region inside and an event: the current file with the additions of versions 6 and 7
    /// undone and version 5's column dropped.
    func makeVersionFourStore() throws {
        do {
            let store = try GeofenceStore(path: path)
            try store.upsertRegions([Fixture.region("depot")])
            try store.append([Fixture.event(1, .enter, "depot")], states: ["depot": Fixture.inside(since: 0)])
        }
        try run(SQLiteShell.executable, [path, ZoneRulesMigrationTests.undoZoneRules])
        try run(SQLiteShell.executable, [path, "ALTER TABLE events DROP COLUMN crossed_at; PRAGMA user_version = 4;"])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "4\n")
    }

    @Test("kept bit-exact beside the event's time; NULL for an event without one")
    func roundTrip() throws {
        let store = try GeofenceStore(path: directory.path("new.sqlite"))
        let events = [Self.crossing(1, crossedAt: 0.1 / 3), Self.crossing(2, crossedAt: nil)]
        try store.append(events)
        #expect(try store.events(after: 0, limit: 10) == events)
        #expect(try run(SQLiteShell.executable, [directory.path("new.sqlite"),
                                                 "SELECT sequence, crossed_at IS NULL FROM events"]) == "1|0\n2|1\n")
    }

    @Test("opening a version-4 store for writing adds events.crossed_at, NULL in the events already there")
    func upgradesVersionFour() throws {
        try makeVersionFourStore()
        do {
            let store = try GeofenceStore(path: path)
            #expect(try store.events(after: 0, limit: 10) == [Fixture.event(1, .enter, "depot")])
            #expect(try store.regions() == [StoredRegion(region: Fixture.region("depot"),
                                                         stateRecord: Fixture.inside(since: 0))])
            try store.append([Self.crossing(2, crossedAt: 1.5)])
            #expect(try store.events(after: 1, limit: 10) == [Self.crossing(2, crossedAt: 1.5)])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "\(StoreSQL.schemaVersion)\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
    }

    @Test("a failure while adding the column leaves the version-4 file untouched",
          arguments: ["migrate to version 5: add events.crossed_at", "migrate to version 5: set user_version"])
    func failedUpgradeChangesNothing(failingStep: String) throws {
        try makeVersionFourStore()
        try expectUpgradeFailingAt(failingStep, leavesUnchanged: path)
        #expect(try GeofenceStore(path: path).events(after: 0, limit: 10) == [Fixture.event(1, .enter, "depot")])
    }

    @Test("a version-4 store opened read-only is refused, unchanged")
    func readOnlyVersionFourIsRefused() throws {
        try makeVersionFourStore()
        let before = fileBytes(path)
        #expect(throws: StoreError.schemaNeedsUpgrade(path: path, found: 4, current: StoreSQL.schemaVersion)) {
            _ = try GeofenceStore(path: path, readOnly: true)
        }
        #expect(fileBytes(path) == before)
    }
}
