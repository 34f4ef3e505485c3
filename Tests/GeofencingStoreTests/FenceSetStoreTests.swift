// The applied fence-set version and `applyFenceSet`'s one transaction; the upgrade of a version-3 file to 4.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Fence sets in the store")
struct FenceSetStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("unit.sqlite")
    }

    @Test func versionIsStoredAndSurvivesReopening() throws {
        do {
            let store = try GeofenceStore(path: path)
            #expect(try store.fenceSetVersion() == nil)
            try store.applyFenceSet(version: "v1", expectedVersion: nil,
                                    upsert: [Fixture.region("a"), Fixture.region("b")], remove: [])
            try store.applyFenceSet(version: "v2", expectedVersion: "v1", upsert: [], remove: ["a"])
        }
        let reopened = try GeofenceStore(path: path, readOnly: true)
        #expect(try reopened.fenceSetVersion() == "v2")
        #expect(try reopened.regions() == [.new(Fixture.region("b"))])
    }

    @Test func upsertKeepsTheStatesOfIdentifiersThatStay() throws {
        let store = try GeofenceStore(path: path)
        try store.applyFenceSet(version: "v1", expectedVersion: nil, upsert: [Fixture.region("a")], remove: [])
        try store.append([], states: ["a": Fixture.inside(since: 5)])
        let wider = Fixture.region("a", radius: 250)
        try store.applyFenceSet(version: "v2", expectedVersion: "v1", upsert: [wider, Fixture.region("c")],
                                remove: [])
        #expect(try store.regions() == [StoredRegion(region: wider, stateRecord: Fixture.inside(since: 5)),
                                        .new(Fixture.region("c"))])
    }

    /// A version that moved meanwhile, or a removal of a region not stored, writes nothing: not even the upserts
    /// that came before the failing step in the transaction.
    @Test func aFailedApplicationChangesNothing() throws {
        let store = try GeofenceStore(path: path)
        try store.applyFenceSet(version: "v1", expectedVersion: nil, upsert: [Fixture.region("a")], remove: [])
        let before = try store.regions()
        #expect(throws: StoreError.self) {
            try store.applyFenceSet(version: "v2", expectedVersion: "v0", upsert: [Fixture.region("b")], remove: [])
        }
        #expect(throws: StoreError.self) {
            try store.applyFenceSet(version: "v2", expectedVersion: "v1", upsert: [Fixture.region("b")],
                                    remove: ["a", "missing"])
        }
        #expect(try store.regions() == before)
        #expect(try store.fenceSetVersion() == "v1")
    }

    @Test func readOnlyStoreRefusesToApply() throws {
        _ = try GeofenceStore(path: path)
        let store = try GeofenceStore(path: path, readOnly: true)
        #expect(throws: StoreError.self) {
            try store.applyFenceSet(version: "v1", expectedVersion: nil, upsert: [], remove: [])
        }
    }
}

/// Version 3 -> 4: a version-3 file (today's file without the fence_set table, as the builds before fence sets
/// wrote it) gains the table and keeps everything else.
@Suite("Schema migration 3 -> 4", .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct SchemaVersionThreeMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v3.sqlite")
    }

    /// A version-3 store with a region inside and an event: the current file with the additions of versions 4 to 7
    /// undone.
    func makeVersionThreeStore() throws {
        do {
            let store = try GeofenceStore(path: path)
            try store.upsertRegions([Fixture.region("depot")])
            try store.append([Fixture.event(1, .enter, "depot")], states: ["depot": Fixture.inside(since: 0)])
        }
        try run(SQLiteShell.executable, [path, ZoneRulesMigrationTests.undoZoneRules])
        try run(SQLiteShell.executable, [
            path, "DROP TABLE fence_set; ALTER TABLE events DROP COLUMN crossed_at; PRAGMA user_version = 3;",
        ])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "3\n")
    }

    @Test("opening a version-3 store for writing upgrades it to 4 and keeps everything")
    func upgradesVersionThree() throws {
        try makeVersionThreeStore()
        do {
            let store = try GeofenceStore(path: path)
            #expect(try store.fenceSetVersion() == nil)
            #expect(try store.regions() == [StoredRegion(region: Fixture.region("depot"),
                                                         stateRecord: Fixture.inside(since: 0))])
            #expect(try store.lastSequence() == 1)
            try store.applyFenceSet(version: "7", expectedVersion: nil, upsert: [], remove: [])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "\(StoreSQL.schemaVersion)\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
        #expect(try run(SQLiteShell.executable, [path, "SELECT version FROM fence_set"]) == "7\n")
    }

    @Test("a version-3 store opened read-only is refused, unchanged")
    func readOnlyVersionThreeIsRefused() throws {
        try makeVersionThreeStore()
        let before = fileBytes(path)
        #expect(throws: StoreError.schemaNeedsUpgrade(path: path, found: 3, current: StoreSQL.schemaVersion)) {
            _ = try GeofenceStore(path: path, readOnly: true)
        }
        #expect(fileBytes(path) == before)
    }
}
