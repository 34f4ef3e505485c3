// What outlives the process: everything after reopening, the file modes, a writer killed mid-transaction, a full
// disk, and a failed SQLite call in the middle of an append.
import CSQLite
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Durability")
struct DurabilityTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    @Test("a new instance on the same file sees regions, states, events, sinks and cursors")
    func reopenKeepsEverything() throws {
        let regions = [Fixture.region("a", dwellTime: 30), Fixture.region("b 🚏", hysteresis: 3)]
        let events = [
            Fixture.event(1, .enter, "a", at: 1), Fixture.event(2, .dwell, "a", at: 31),
            Fixture.event(3, .state, "b 🚏", at: 31, state: .outside, inferred: true),
        ]
        let storedRegions: [StoredRegion]
        do {
            let store = try GeofenceStore(path: path)
            try store.upsertRegions(regions)
            try store.registerSink("jsonl")
            try store.append(events, states: [
                "a": Fixture.inside(since: 1, dwellReported: true), "b 🚏": Fixture.outside])
            try store.markDelivered(sink: "jsonl", through: 1)
            storedRegions = try store.regions()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))  // the last connection checkpointed it
        let reopened = try GeofenceStore(path: path)
        #expect(try reopened.regions() == storedRegions)
        #expect(storedRegions[0].stateRecord == RegionStateRecord(
            state: .inside, insideSince: Fixture.time(1), dwellReported: true))
        #expect(storedRegions[1].stateRecord == RegionStateRecord(state: .outside))
        #expect(try reopened.events(after: 0, limit: 10) == events)
        #expect(try reopened.lastSequence() == 3)
        #expect(try reopened.undelivered(sink: "jsonl", limit: 10) == Array(events[1...]))
    }

    @Test("the store and its -wal and -shm files have mode 0600 (SQLite alone would give 0644 under umask 022)")
    func fileModes() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a")])
        #expect(try fileMode(path) == 0o600)
        #expect(try fileMode(path + "-wal") == 0o600)
        #expect(try fileMode(path + "-shm") == 0o600)

        // A second connection while the first is open (a reader next to the daemon) changes no mode.
        let reader = try GeofenceStore(path: path, readOnly: true)
        #expect(try reader.regions().count == 1)
        #expect(try fileMode(path + "-wal") == 0o600)
    }

    @Test("the connection runs in WAL mode with synchronous=FULL")
    func durabilitySettings() throws {
        let store = try GeofenceStore(path: path)
        let mode = try store.connection.rows(SQLStatement(name: "test", text: "PRAGMA journal_mode")) {
            (row: Statement) throws(StoreError) in row.text(0)
        }
        let synchronous = try store.connection.rows(SQLStatement(name: "test", text: "PRAGMA synchronous")) {
            (row: Statement) throws(StoreError) in row.int64(0)
        }
        #expect(mode == ["wal"])
        #expect(synchronous == [2])  // FULL
    }

    /// The shell inserts `rows` events after the store's last one and moves the last sequence in one transaction,
    /// which takes long enough (tens of milliseconds) to be killed in the middle.
    static func bulkAppendSQL(rows: Int) -> String {
        """
        BEGIN IMMEDIATE;
        SELECT 'begun';
        WITH RECURSIVE n(i) AS (
            SELECT value + 1 FROM meta WHERE key = 'last_sequence'
            UNION ALL SELECT i + 1 FROM n LIMIT \(rows))
        INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred, interpolated)
            SELECT i, 'state', 'bulk-' || i, i * 1.5, -27.5, 153.0, 12.5, 'outside', 0, 0 FROM n;
        UPDATE meta SET value = (SELECT max(sequence) FROM events) WHERE key = 'last_sequence';
        COMMIT;
        SELECT 'committed';
        """
    }

    /// Milliseconds after BEGIN at which the writer is killed; nil: right after its COMMIT returned, when the
    /// committed pages are only in the -wal file (the shell's transaction takes about 0.4 s on the CI machine, so
    /// the timed kills land inside it; a faster machine may finish first, which the test accepts).
    @Test("a writer killed with SIGKILL at any point of its transaction leaves all of it or none of it",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"),
          arguments: [0, 2, 10, 30, 80, 200, nil])
    func killedWriter(delayMilliseconds: Int?) throws {
        do {
            let store = try GeofenceStore(path: path)
            try store.upsertRegions([Fixture.region("r")])
            try store.registerSink("jsonl")
            try store.append([Fixture.event(1, .enter, "r", at: 1), Fixture.event(2, .dwell, "r", at: 2)],
                             states: ["r": Fixture.inside(since: 1, dwellReported: true)])
        }
        let rows = 30_000
        var previousLast: UInt64 = 2
        // Three rounds on the same file: each recovers from the previous kill before the next one writes.
        for round in 0..<3 {
            let shell = try SQLiteShell(path: path)
            shell.send(Self.bulkAppendSQL(rows: rows))
            try shell.sync("begun")
            if let delayMilliseconds {
                usleep(useconds_t(delayMilliseconds * 1000))
            } else {
                try shell.sync("committed")
            }
            shell.killNow()

            let store = try GeofenceStore(path: path)
            let last = try store.lastSequence()
            if delayMilliseconds == nil {
                #expect(last == previousLast + UInt64(rows), "round \(round): a committed transaction was lost")
            } else {
                #expect(last == previousLast || last == previousLast + UInt64(rows), "round \(round)")
            }
            let stored = try store.events(after: 0, limit: rows * 4)
            #expect(stored.map(\.sequence) == Array(1...last), "round \(round)")
            #expect(Array(stored.prefix(2)) == [Fixture.event(1, .enter, "r", at: 1),
                                                Fixture.event(2, .dwell, "r", at: 2)])
            // Round 0 ends inside with the dwell reported; later rounds after the exit appended below.
            #expect(try store.region(identifier: "r")?.stateRecord == (round == 0
                ? RegionStateRecord(state: .inside, insideSince: Fixture.time(1), dwellReported: true)
                : RegionStateRecord(state: .outside)), "round \(round)")
            // The store goes on where the survivor ended.
            try store.append([Fixture.event(last + 1, .exit, "r", at: 3)], states: ["r": Fixture.outside])
            previousLast = last + 1
        }
    }

    @Test("a full file system: the append that does not fit fails with diskFull, everything before it is intact",
          .enabled(if: TmpfsMount.isAvailable, "needs root to mount a small tmpfs"))
    func diskFull() throws {
        let mount = try TmpfsMount(at: directory.path("small"), size: "192k")
        let storePath = mount.path + "/store.sqlite"
        var appended: UInt64 = 0
        var failure: StoreError?
        do {
            let store = try GeofenceStore(path: storePath)
            try store.upsertRegions([Fixture.region("r")])
            // 192 KiB hold a few hundred events; stop at the first failure (bounded, in case it never comes).
            for batch in 0..<1_000 {
                do throws(StoreError) {
                    try store.append(Fixture.events(from: UInt64(batch * 20 + 1), count: 20))
                    appended += 20
                } catch {
                    failure = error
                    break
                }
            }
            #expect(try store.lastSequence() == appended)
        }
        #expect(failure == .diskFull(path: storePath))
        #expect(appended > 0)
        let reopened = try GeofenceStore(path: storePath, readOnly: true)
        #expect(try reopened.lastSequence() == appended)
        #expect(try reopened.events(after: 0, limit: 100_000).map(\.sequence) == Array(1...appended))
    }

    @Test("an SQLite call that fails inside an append rolls all of it back; the store works on",
          // The extended codes are C macros Swift does not import: SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC.
          arguments: [
            (SQLITE_IOERR | (3 << 8), "sqlite3_step", "insert event"),
            (SQLITE_FULL, "sqlite3_step", "update region state"),
            (SQLITE_IOERR | (4 << 8), "sqlite3_step", "commit"),
            (SQLITE_BUSY, "sqlite3_step", "begin write transaction"),
            (SQLITE_NOMEM, "sqlite3_bind_text", "insert event"),
          ])
    func injectedFailure(code: Int32, function: String, statement: String) throws {
        let store = try GeofenceStore(path: path, readOnly: false, busyTimeout: .seconds(5), faultHook: nil)
        try store.upsertRegions([Fixture.region("r"), Fixture.region("s")])
        try store.append([Fixture.event(1, .state, "r", state: .outside)], states: ["r": Fixture.outside])
        let before = try store.regions()

        // Fail the second time the call is made, so the transaction is half done when it fails (begin and commit
        // come once per append: the first time).
        var seen = 0
        let failAt = statement == "begin write transaction" || statement == "commit" ? 1 : 2
        store.connection.faultHook = { site in
            guard site.function == function, site.statement == statement else { return nil }
            seen += 1
            return seen == failAt ? code : nil
        }
        // Two regions' records, so that the second update statement comes after the first is done.
        let error = #expect(throws: StoreError.self) {
            try store.append([Fixture.event(2, .enter, "r", at: 5), Fixture.event(3, .dwell, "r", at: 6)],
                             states: ["r": Fixture.inside(since: 5, dwellReported: true), "s": Fixture.outside])
        }
        store.connection.faultHook = nil

        switch code & 0xFF {
        case SQLITE_FULL: #expect(error == .diskFull(path: path))
        case SQLITE_BUSY: #expect(error == .locked(path: path, operation: statement))
        default:
            guard case .sqlite(let errorPath, let errorCode, _, let errorStatement) = error else {
                Issue.record("expected .sqlite, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(errorCode == code)
            #expect(errorStatement == statement)
        }
        #expect(try store.lastSequence() == 1)
        #expect(try store.events(after: 0, limit: 10).count == 1)
        #expect(try store.regions() == before)
        try store.append([Fixture.event(2, .enter, "r", at: 5)], states: ["r": Fixture.inside(since: 5)])
        #expect(try store.region(identifier: "r")?.stateRecord.state == .inside)
    }
}
