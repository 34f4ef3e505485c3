// Schema version 6 -> 7 (the overspeed episode of a region's state): a real version-6 file is upgraded in one
// transaction, keeping everything; a failure in any step leaves it as it was; an upgraded file's schema is a new
// file's; episodes are stored and read back exactly, bad ones refused naming the region, inconsistent rows corrupt.
import CSQLite
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingStore
import Testing

@Suite("Schema migration: overspeed episodes",
       .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
struct OverspeedEpisodeMigrationTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("v6.sqlite")
    }

    /// Undoes version 7's additions in a file this build wrote: version 6's file, as a deployed unit has it.
    static let undoOverspeedEpisodes = """
        BEGIN;
        ALTER TABLE regions DROP COLUMN overspeed_since;
        ALTER TABLE regions DROP COLUMN overspeed_max;
        ALTER TABLE regions DROP COLUMN overspeed_reported;
        ALTER TABLE regions DROP COLUMN overspeed_under;
        ALTER TABLE regions DROP COLUMN overspeed_latest;
        PRAGMA user_version = 6;
        COMMIT;
        """

    /// A school zone (a speed limit and a schedule), inside since t = 0.
    static var zone: Region {
        var region = Fixture.region("school")
        region.speedLimit = SpeedLimit(kilometresPerHour: 40)
        region.schedule = try? Schedule(parsing: "Australia/Brisbane Mo-Fr 07:00-09:00")
        return region
    }

    /// An episode reported, at the limit or under it since t = 40 (bit-exact times: thirds of a second).
    static let episode = OverspeedEpisode(
        overSince: Fixture.time(10 + 1.0 / 3), maximumSpeed: 20.5778, reported: true,
        underSince: Fixture.time(40 + 2.0 / 3), latestFix: Fixture.time(41))

    /// A version-6 store with the zone inside, an overspeed event delivered to a sink and its end not yet.
    static func makeVersionSixStore(at path: String) throws {
        do {
            let store = try GeofenceStore(path: path)
            _ = try store.upsertRegions([zone])
            try store.registerSink("jsonl")
            var overspeed = Fixture.event(1, .overspeed, "school", at: 15)
            overspeed.maximumSpeed = 20
            overspeed.overLimitDuration = 5
            try store.append([overspeed, Fixture.event(2, .overspeedEnd, "school", at: 50)],
                             states: ["school": Fixture.inside(since: 0)])
            try store.markDelivered(sink: "jsonl", through: 1)
        }
        try run(SQLiteShell.executable, [path, undoOverspeedEpisodes])
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "6\n")
    }

    private func expectVersionSixContent(_ store: GeofenceStore) throws {
        #expect(try store.regions() == [StoredRegion(region: Self.zone, stateRecord: Fixture.inside(since: 0))])
        #expect(try store.lastSequence() == 2)
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [2])
    }

    @Test("opening a version-6 store for writing upgrades it to 7, keeps everything, no episode, and takes one")
    func upgradesVersionSix() throws {
        try Self.makeVersionSixStore(at: path)
        do {
            let store = try GeofenceStore(path: path)
            try expectVersionSixContent(store)
            var record = Fixture.inside(since: 0)
            record.overspeed = Self.episode
            try store.append([], states: ["school": record])
        }
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA user_version"]) == "7\n")
        #expect(try run(SQLiteShell.executable, [path, "PRAGMA quick_check"]) == "ok\n")
        let reopened = try GeofenceStore(path: path, readOnly: true)
        let stored = try #require(try reopened.region(identifier: "school"))
        #expect(stored.region == Self.zone)
        #expect(stored.stateRecord.overspeed == Self.episode, "bit-exact times and speed")
        #expect(stored.stateRecord.insideSince == Fixture.time(0))
    }

    @Test("a failure in any step of the overspeed-episode upgrade leaves the version-6 file untouched", arguments:
        StoreSQL.overspeedEpisodeMigration(to: 7).map(\.name))
    func failedMigrationChangesNothing(failingStep: String) throws {
        try Self.makeVersionSixStore(at: path)
        try expectUpgradeFailingAt(failingStep, leavesUnchanged: path)
        try expectVersionSixContent(try GeofenceStore(path: path))
    }

    @Test("an upgraded version-6 file has the tables of a new file")
    func upgradedSchemaIsNewSchema() throws {
        try Self.makeVersionSixStore(at: path)
        let (upgraded, new) = try schemasAfterUpgrade(of: path, besideNewStoreAt: directory.path("new.sqlite"))
        #expect(upgraded == new)
        #expect(upgraded.contains("overspeed_since") && upgraded.contains("overspeed_latest"))
    }

    @Test("an episode ended is stored as none; a candidate not yet reported keeps reported false")
    func episodeRoundTrip() throws {
        let store = try GeofenceStore(path: directory.path("new.sqlite"))
        _ = try store.upsertRegions([Self.zone])
        var record = Fixture.inside(since: 0)
        record.overspeed = OverspeedEpisode(overSince: Fixture.time(3), maximumSpeed: 0, reported: false,
                                            latestFix: Fixture.time(4))
        try store.append([], states: ["school": record])
        #expect(try store.region(identifier: "school")?.stateRecord == record)
        record.overspeed = nil
        try store.append([], states: ["school": record])
        #expect(try store.region(identifier: "school")?.stateRecord == record)
        #expect(try run(SQLiteShell.executable, [directory.path("new.sqlite"),
            "SELECT count(*) FROM regions WHERE coalesce(overspeed_since, overspeed_max, overspeed_reported, "
                + "overspeed_under, overspeed_latest) IS NOT NULL"]) == "0\n")
    }

    @Test("bad episodes are refused naming the region; nothing of the call is written")
    func badEpisodesRefused() throws {
        let store = try GeofenceStore(path: directory.path("new.sqlite"))
        _ = try store.upsertRegions([Self.zone])
        let good = Self.episode
        var notANumber = good
        notANumber.maximumSpeed = .nan
        var negative = good
        negative.maximumSpeed = -1
        var underUnreported = good
        underUnreported.reported = false
        var nanTime = good
        nanTime.latestFix = Date(timeIntervalSinceReferenceDate: .nan)
        for (episode, expected) in [(notANumber, "not a number"), (negative, "negative"),
                                    (underUnreported, "not reported"), (nanTime, "not a number")] {
            var record = Fixture.inside(since: 0)
            record.overspeed = episode
            let error = #expect(throws: StoreError.self) {
                try store.append([Fixture.event(1, .overspeed, "school")], states: ["school": record])
            }
            #expect(error.map { "\($0)".contains("\"school\"") && "\($0)".contains(expected) } == true,
                    "\(String(describing: error))")
        }
        #expect(try store.lastSequence() == 0)
        #expect(try store.region(identifier: "school")?.stateRecord == RegionStateRecord(state: .unknown))
    }

    @Test("a row with part of an episode is corrupt, named with the region", arguments: [
        "UPDATE regions SET overspeed_max = 3", "UPDATE regions SET overspeed_since = 1, overspeed_reported = 1",
        "UPDATE regions SET overspeed_since = 1, overspeed_max = 3, overspeed_reported = 0, overspeed_under = 2, "
            + "overspeed_latest = 4",
    ])
    func partialEpisodeIsCorrupt(update: String) throws {
        let file = directory.path("new.sqlite")
        do {
            let store = try GeofenceStore(path: file)
            _ = try store.upsertRegions([Self.zone])
        }
        try run(SQLiteShell.executable, [file, update])
        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: file).regions() }
        #expect(error.map { "\($0)".contains("\"school\"") && "\($0)".contains("overspeed") } == true,
                "\(String(describing: error))")
    }
}
