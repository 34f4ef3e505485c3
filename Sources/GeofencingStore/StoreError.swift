import GeofencingEvents

/// Why the store could not do what was asked. Every case names the store's file; `description` is one line.
///
/// Whatever the case, nothing the file already held is lost: a failed write is rolled back as a whole, and a file
/// that is not a readable geofence store is never written to.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or created: its directory is missing, permission is denied, the path is a
    /// directory, ... `reason` says which (from errno or SQLite).
    case cannotOpen(path: String, reason: String)
    /// Nothing exists at the path, and the open was not one that creates a store (a read-only open, or one with
    /// `create: false`): nothing was created.
    case noStore(path: String)
    /// Another process holds the store's lock file (`StoreLock`): a store serves one daemon at a time. `holder` is
    /// the process ID written in the lock file, nil when it could not be read.
    case inUse(path: String, lockFile: String, holder: Int32?)
    /// The file is not a geofence store: not an SQLite database at all, an empty file opened read-only, or an
    /// SQLite database of another program (its `application_id` is not geofence's). The file is left untouched.
    case notAGeofenceStore(path: String, reason: String)
    /// The file is a geofence store, but SQLite found it damaged (`PRAGMA quick_check`, or SQLITE_CORRUPT while
    /// reading, or a row holding a value the schema forbids). `detail` is SQLite's message (the first few
    /// quick_check lines). The file is left untouched; restore it from a backup or move it away.
    case corrupt(path: String, detail: String)
    /// Another connection (another process, or another `GeofenceStore` on the same file) held the lock for longer
    /// than the busy timeout. `operation` is the statement that waited.
    case locked(path: String, operation: String)
    /// A write was refused because the store was opened with `readOnly: true`, the file is not writable, or its
    /// file system is mounted read-only. `reason` says which.
    case readOnly(path: String, reason: String)
    /// The file system is full (SQLITE_FULL): the write was rolled back, what was stored before is intact.
    case diskFull(path: String)
    /// The file was written by a newer build of geofence, with a schema this build does not know.
    case schemaTooNew(path: String, found: Int32, supported: Int32)
    /// The file has an older schema version that this build upgrades when it opens the store for writing (in one
    /// transaction); an open with `readOnly: true` never changes the file, so it cannot read it.
    case schemaNeedsUpgrade(path: String, found: Int32, current: Int32)
    /// `append` was given events whose sequence numbers do not continue the outbox's (`expected` is the number
    /// the next event must carry, `got` the one it carried). Nothing was written.
    case sequenceGap(path: String, expected: UInt64, got: UInt64)
    /// A sink name that `registerSink` never registered.
    case unknownSink(path: String, sink: String)
    /// An argument no store could accept (a negative limit, a sequence number beyond the outbox, a region with a
    /// coordinate that is not a number, ...); `reason` names it. Nothing was written.
    case invalidArgument(path: String, reason: String)
    /// Any other SQLite failure: the extended result code, SQLite's message, and the statement that failed (its
    /// name in `StoreSQL`, or the C function for calls outside a statement).
    case sqlite(path: String, code: Int32, message: String, statement: String)

    /// The store's file the error concerns.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .noStore(let path), .inUse(let path, _, _), .notAGeofenceStore(let path, _),
             .corrupt(let path, _),
             .locked(let path, _), .readOnly(let path, _), .diskFull(let path), .schemaTooNew(let path, _, _),
             .schemaNeedsUpgrade(let path, _, _),
             .sequenceGap(let path, _, _), .unknownSink(let path, _), .invalidArgument(let path, _),
             .sqlite(let path, _, _, _):
            path
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the store \(path): \(reason)"
        case .noStore(let path):
            "no store at \(path): the file does not exist, and nothing was created (only an open for writing "
                + "creates a store)"
        case .inUse(let path, let lockFile, let holder):
            "the store \(path) is in use by another process (\(holder.map { "pid \($0)" } ?? "pid unknown"), which "
                + "holds \(lockFile)): a store serves one daemon at a time"
        case .notAGeofenceStore(let path, let reason):
            "\(path) is not a geofence store: \(reason); the file was not changed"
        case .corrupt(let path, let detail):
            "the store \(path) is corrupt (\(detail)); the file was not changed: restore it from a backup or move "
                + "it away"
        case .locked(let path, let operation):
            "the store \(path) is locked: another process holds its write lock (\(operation) waited for the busy "
                + "timeout)"
        case .readOnly(let path, let reason):
            "the store \(path) is read-only: \(reason)"
        case .diskFull(let path):
            "the file system of the store \(path) is full; the write was rolled back"
        case .schemaTooNew(let path, let found, let supported):
            "the store \(path) has schema version \(found), newer than this build's \(supported); use a newer "
                + "geofence"
        case .schemaNeedsUpgrade(let path, let found, let current):
            "the store \(path) has schema version \(found), older than this build's \(current): open it once for "
                + "writing (e.g. geofence fences import or run) to upgrade it; a read-only open never changes it"
        case .sequenceGap(let path, let expected, let got):
            "the store \(path) expected event \(expected) next but got \(got); nothing was written"
        case .unknownSink(let path, let sink):
            "the store \(path) has no sink named \(JSONText.quoted(sink)) (register it first)"
        case .invalidArgument(let path, let reason):
            "the store \(path) refused an argument: \(reason)"
        case .sqlite(let path, let code, let message, let statement):
            "SQLite failed on the store \(path) in \(statement): \(message) (code \(code))"
        }
    }
}
