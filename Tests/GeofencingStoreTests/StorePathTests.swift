// What the store's path may name, what an open does to the file's mode, when a store is created, and the daemon's
// lock: real files, links, FIFOs and devices.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Store paths")
struct StorePathTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    private func makeStore() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a")])
    }

    @Test("an open for reading, or for writing without create, never makes a store", arguments: [true, false])
    func missingFileIsNoStore(readOnly: Bool) throws {
        #expect(throws: StoreError.noStore(path: path)) {
            _ = try GeofenceStore(path: path, readOnly: readOnly, create: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(StoreError.noStore(path: path).description.hasPrefix("no store at \(path): "))
    }

    @Test("an existing store, -wal and -shm open to others are tightened to 0600 by any open", arguments: [true, false])
    func looseModesAreTightened(readOnly: Bool) throws {
        try makeStore()
        let holder = try GeofenceStore(path: path)  // keeps -wal and -shm in place
        _ = try holder.regions()
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: path + suffix) }
        let store = try GeofenceStore(path: path, readOnly: readOnly)
        #expect(try store.regions().map(\.region.identifier) == ["a"])
        for suffix in ["", "-wal", "-shm"] { #expect(try fileMode(path + suffix) == 0o600, "\(suffix)") }
        withExtendedLifetime(holder) {}
    }

    @Test("a symbolic link, at the store or its -wal, is refused and not followed", arguments: [true, false])
    func symbolicLinksAreRefused(readOnly: Bool) throws {
        try makeStore()
        let before = try #require(fileBytes(path))
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let error = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: link, readOnly: readOnly) }
        guard case .cannotOpen(link, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("symbolic link, which is never followed"))
        #expect(fileBytes(path) == before)

        let dangling = directory.path("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.path("new"))
        #expect(throws: StoreError.self) { _ = try GeofenceStore(path: dangling, readOnly: readOnly) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("new")), "the link's target was created")

        let walTarget = directory.path("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: path + "-wal", withDestinationPath: walTarget)
        let walError = #expect(throws: StoreError.self) { _ = try GeofenceStore(path: path, readOnly: readOnly) }
        #expect(walError?.description.contains("its -wal file \(path)-wal is a symbolic link") == true,
                "\(String(describing: walError))")
        #expect(!FileManager.default.fileExists(atPath: walTarget))
    }

    @Test("a FIFO, a directory or a device is not a store; nothing is created beside it")
    func onlyRegularFiles() throws {
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (file, kind) in [(fifo, "a FIFO"), (folder, "a directory")] {
            for readOnly in [true, false] {
                #expect(throws: StoreError.cannotOpen(path: file, reason: "it is \(kind), not a regular file")) {
                    _ = try GeofenceStore(path: file, readOnly: readOnly)
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["fifo", "folder"])
        let hadJournal = FileManager.default.fileExists(atPath: "/dev/null-journal")
        let device = StoreError.cannotOpen(path: "/dev/null", reason: "it is a character device, not a regular file")
        #expect(throws: device) {
            _ = try GeofenceStore(path: "/dev/null")
        }
        #expect(hadJournal || !FileManager.default.fileExists(atPath: "/dev/null-journal"))
    }

    @Test("the daemon's lock: one holder at a time, even in one process; the holder's pid in the message")
    func storeLockIsExclusive() throws {
        let lock = try StoreLock(storePath: path)
        #expect(lock.lockPath == path + ".lock")
        #expect(try fileMode(lock.lockPath) == 0o600)
        #expect(throws: StoreError.inUse(path: path, lockFile: path + ".lock", holder: getpid())) {
            _ = try StoreLock(storePath: path)
        }
        // Other connections do not take it: the store opens, reads and writes beside the holder.
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("b")])
        lock.release()
        let again = try StoreLock(storePath: path)
        again.release()

        let link = directory.path("linked")
        try FileManager.default.createSymbolicLink(atPath: link + ".lock", withDestinationPath: directory.path("x"))
        #expect(throws: StoreError.self) { _ = try StoreLock(storePath: link) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("x")))
    }
}
