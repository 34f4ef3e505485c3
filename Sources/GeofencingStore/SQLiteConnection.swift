import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an SQLite call is made: the C function and the statement it works on (its `SQLStatement.name`, or the
/// function's own name for calls outside a statement). Names the failure in `StoreError`, and is what a fault hook
/// sees.
struct SQLiteCallSite: Sendable, Hashable, CustomStringConvertible {
    let function: String
    let statement: String

    var description: String { "\(function) (\(statement))" }
}

/// Debug builds only, for tests: called before every SQLite call that can fail on its own (open, prepare, bind, step,
/// exec); a non-nil result is taken as that call's result code instead of making the call. Cleanup calls (reset,
/// finalize, close, the rollback after a failure) are never faulted, so an injected failure cannot leak or leave a
/// transaction open.
typealias SQLiteFaultHook = (SQLiteCallSite) -> Int32?

/// One SQLite connection (multi-thread mode: the connection is used by one thread at a time) and its cache of
/// prepared statements.
///
/// Every `sqlite3_*` call that returns a result code goes through `call`, which turns a failure into a
/// `StoreError` in one place (the column accessors, which cannot fail, are called directly).
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer
    /// Prepared once per connection (SQLITE_PREPARE_PERSISTENT), keyed by the SQL text; finalized in deinit.
    private var statements: [String: OpaquePointer] = [:]
    /// The statement `prepared` returned last, so that a loop running one statement 10^6 times does not hash its
    /// text each time (the texts are `StoreSQL`'s constants: comparing one with itself is a pointer comparison).
    private var lastPrepared: (text: String, handle: OpaquePointer)?
    #if DEBUG
    var faultHook: SQLiteFaultHook?
    #endif

    private init(path: String, handle: OpaquePointer) {
        self.path = path
        self.handle = handle
    }

    deinit {
        for statement in statements.values {
            _ = call("sqlite3_finalize", "finalize", cleanup: true) { sqlite3_finalize(statement) }
        }
        // close_v2 never fails for a busy connection: it closes once the last statement is finalized (done above).
        _ = call("sqlite3_close_v2", "close", cleanup: true) { sqlite3_close_v2(handle) }
    }

    /// Opens `path`, which must exist: the store creates the file itself, with its mode, before SQLite sees it.
    /// (sqlite3_open_v2 is the one call not made through `call`: there is no connection yet; its failure is mapped
    /// by the same `error(code:message:path:site:)`.)
    ///
    /// - Parameters:
    ///   - path: the file, for the errors.
    ///   - name: what sqlite3_open_v2 gets: the path, or a file: URI (`StoreFile.readOnlyOpenName`).
    ///   - extraFlags: added to the open flags (SQLITE_OPEN_URI for a URI).
    ///   - readOnly: SQLITE_OPEN_READONLY; every write then fails with `StoreError.readOnly`.
    ///   - busyTimeout: how long a statement waits for another connection's lock before `StoreError.locked`.
    ///   - faultHook: debug builds, tests: see `SQLiteFaultHook`; release builds ignore it.
    static func open(
        path: String, name: String, extraFlags: Int32 = 0, readOnly: Bool, busyTimeout: Duration,
        faultHook: SQLiteFaultHook?
    ) -> Result<SQLiteConnection, StoreError> {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX | extraFlags
        var handle: OpaquePointer?
        let site = SQLiteCallSite(function: "sqlite3_open_v2", statement: "open")
        #if DEBUG
        let injected = faultHook?(site)
        #else
        let injected: Int32? = nil
        #endif
        var code = injected ?? sqlite3_open_v2(name, &handle, flags, nil)
        guard let handle else {
            // Only when SQLite cannot allocate the connection object itself.
            let failure = code == SQLITE_OK ? SQLITE_NOMEM : code
            return .failure(error(code: failure, message: String(cString: sqlite3_errstr(failure)), path: path,
                                  site: site))
        }
        let connection = SQLiteConnection(path: path, handle: handle)
        #if DEBUG
        connection.faultHook = faultHook
        #endif
        if code != SQLITE_OK {
            let message = String(cString: sqlite3_errmsg(handle))
            return .failure(error(code: code, message: message, path: path, site: site))  // deinit closes it
        }
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000
            + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        code = sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds)))
        return connection.call("sqlite3_busy_timeout", "set busy timeout") { code }.map { _ in connection }
    }

    // MARK: The one way into SQLite

    /// Makes one SQLite call and turns its result code into success (SQLITE_OK, SQLITE_ROW, SQLITE_DONE) or a
    /// `StoreError`, with SQLite's message for this connection.
    ///
    /// - Parameters:
    ///   - function: the C function `body` calls.
    ///   - statement: the statement's name (or what the call does); names the error.
    ///   - cleanup: a call that must happen even in a test that injects failures (reset, finalize, close, rollback).
    ///   - body: the call; returns its result code.
    /// - Returns: the result code, or the error.
    ///
    /// The call site is made only for a failure or a fault hook: a bulk write binds tens of millions of values, and
    /// a String per call would cost more than the binds.
    func call(
        _ function: StaticString, _ statement: String, cleanup: Bool = false, _ body: () -> Int32
    ) -> Result<Int32, StoreError> {
        #if DEBUG
        if !cleanup, let faultHook {
            let site = SQLiteCallSite(function: "\(function)", statement: statement)
            if let injected = faultHook(site) {
                return .failure(Self.error(code: injected, message: String(cString: sqlite3_errstr(injected)),
                                           path: path, site: site))
            }
        }
        #endif
        let code = body()
        switch code & 0xFF {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return .success(code)
        default:
            let site = SQLiteCallSite(function: "\(function)", statement: statement)
            var message = String(cString: sqlite3_errmsg(handle))
            let systemErrno = sqlite3_system_errno(handle)
            if code & 0xFF == SQLITE_IOERR || code & 0xFF == SQLITE_CANTOPEN, systemErrno != 0 {
                message += " (\(String(cString: strerror(systemErrno))))"
            }
            return .failure(Self.error(code: code, message: message, path: path, site: site))
        }
    }

    /// `call` for a caller that throws: the result code on success.
    @discardableResult
    func invoke(_ function: StaticString, _ statement: String, _ body: () -> Int32) throws(StoreError) -> Int32 {
        try call(function, statement, body).get()
    }

    /// The `StoreError` for a failed call: the cases a caller can act on by their primary result code, the rest as
    /// `.sqlite` with the extended code.
    static func error(code: Int32, message: String, path: String, site: SQLiteCallSite) -> StoreError {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .locked(path: path, operation: site.statement)
        case SQLITE_READONLY:
            return .readOnly(path: path, reason: "\(message) (in \(site.statement))")
        case SQLITE_FULL:
            return .diskFull(path: path)
        case SQLITE_CORRUPT:
            return .corrupt(path: path, detail: "\(message) (in \(site.statement))")
        case SQLITE_NOTADB:
            return .notAGeofenceStore(path: path, reason: "not an SQLite database (\(message))")
        case SQLITE_CANTOPEN:
            return .cannotOpen(path: path, reason: message)
        default:
            return .sqlite(path: path, code: code, message: message, statement: site.statement)
        }
    }

    // MARK: Statements

    /// The prepared statement for `sql`, from the cache or prepared now.
    private func prepared(_ sql: SQLStatement) throws(StoreError) -> OpaquePointer {
        if let last = lastPrepared, last.text == sql.text { return last.handle }
        if let cached = statements[sql.text] {
            lastPrepared = (sql.text, cached)
            return cached
        }
        var statement: OpaquePointer?
        try invoke("sqlite3_prepare_v3", sql.name) {
            sqlite3_prepare_v3(handle, sql.text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        }
        guard let statement else {
            // SQLite returns no statement for text without one (only comments): a bug in StoreSQL.
            throw .sqlite(path: path, code: SQLITE_MISUSE, message: "no statement in the SQL", statement: sql.name)
        }
        statements[sql.text] = statement
        lastPrepared = (sql.text, statement)
        return statement
    }

    /// Runs `body` with the prepared `sql`, then resets it and clears its bindings for the next use, whatever
    /// `body` did. `body` must not use the same `sql` again (it would reset the statement under itself).
    func withStatement<R>(
        _ sql: SQLStatement, _ body: (Statement) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        let statement = Statement(connection: self, handle: try prepared(sql), sql: sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs a statement that returns no rows (or whose rows are not needed) to completion.
    func execute(_ sql: SQLStatement, binding bind: (Statement) throws(StoreError) -> Void = { _ in })
        throws(StoreError)
    {
        try withStatement(sql) { (statement: Statement) throws(StoreError) in
            try bind(statement)
            while try statement.step() {}
        }
    }

    /// Runs a statement that returns no rows once for each of `items`, bound by `bind` (which must not use the same
    /// `sql`): looked up once, reset and its bindings cleared between the runs. For bulk writes (10^6 regions).
    func executeEach<Items: Sequence>(
        _ sql: SQLStatement, _ items: Items, binding bind: (Statement, Items.Element) throws(StoreError) -> Void
    ) throws(StoreError) {
        try withStatement(sql) { (statement: Statement) throws(StoreError) in
            for item in items {
                try bind(statement, item)
                while try statement.step() {}
                statement.reset()
            }
        }
    }

    /// Writes `items` with `batch`, a statement for `batchRows` items of `width` parameters each (item k's
    /// parameters numbered from k * width + 1), one run per `batchRows` items in order, and the rest with `single`,
    /// the statement for one item, one run each. `bind` binds an item as `single`'s parameters 1 ... width; for the
    /// batch it gets the statement shifted to the item's row (`Statement.row(_:width:)`).
    func executeBatched<Item>(
        _ items: [Item], batch: SQLStatement, batchRows: Int, single: SQLStatement, width: Int32,
        binding bind: (Statement, Item) throws(StoreError) -> Void
    ) throws(StoreError) {
        let batched = items.count / batchRows * batchRows
        if batched > 0 {
            try withStatement(batch) { (statement: Statement) throws(StoreError) in
                for first in stride(from: 0, to: batched, by: batchRows) {
                    for row in 0..<batchRows { try bind(statement.row(row, width: width), items[first + row]) }
                    while try statement.step() {}
                    statement.reset()
                }
            }
        }
        try executeEach(single, items[batched...], binding: bind)
    }

    /// Runs a statement and decodes every row it returns.
    func rows<R>(
        _ sql: SQLStatement, binding bind: (Statement) throws(StoreError) -> Void = { _ in },
        decode: (Statement) throws(StoreError) -> R
    ) throws(StoreError) -> [R] {
        var result: [R] = []
        try forEachRow(sql, binding: bind) { (statement: Statement) throws(StoreError) in
            result.append(try decode(statement))
        }
        return result
    }

    /// Runs a statement and hands each row to `body` as SQLite steps to it, so that a large table is read in the
    /// memory of one row. `body` must not use this connection (the statement is still running).
    func forEachRow(
        _ sql: SQLStatement, binding bind: (Statement) throws(StoreError) -> Void = { _ in },
        _ body: (Statement) throws(StoreError) -> Void
    ) throws(StoreError) {
        try withStatement(sql) { (statement: Statement) throws(StoreError) in
            try bind(statement)
            while try statement.step() { try body(statement) }
        }
    }

    /// Runs a script of several statements without parameters (the schema, the connection's pragmas).
    func executeScript(_ sql: SQLStatement) throws(StoreError) {
        try invoke("sqlite3_exec", sql.name) { sqlite3_exec(handle, sql.text, nil, nil, nil) }
    }

    /// Makes closing leave the files as they are: no checkpoint of the -wal file into the database (SQLite's last
    /// connection to a file normally runs one). For a file the store refuses, which must keep every byte.
    func disableCheckpointOnClose() throws(StoreError) {
        try invoke("sqlite3_db_config", "disable checkpoint on close") { csqlite_disable_checkpoint_on_close(handle) }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    // MARK: Transactions

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE): committed when `body` returns, rolled back as a whole
    /// when it or the commit throws.
    func writeTransaction<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try execute(StoreSQL.beginWrite)
        return try finishTransaction(body)
    }

    /// Runs `body` in a read transaction: its SELECTs see one snapshot.
    func readTransaction<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try execute(StoreSQL.beginRead)
        return try finishTransaction(body)
    }

    private func finishTransaction<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        do throws(StoreError) {
            let result = try body()
            try execute(StoreSQL.commit)
            return result
        } catch {
            // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) roll the transaction back by themselves.
            if sqlite3_get_autocommit(handle) == 0 {
                _ = call("sqlite3_exec", StoreSQL.rollback.name, cleanup: true) {
                    sqlite3_exec(handle, StoreSQL.rollback.text, nil, nil, nil)
                }
            }
            throw error
        }
    }
}

/// A prepared statement lent out by `SQLiteConnection.withStatement` for one use: it must not outlive the closure
/// it was given to (the statement is reset after it; ~Copyable would enforce that, but crashes the Swift 6.3
/// optimizer in a release build). Parameters and columns are numbered as SQLite numbers them: parameters from 1,
/// columns from 0.
struct Statement {
    let connection: SQLiteConnection
    let handle: OpaquePointer
    let sql: SQLStatement
    /// Added to every parameter index: a batched statement's row k of `width` parameters is bound as parameters
    /// 1 ... width of `row(k, width:)`.
    private var parameterOffset: Int32 = 0

    init(connection: SQLiteConnection, handle: OpaquePointer, sql: SQLStatement) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    /// This statement with parameter i standing for parameter `row * width + i` (rows of a batched statement).
    func row(_ row: Int, width: Int32) -> Statement {
        var shifted = self
        shifted.parameterOffset = Int32(row) * width
        return shifted
    }

    /// Steps once. Returns true when a row is ready for the column accessors, false when the statement is done.
    func step() throws(StoreError) -> Bool {
        try connection.invoke("sqlite3_step", sql.name) { sqlite3_step(handle) } == SQLITE_ROW
    }

    /// Makes the statement ready to run again, with no parameter bound (as `withStatement` leaves it).
    func reset() {
        // reset repeats the error of a failed step, which was reported already.
        _ = connection.call("sqlite3_reset", sql.name, cleanup: true) { sqlite3_reset(handle) }
        _ = connection.call("sqlite3_clear_bindings", sql.name, cleanup: true) { sqlite3_clear_bindings(handle) }
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try connection.invoke("sqlite3_bind_int64", sql.name) {
            sqlite3_bind_int64(handle, parameterOffset + index, value)
        }
    }

    func bind(_ index: Int32, _ value: Bool) throws(StoreError) {
        try bind(index, Int64(value ? 1 : 0))
    }

    /// Binds NULL for nil. (SQLite stores a NaN as NULL too; the store rejects NaN before it gets here.)
    func bind(_ index: Int32, _ value: Double?) throws(StoreError) {
        try connection.invoke("sqlite3_bind_double", sql.name) {
            if let value {
                sqlite3_bind_double(handle, parameterOffset + index, value)
            } else {
                sqlite3_bind_null(handle, parameterOffset + index)
            }
        }
    }

    /// Binds the text with its length, so that an identifier holding U+0000 is kept whole; SQLite copies it.
    func bind(_ index: Int32, _ value: String) throws(StoreError) {
        var text = value
        try connection.invoke("sqlite3_bind_text", sql.name) {
            text.withUTF8 { bytes in
                // An empty buffer may have no address, and a NULL pointer would bind SQL NULL instead of ''.
                guard let base = bytes.baseAddress else {
                    return sqlite3_bind_text(handle, parameterOffset + index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, parameterOffset + index, $0, Int32(bytes.count), csqlite_transient())
                }
            }
        }
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// nil for NULL.
    func double(_ column: Int32) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(handle, column)
    }

    /// The whole text, U+0000 included ("" for NULL).
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
