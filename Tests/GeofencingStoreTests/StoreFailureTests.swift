// A store that cannot be used as asked gives an error naming the file and what is wrong, and the file keeps every
// byte it had: not SQLite, another program's database, a damaged store, a newer schema, read-only, locked.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Store failures")
struct StoreFailureTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    /// A closed store with a few regions, events and a sink.
    private func makeStore(at path: String) throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions((0..<200).map { Fixture.region("stop-\($0)", radius: Double(10 + $0)) })
        try store.registerSink("jsonl")
        try store.append(
            (1...300).map { Fixture.event(UInt64($0), .state, "stop-\($0 % 200)", state: .outside) },
            states: Dictionary(uniqueKeysWithValues: (0..<200).map { ("stop-\($0)", Fixture.outside) }))
    }

    /// Opens `path` (read-write and read-only), expects an error the predicate accepts, and checks that the file
    /// and its -wal file (when there is one) are byte for byte what they were.
    private func expectRefused(
        _ path: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ accepts: (StoreError) -> Bool
    ) throws {
        let before = try #require(fileBytes(path))
        let walBefore = fileBytes(path + "-wal") ?? Data()
        for readOnly in [false, true] {
            let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) {
                _ = try GeofenceStore(path: path, readOnly: readOnly)
            }
            if let error {
                #expect(accepts(error), "readOnly \(readOnly): \(error)", sourceLocation: sourceLocation)
                #expect(error.path == path, sourceLocation: sourceLocation)
                #expect(error.description.contains(path), sourceLocation: sourceLocation)
                #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            }
            #expect(fileBytes(path) == before, "readOnly \(readOnly): the file changed", sourceLocation: sourceLocation)
            #expect(fileBytes(path + "-wal") ?? Data() == walBefore, "readOnly \(readOnly): the -wal file changed",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("a file that is not SQLite: notAGeofenceStore, the file unchanged")
    func notSQLite() throws {
        let text = Data(String(repeating: "id,lat,lon,radius_m\nstop-1,-27.5,153.0,100\n", count: 200).utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        try expectRefused(path) { if case .notAGeofenceStore = $0 { true } else { false } }
    }

    @Test("another program's SQLite database: notAGeofenceStore, the file unchanged",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
    func foreignDatabase() throws {
        try run(SQLiteShell.executable, [path, "CREATE TABLE places (name TEXT); INSERT INTO places VALUES ('x');"])
        try expectRefused(path) { error in
            guard case .notAGeofenceStore(_, let reason) = error else { return false }
            return reason.contains("another program")
        }
        let other = directory.path("other.sqlite")
        try run(SQLiteShell.executable, [other, "PRAGMA application_id = 42; CREATE TABLE t (x);"])
        try expectRefused(other) { error in
            guard case .notAGeofenceStore(_, let reason) = error else { return false }
            return reason.contains("0x2A")
        }
    }

    @Test("a store from a newer build: schemaTooNew, the file unchanged",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
    func newerSchema() throws {
        try makeStore(at: path)
        let newer = StoreSQL.schemaVersion + 1
        try run(SQLiteShell.executable, [path, "PRAGMA user_version = \(newer)"])
        try expectRefused(path) { $0 == .schemaTooNew(path: path, found: newer, supported: StoreSQL.schemaVersion) }
    }

    @Test("garbage over a store's pages: corrupt, the file unchanged", arguments: [
        (offset: 4096, description: "the pages after the first"),
        (offset: 100, description: "the schema page after the header"),
        (offset: -8192, description: "the last two pages"),
    ])
    func garbageOverPages(offset: Int, description: String) throws {
        try makeStore(at: path)
        var bytes = try #require(fileBytes(path))
        #expect(bytes.count > 16_384)
        let start = offset >= 0 ? offset : bytes.count + offset
        var generator = SystemRandomNumberGenerator()
        let end = offset == 100 ? 4096 : bytes.count
        for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefused(path) { if case .corrupt = $0 { true } else { false } }
    }

    @Test("a damaged store with a -wal file left by a crash: corrupt; neither file is changed (no checkpoint)",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
    func corruptWithLeftoverWAL() throws {
        try makeStore(at: path)
        let writer = try SQLiteShell(path: path)
        writer.send("INSERT INTO sinks (name, cursor) VALUES ('crashed', 0);")
        try writer.sync("written")
        writer.killNow()  // the committed insert lives only in the -wal file
        #expect((fileBytes(path + "-wal")?.count ?? 0) > 0)

        var bytes = try #require(fileBytes(path))
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefused(path) { if case .corrupt = $0 { true } else { false } }
    }

    @Test("opened read-only: reads work, every write throws readOnly, the file unchanged")
    func readOnlyOpen() throws {
        try makeStore(at: path)
        let before = try #require(fileBytes(path))
        let store = try GeofenceStore(path: path, readOnly: true)
        #expect(store.isReadOnly)
        #expect(try store.regions().count == 200)
        #expect(try store.lastSequence() == 300)
        #expect(try store.undelivered(sink: "jsonl", limit: 1000).count == 300)
        try expectEveryWriteRefused(store)
        #expect(fileBytes(path) == before)
    }

    private func expectEveryWriteRefused(
        _ store: GeofenceStore, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let last = try store.lastSequence()
        let writes: [(String, () throws(StoreError) -> Void)] = [
            ("upsertRegions", { () throws(StoreError) in try store.upsertRegions([Fixture.region("new")]) }),
            ("removeRegion", { () throws(StoreError) in try store.removeRegion(identifier: "stop-1") }),
            ("append", { () throws(StoreError) in
                try store.append([Fixture.event(last + 1, .enter, "stop-1")], states: ["stop-1": Fixture.inside(since: 0)])
            }),
            ("registerSink", { () throws(StoreError) in try store.registerSink("mqtt") }),
            ("markDelivered", { () throws(StoreError) in try store.markDelivered(sink: "jsonl", through: 5) }),
            ("pruneDelivered", { () throws(StoreError) in try store.pruneDelivered(keeping: 0) }),
        ]
        for (name, write) in writes {
            let error = #expect(throws: StoreError.self, "\(name)", sourceLocation: sourceLocation) { try write() }
            #expect(error.map { if case .readOnly = $0 { true } else { false } } == true,
                    "\(name): \(String(describing: error))", sourceLocation: sourceLocation)
        }
        #expect(try store.lastSequence() == last)

        // Below the store's own check, SQLite refuses to write on the read-only connection too.
        let direct = #expect(throws: StoreError.self, sourceLocation: sourceLocation) {
            try store.connection.execute(StoreSQL.deleteSink) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, "jsonl")
            }
        }
        #expect(direct.map { if case .readOnly = $0 { true } else { false } } == true,
                "\(String(describing: direct))", sourceLocation: sourceLocation)
    }

    @Test("a missing store opened read-only is not created; an empty file opened read-only is refused")
    func readOnlyMissingOrEmpty() throws {
        let missing = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: path, readOnly: true) }
        #expect(missing == .noStore(path: path))
        #expect(!FileManager.default.fileExists(atPath: path))

        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let empty = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: path, readOnly: true) }
        #expect(empty.map { if case .notAGeofenceStore = $0 { true } else { false } } == true)
        #expect(fileBytes(path) == Data())
        // Read-write, the empty file becomes a store.
        #expect(try GeofenceStore(path: path).lastSequence() == 0)
    }

    @Test("a read-only file system: read-write refused with readOnly; read-only works and refuses every write",
          .enabled(if: TmpfsMount.isAvailable, "needs root to mount a tmpfs and remount it read-only"))
    func readOnlyFileSystem() throws {
        let mount = try TmpfsMount(at: directory.path("ro"), size: "1m")
        let storePath = mount.path + "/store.sqlite"
        try makeStore(at: storePath)
        try mount.remountReadOnly()
        let before = try #require(fileBytes(storePath))

        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: storePath) }
        guard case .readOnly(let errorPath, let reason) = error else {
            Issue.record("expected readOnly, got \(String(describing: error))")
            return
        }
        #expect(errorPath == storePath)
        #expect(reason.contains("read-only"))

        let store = try GeofenceStore(path: storePath, readOnly: true)
        #expect(try store.regions().count == 200)
        #expect(try store.events(after: 295, limit: 10).map(\.sequence) == [296, 297, 298, 299, 300])
        try expectEveryWriteRefused(store)
        #expect(fileBytes(storePath) == before)

        let missing = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: mount.path + "/new.sqlite") }
        #expect(missing.map { if case .readOnly = $0 { true } else { false } } == true)
    }

    @Test("a path whose directory is missing, or that is a directory: cannotOpen naming it")
    func cannotOpen() throws {
        let nowhere = directory.path("no/such/dir/store.sqlite")
        #expect(throws: StoreError.cannotOpen(path: nowhere, reason: "the directory \(directory.path("no/such/dir")) "
            + "does not exist")) {
            _ = try GeofenceStore(path: nowhere)
        }
        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: directory.url.path) }
        #expect(error.map { if case .cannotOpen = $0 { true } else { false } } == true)
    }

    @Test("another process holding the write lock: writes wait the busy timeout and throw locked; reads go on",
          .enabled(if: SQLiteShell.isAvailable, "needs the sqlite3 shell (Debian sqlite3)"))
    func locked() throws {
        try makeStore(at: path)
        let holder = try SQLiteShell(path: path)
        holder.send("BEGIN IMMEDIATE; UPDATE meta SET value = value WHERE key = 'last_sequence';")
        try holder.sync("holding")

        let timeout = Duration.milliseconds(150)
        let store = try GeofenceStore(path: path, busyTimeout: timeout)  // opening needs no write lock
        #expect(try store.regions().count == 200)
        #expect(try store.undelivered(sink: "jsonl", limit: 5).count == 5)

        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: StoreError.locked(path: path, operation: "begin write transaction")) {
            try store.append([Fixture.event(301, .enter, "stop-1")])
        }
        let waited = clock.now - started
        #expect(waited >= timeout * 0.9, "gave up after \(waited), before the busy timeout")
        #expect(throws: StoreError.locked(path: path, operation: "begin write transaction")) {
            try store.markDelivered(sink: "jsonl", through: 1)
        }
        let description = StoreError.locked(path: path, operation: "x").description
        #expect(description.contains(path) && description.contains("another process"))

        holder.finish()  // ends the shell; its transaction is rolled back
        try store.append([Fixture.event(301, .enter, "stop-1")])
        #expect(try store.lastSequence() == 301)
    }
}
