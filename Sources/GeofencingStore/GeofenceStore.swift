// The store of the `geofence` daemon. Durability choices: see the doc comment of GeofenceStore below.
import Foundation
import Geofencing
import GeofencingEvents

/// The daemon's SQLite store: regions with their state records (`RegionStateRecord`), the event outbox, and one
/// delivery cursor per sink, in one file.
///
/// One instance is one SQLite connection (SQLite's multi-thread mode). Use it from one thread at a time: successive
/// calls may come from different threads (an actor's executor), concurrent ones may not; it is not `Sendable`. A
/// thread or process that needs the store at the same time opens its own instance on the same path. Writers wait
/// for each other up to the busy timeout; readers never wait.
///
/// Delivery: `append` stores events (with the regions' new state records) before anything is delivered; a sink
/// asks for `undelivered(sink:limit:)`, sends them, and then calls `markDelivered(sink:through:)`. A crash between
/// sending and marking sends those events again after the restart: at-least-once, and consumers drop repeats by
/// their sequence numbers.
///
/// ## Durability: what a power cut or a kill -9 leaves
/// - Every method that writes is one transaction: after it returns, all of it is on disk; if it throws, or the
///   process or the power dies before it returns, none of it is. Nothing committed before is lost.
/// - Journal: WAL. A commit appends the changed pages to the -wal file and fsyncs it; the database file is written
///   only by checkpoints, which copy committed pages. A commit cut short leaves frames whose checksums do not
///   match, and the next open ignores them. Readers (`geofence fences list`, a map export) do not block the daemon,
///   and the daemon does not block them. The -wal file is truncated to 4 MiB after a checkpoint, so a burst does
///   not keep its size on a small flash disk.
/// - synchronous=FULL: the -wal file is fsynced at every commit. With NORMAL (the usual WAL setting) it is synced
///   only at checkpoints, so a power cut can take back the last commits: the database stays consistent but forgets
///   events a sink may already have sent. The restarted monitor would then give those sequence numbers to new
///   events, and consumers would drop them as repeats: lost events. FULL costs one fsync per write; appends come
///   per fix (a few per second at most; the README's limits give the measured cost).
/// - What survives a power cut also depends on the storage honouring fsync: eMMC and SD cards with a volatile write
///   cache that acknowledge early can lose more, which no database setting repairs.
/// - Mode 0600: the file holds where the vehicle was and when (event positions and times) and where it goes (the
///   regions): personal data, for the daemon's user only. The file is created with open(2) and mode 0600 before
///   SQLite opens it, so there is no moment with a wider mode; SQLite gives the -wal and -shm files the mode of the
///   database file. An existing file (and its -wal and -shm) open to group or others is tightened to 0600 at every
///   open, or refused when this user cannot change its mode. A symbolic link or anything but a regular file at the
///   path is refused (`StoreFile`).
/// - A file that is not a geofence store, or that SQLite finds damaged (PRAGMA quick_check at every open), is
///   never written: the open throws before anything could change it, and closes without checkpointing a -wal file
///   left by a crash. quick_check reads the whole file, so its cost grows with the outbox: prune it. It leaves the
///   CHECK constraints out (`StoreSchema.quickCheck`): writes enforce them, and a row read that breaks one throws
///   `corrupt` naming the row. A locked store (another process writing for longer than the
///   busy timeout), a read-only one and a full disk give their own errors; the failed write is rolled back.
public final class GeofenceStore {
    /// The store's file, as given to `init`.
    public let path: String
    /// Opened with `readOnly: true`: every method that writes throws `StoreError.readOnly`, also one that would
    /// have found nothing to change.
    public let isReadOnly: Bool
    let connection: SQLiteConnection

    /// Opens the store at `path`, creating it (mode 0600) when the file does not exist and `create` is true.
    ///
    /// - Parameters:
    ///   - path: the store's file: a regular file, never a symbolic link (its directories may be links). Its
    ///     directory must exist. Always a file's path: SQLite's ":memory:" names a file of that name here.
    ///   - readOnly: open for reading only: the file must exist and is never changed (no journal mode switch, no
    ///     schema); writes throw `StoreError.readOnly`.
    ///   - create: create a missing file (read-write opens only); false: a missing file is `noStore`.
    ///   - busyTimeout: how long a write waits for another connection's write lock before `StoreError.locked`
    ///     (whole milliseconds).
    /// - Throws: `noStore` (missing, and not to be created), `cannotOpen` (directory missing, permission, a symbolic
    ///   link, not a regular file, a mode open to other users that this user cannot tighten), `notAGeofenceStore`
    ///   (not SQLite, or another program's database, or an empty file opened read-only), `corrupt` (quick_check),
    ///   `schemaTooNew`, `readOnly` (writing a file or file system that is read-only), `locked` (creating the
    ///   schema while another connection writes), `diskFull`.
    ///
    /// The checks run before anything is written: a file that fails them is left byte for byte as it was. An
    /// existing file (and its -wal and -shm) that group or others may access is first tightened to its owner's
    /// bits (see `StoreFile`).
    public convenience init(
        path: String, readOnly: Bool = false, create: Bool = true, busyTimeout: Duration = .seconds(5)
    ) throws(StoreError) {
        try self.init(path: path, readOnly: readOnly, create: create, busyTimeout: busyTimeout, faultHook: nil)
    }

    /// `faultHook` (debug builds, tests): see `SQLiteFaultHook`; it also sees the calls made while opening.
    init(path: String, readOnly: Bool, create: Bool = true, busyTimeout: Duration, faultHook: SQLiteFaultHook?)
        throws(StoreError)
    {
        try StoreFile.prepare(path, readOnly: readOnly, create: create)
        let openName = readOnly ? StoreFile.readOnlyOpenName(path) : (name: StoreFile.sqliteName(path), flags: 0)
        self.path = path
        self.isReadOnly = readOnly
        self.connection = try SQLiteConnection.open(
            path: path, name: openName.name, extraFlags: openName.flags, readOnly: readOnly,
            busyTimeout: busyTimeout, faultHook: faultHook
        ).get()
        do throws(StoreError) {
            try StoreSchema.open(connection, readOnly: readOnly)
        } catch {
            // A -wal file left by a crash must not be checkpointed into a file the store refused.
            try? connection.disableCheckpointOnClose()
            throw error
        }
    }

    // MARK: Regions

    /// Every stored region, in the order they were first added (a replaced region keeps its place).
    public func regions() throws(StoreError) -> [StoredRegion] {
        try connection.rows(StoreSQL.selectRegions) { (row: Statement) throws(StoreError) in
            try StoreRows.region(row, path: path)
        }
    }

    /// Every stored region, in the order of `regions()`, handed to `body` one at a time as it is read: a daemon
    /// restoring 10^6 regions holds one row's objects at a time instead of an array of all of them. `body` must not
    /// use this store (its statement is still running); a row that cannot be read throws before `body` sees it,
    /// after the rows before it.
    public func forEachRegion(_ body: (StoredRegion) -> Void) throws(StoreError) {
        try connection.forEachRow(StoreSQL.selectRegions) { (row: Statement) throws(StoreError) in
            body(try StoreRows.region(row, path: path))
        }
    }

    /// How many regions the store holds.
    public func regionCount() throws(StoreError) -> Int {
        try connection.rows(StoreSQL.countRegions) { (row: Statement) throws(StoreError) in
            Int(row.int64(0))
        }.first ?? 0
    }

    /// The region with this identifier, or nil.
    public func region(identifier: String) throws(StoreError) -> StoredRegion? {
        try connection.rows(StoreSQL.selectRegion) { (statement: Statement) throws(StoreError) in
            try statement.bind(1, identifier)
        } decode: { (row: Statement) throws(StoreError) in
            try StoreRows.region(row, path: path)
        }.first
    }

    /// Adds or replaces regions, in one transaction. A new identifier is added with nothing known (state and last
    /// known state unknown); an existing one gets the new definition and keeps its state record. A later duplicate
    /// in `regions` replaces an earlier one.
    ///
    /// - Returns: how many identifiers were added and how many replaced.
    /// Every shape is kept as given (a polygon's rings with their closing vertices, a corridor's path), and reads
    /// back `==` to it; see `StoreSQL.regionsTable` for the columns.
    ///
    /// - Throws: `invalidArgument` naming the region when an identifier is empty, a number is NaN, a polygon has no
    ///   ring, a ring or path no vertex, or a vertex is not finite (nothing is written then), or a write error.
    @discardableResult
    public func upsertRegions(_ regions: [Region]) throws(StoreError) -> (added: Int, replaced: Int) {
        try requireWritable()
        if let problem = regions.lazy.compactMap(StoreRows.problem(with:)).first {
            throw .invalidArgument(path: path, reason: problem)
        }
        return try connection.writeTransaction { () throws(StoreError) -> (added: Int, replaced: Int) in
            // One upsert per region (not a lookup and then an insert or update), run for `batchRows` regions at a
            // time; what was added is what the table grew by, the rest replaced a stored region or an earlier
            // duplicate.
            let before = try regionCount()
            try connection.executeBatched(
                regions, batch: StoreSQL.upsertRegionBatch, batchRows: StoreSQL.batchRows,
                single: StoreSQL.upsertRegion, width: StoreSQL.regionDefinitionParameters
            ) { (statement: Statement, region: Region) throws(StoreError) in
                try StoreRows.bindDefinition(region, to: statement)
            }
            let added = try regionCount() - before
            return (added, regions.count - added)
        }
    }

    /// Removes a region and its state. Its events stay in the outbox.
    ///
    /// - Returns: whether there was such a region.
    @discardableResult
    public func removeRegion(identifier: String) throws(StoreError) -> Bool {
        try requireWritable()
        return try connection.writeTransaction { () throws(StoreError) -> Bool in
            try connection.execute(StoreSQL.deleteRegion) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, identifier)
            }
            return connection.changes > 0
        }
    }

    // MARK: Outbox

    /// Appends events to the outbox and stores the regions' new state records, in one transaction: what one or
    /// more `RegionMonitor.process(_:)` calls returned (`ObservationOutcome`), so that a restart restores the
    /// states the monitor had after the last observation stored.
    ///
    /// The records are stored as given, never derived from the events: the monitor's rules decide them. A record
    /// or an event for a region that is not stored (removed meanwhile) changes no region; the event is kept in the
    /// outbox.
    ///
    /// - Parameters:
    ///   - events: consecutive sequence numbers; the first one follows `lastSequence()` (any first number when the
    ///     outbox has never held an event). May be empty.
    ///   - states: the new record of each region whose record changed, by identifier (`ObservationOutcome
    ///     .changedStates`, merged over several calls: the latest record of a region).
    ///   Both empty: nothing happens.
    /// - Throws: `sequenceGap` when the numbers do not continue the outbox or are not consecutive,
    ///   `invalidArgument` for a sequence number of 0 or above Int64.max or a NaN; nothing is written then. Or a
    ///   write error, after which nothing is written either.
    public func append(_ events: [EventRecord], states: [String: RegionStateRecord] = [:]) throws(StoreError) {
        // Checked here too, so that an event's or a record's problem is found before a gap in the numbers.
        try requireWritable()
        if let problem = events.lazy.compactMap(StoreRows.problem(with:)).first
            ?? states.lazy.compactMap({ StoreRows.problem(with: $0.value, identifier: $0.key) }).first
        {
            throw .invalidArgument(path: path, reason: problem)
        }
        try append(events, stateParts: states.isEmpty ? [] : [states])
    }

    /// `append(_:states:)` with the records in parts, each read as its turn comes (a daemon's first fix over 10^6
    /// regions: `RegionMonitor.changedStates(from:limit:)`, a few thousand at a time), all in the one transaction
    /// of the events: every part is checked before it is written, and a problem in any part writes nothing at all.
    /// An identifier appears in one part at most.
    public func append(
        _ events: [EventRecord], stateParts: some Sequence<[String: RegionStateRecord]>
    ) throws(StoreError) {
        try requireWritable()
        if let problem = events.lazy.compactMap(StoreRows.problem(with:)).first {
            throw .invalidArgument(path: path, reason: problem)
        }
        for (previous, next) in zip(events, events.dropFirst()) where next.sequence != previous.sequence &+ 1 {
            throw .sequenceGap(path: path, expected: previous.sequence &+ 1, got: next.sequence)
        }
        var parts = stateParts.makeIterator()
        var firstPart = parts.next()
        while firstPart?.isEmpty == true { firstPart = parts.next() }
        guard !events.isEmpty || firstPart != nil else { return }
        try connection.writeTransaction { () throws(StoreError) in
            if let first = events.first, let lastEvent = events.last {
                let last = try lastSequenceInTransaction()
                if last > 0, first.sequence != last + 1 {
                    throw .sequenceGap(path: path, expected: last + 1, got: first.sequence)
                }
                for event in events {
                    try connection.execute(StoreSQL.insertEvent) { (statement: Statement) throws(StoreError) in
                        try StoreRows.bindEvent(event, to: statement)
                    }
                }
                try connection.execute(StoreSQL.updateLastSequence) {
                    (statement: Statement) throws(StoreError) in
                    try statement.bind(1, Int64(lastEvent.sequence))
                }
            }
            var part = firstPart
            while let states = part {
                try updateStates(states)
                part = parts.next()
            }
        }
    }

    /// Stores one part of `append`'s records, inside its transaction; throws before writing any of a part with a
    /// problem (the transaction then rolls back the parts before it).
    private func updateStates(_ states: [String: RegionStateRecord]) throws(StoreError) {
        if let problem = states.lazy.compactMap({ StoreRows.problem(with: $0.value, identifier: $0.key) }).first {
            throw .invalidArgument(path: path, reason: problem)
        }
        // In identifier order, so that the same call makes the same statements in the same order every time
        // (and walks the identifier index in order). The keys are sorted, not the entries: a part's records are
        // not copied.
        try connection.executeBatched(
            states.keys.sorted(), batch: StoreSQL.updateRegionStateBatch, batchRows: StoreSQL.batchRows,
            single: StoreSQL.updateRegionState, width: StoreSQL.regionStateParameters
        ) { (statement: Statement, identifier: String) throws(StoreError) in
            try StoreRows.bindState(states[identifier]!, identifier: identifier, to: statement)  // one of its keys
        }
    }

    /// The highest sequence number ever appended; 0 when the outbox has never held an event. Pruning keeps it.
    public func lastSequence() throws(StoreError) -> UInt64 {
        try lastSequenceInTransaction()
    }

    /// Up to `limit` events with sequence numbers above `sequence`, in ascending order.
    ///
    /// - Throws: `invalidArgument` for a negative limit.
    public func events(after sequence: UInt64, limit: Int) throws(StoreError) -> [EventRecord] {
        guard limit >= 0 else { throw .invalidArgument(path: path, reason: "event limit \(limit) is negative") }
        return try connection.rows(StoreSQL.selectEventsAfter) { (statement: Statement) throws(StoreError) in
            try statement.bind(1, Int64(clamping: sequence))
            try statement.bind(2, Int64(limit))
        } decode: { (row: Statement) throws(StoreError) in
            try StoreRows.event(row, path: path)
        }
    }

    // MARK: Sinks

    /// Registers a sink; registering one that exists changes nothing. A new sink's cursor starts at
    /// `lastSequence()`: it gets the events appended from now on, not the history.
    ///
    /// - Throws: `invalidArgument` for an empty name.
    public func registerSink(_ name: String) throws(StoreError) {
        try requireWritable()
        guard !name.isEmpty else { throw .invalidArgument(path: path, reason: "the sink name is empty") }
        try connection.writeTransaction { () throws(StoreError) in
            let last = try lastSequenceInTransaction()
            try connection.execute(StoreSQL.insertSink) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, name)
                try statement.bind(2, Int64(last))
            }
        }
    }

    /// Unregisters a sink, so that pruning no longer waits for it (a sink the daemon no longer runs with).
    ///
    /// - Returns: whether the sink was registered.
    @discardableResult
    public func removeSink(_ name: String) throws(StoreError) -> Bool {
        try requireWritable()
        return try connection.writeTransaction { () throws(StoreError) -> Bool in
            try connection.execute(StoreSQL.deleteSink) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, name)
            }
            return connection.changes > 0
        }
    }

    /// The registered sinks and their cursors (each has delivered every event up to its cursor).
    public func sinks() throws(StoreError) -> [String: UInt64] {
        let rows = try connection.rows(StoreSQL.selectSinks) { (row: Statement) throws(StoreError) in
            (row.text(0), try sinkCursor(row.int64(1), of: row.text(0)))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Up to `limit` events the sink has not delivered (sequence above its cursor), ascending.
    ///
    /// - Throws: `unknownSink` when the sink was never registered, `invalidArgument` for a negative limit.
    public func undelivered(sink: String, limit: Int) throws(StoreError) -> [EventRecord] {
        try connection.readTransaction { () throws(StoreError) -> [EventRecord] in
            try events(after: try cursor(of: sink), limit: limit)
        }
    }

    /// Records that the sink has delivered every event up to `sequence`. The cursor only moves forward: a smaller
    /// `sequence` (a late acknowledgement) changes nothing.
    ///
    /// - Throws: `unknownSink`; `invalidArgument` when `sequence` is beyond `lastSequence()` (a sink cannot have
    ///   delivered an event that was never stored; marking it would skip the event that later gets the number).
    public func markDelivered(sink: String, through sequence: UInt64) throws(StoreError) {
        try requireWritable()
        try connection.writeTransaction { () throws(StoreError) in
            _ = try cursor(of: sink)
            let last = try lastSequenceInTransaction()
            guard sequence <= last else {
                throw .invalidArgument(
                    path: path,
                    reason: "sink \(JSONText.quoted(sink)) cannot have delivered event \(sequence): the last stored "
                        + "event is \(last)")
            }
            try connection.execute(StoreSQL.advanceSinkCursor) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, sink)
                try statement.bind(2, Int64(sequence))
            }
        }
    }

    /// Deletes the events every registered sink has delivered, except the newest `keeping` of them (kept for
    /// inspection, e.g. `geofence map --events`). Undelivered events are never deleted; with no sink registered
    /// nothing is (an outbox nobody has read yet is kept whole). `lastSequence()` is unaffected.
    ///
    /// - Returns: how many events were deleted.
    /// - Throws: `invalidArgument` for a negative `keeping`.
    @discardableResult
    public func pruneDelivered(keeping: Int) throws(StoreError) -> Int {
        try requireWritable()
        guard keeping >= 0 else { throw .invalidArgument(path: path, reason: "keeping \(keeping) is negative") }
        return try connection.writeTransaction { () throws(StoreError) -> Int in
            let lowest = try connection.rows(StoreSQL.selectLowestCursor) {
                (row: Statement) throws(StoreError) -> Int64? in
                row.isNull(0) ? nil : row.int64(0)
            }.first ?? nil
            // Sequence numbers are consecutive, so the newest `keeping` delivered events are the numbers
            // lowest - keeping + 1 ... lowest.
            guard let lowest, lowest > Int64(clamping: keeping) else { return 0 }
            try connection.execute(StoreSQL.deleteEventsThrough) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, lowest - Int64(keeping))
            }
            return connection.changes
        }
    }

    // MARK: Helpers (inside a caller's transaction, or as a statement of their own)

    /// Every method that writes starts here, so that on a read-only store it fails even when it would have found
    /// nothing to change (SQLite itself refuses only actual writes).
    func requireWritable() throws(StoreError) {
        if isReadOnly { throw .readOnly(path: path, reason: "the store was opened read-only") }
    }

    private func lastSequenceInTransaction() throws(StoreError) -> UInt64 {
        let values = try connection.rows(StoreSQL.selectLastSequence) {
            (row: Statement) throws(StoreError) in
            row.int64(0)
        }
        guard let value = values.first, value >= 0 else {
            throw .corrupt(path: path, detail: "the meta table has no valid \(StoreSQL.lastSequenceKey)")
        }
        return UInt64(value)
    }

    private func cursor(of sink: String) throws(StoreError) -> UInt64 {
        let cursors = try connection.rows(StoreSQL.selectSinkCursor) {
            (statement: Statement) throws(StoreError) in
            try statement.bind(1, sink)
        } decode: { (row: Statement) throws(StoreError) in
            row.int64(0)
        }
        guard let cursor = cursors.first else { throw .unknownSink(path: path, sink: sink) }
        return try sinkCursor(cursor, of: sink)
    }

    /// A stored cursor: never negative (the table's CHECK, which the open's quick_check leaves to the reads).
    private func sinkCursor(_ value: Int64, of sink: String) throws(StoreError) -> UInt64 {
        guard value >= 0 else {
            throw .corrupt(path: path, detail: "sinks row \(JSONText.quoted(sink)) cursor is \(value), negative")
        }
        return UInt64(value)
    }
}
