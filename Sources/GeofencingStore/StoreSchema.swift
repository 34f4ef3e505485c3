/// Opening a store's file: telling ours from others', checking it, creating the schema in a new file, upgrading an
/// older schema.
///
/// Order matters: everything that could write (the journal mode switch, the schema, a migration) comes after the
/// checks, so a foreign or damaged file is never changed. A migration runs in one write transaction: a failure
/// (disk full, a kill) leaves the file at its old version with everything it held. The connection settings come after the checks too, because
/// `PRAGMA synchronous` reads the schema.
enum StoreSchema {
    /// What the file's header and schema say it is.
    enum Identity: Equatable {
        /// No tables and no application_id: a new (zero-length) file, or an SQLite database nobody has used.
        case empty
        /// A geofence store of a schema version this build reads.
        case store
        /// A geofence store of an older version that `StoreSQL.migrations` upgrades.
        case older(version: Int32)
        case foreign(reason: String)
        case tooNew(version: Int32)
    }

    /// Checks the file behind `connection`, creates the schema in an empty one, and applies the connection's
    /// settings (WAL, synchronous=FULL, foreign keys).
    static func open(_ connection: SQLiteConnection, readOnly: Bool) throws(StoreError) {
        let path = connection.path
        switch try identity(connection) {
        case .foreign(let reason):
            throw .notAGeofenceStore(path: path, reason: reason)
        case .tooNew(let version):
            throw .schemaTooNew(path: path, found: version, supported: StoreSQL.schemaVersion)
        case .store:
            try quickCheck(connection)
            try configure(connection, readOnly: readOnly)
        case .older(let version):
            guard !readOnly else {
                throw .schemaNeedsUpgrade(path: path, found: version, current: StoreSQL.schemaVersion)
            }
            try quickCheck(connection)
            try configure(connection, readOnly: readOnly)
            try connection.writeTransaction { () throws(StoreError) in
                // Another process may have upgraded the file between the check and the write lock.
                switch try identity(connection) {
                case .older(let version): try migrate(connection, from: version)
                case .store: return
                case .empty: throw .notAGeofenceStore(path: path, reason: "the file was emptied while opening")
                case .foreign(let reason): throw .notAGeofenceStore(path: path, reason: reason)
                case .tooNew(let version):
                    throw .schemaTooNew(path: path, found: version, supported: StoreSQL.schemaVersion)
                }
            }
        case .empty:
            if readOnly {
                throw .notAGeofenceStore(path: path, reason: "the file is empty (a store opened read-only is never "
                    + "created)")
            }
            try configure(connection, readOnly: readOnly)
            try connection.writeTransaction { () throws(StoreError) in
                // Another process may have created the schema between the check and the write lock.
                switch try identity(connection) {
                case .empty: try connection.executeScript(StoreSQL.createSchema)
                case .store: return
                case .older(let version): try migrate(connection, from: version)
                case .foreign(let reason): throw .notAGeofenceStore(path: path, reason: reason)
                case .tooNew(let version):
                    throw .schemaTooNew(path: path, found: version, supported: StoreSQL.schemaVersion)
                }
            }
        }
    }

    /// Reads the header (application_id, user_version) and counts the schema's objects. Reading a file that is not
    /// SQLite fails here with SQLITE_NOTADB, which becomes `notAGeofenceStore`.
    static func identity(_ connection: SQLiteConnection) throws(StoreError) -> Identity {
        let applicationID = try integer(StoreSQL.applicationIDPragma, connection)
        let version = try integer(StoreSQL.userVersionPragma, connection)
        let objects = try integer(StoreSQL.countSchemaObjects, connection)
        if applicationID == 0, version == 0, objects == 0 { return .empty }
        guard applicationID == Int64(StoreSQL.applicationID) else {
            if applicationID == 0 {
                return .foreign(reason: "an SQLite database of another program (\(objects) schema objects, no "
                    + "geofence application_id)")
            }
            return .foreign(reason: "an SQLite database with application_id \(hex(applicationID)), not geofence's "
                + "\(hex(Int64(StoreSQL.applicationID)))")
        }
        if version > Int64(StoreSQL.schemaVersion) { return .tooNew(version: Int32(clamping: version)) }
        if version >= 1, version < Int64(StoreSQL.schemaVersion) { return .older(version: Int32(version)) }
        guard version == Int64(StoreSQL.schemaVersion) else {
            return .foreign(reason: "geofence's application_id but schema version \(version), which no geofence "
                + "build writes")
        }
        return .store
    }

    /// Runs the steps from `version` up to `StoreSQL.schemaVersion`, inside the caller's write transaction.
    private static func migrate(_ connection: SQLiteConnection, from version: Int32) throws(StoreError) {
        for step in version..<StoreSQL.schemaVersion {
            guard let statements = StoreSQL.migrations[step] else {
                throw .notAGeofenceStore(path: connection.path, reason: "schema version \(step) has no upgrade path")
            }
            for statement in statements { try connection.execute(statement) }
        }
    }

    /// PRAGMA quick_check: the b-trees, the pages' accounting, the records, NOT NULL and the STRICT column types,
    /// in time linear in the file's size (it skips the index cross-checks of integrity_check). Up to 5 messages.
    ///
    /// CHECK constraints are left out of it (ignore_check_constraints for the time of the check, enforced again
    /// before anything else runs): evaluated row by row they are most of the check's time on a store of many regions
    /// (README, "At 10^6 fences on one unit"). They still hold every write back, and the rows are held to them when
    /// read (`StoreRows`: a value a CHECK forbids makes the row `corrupt`, naming it); the daemon reads every region
    /// at each start.
    static func quickCheck(_ connection: SQLiteConnection) throws(StoreError) {
        try connection.executeScript(StoreSQL.skipCheckConstraints)
        let messages: [String]
        do throws(StoreError) {
            messages = try connection.rows(StoreSQL.quickCheck) { (row: Statement) throws(StoreError) in
                row.text(0)
            }
        } catch {
            try? connection.executeScript(StoreSQL.enforceCheckConstraints)  // the open fails and closes anyway
            throw error
        }
        try connection.executeScript(StoreSQL.enforceCheckConstraints)
        guard messages == ["ok"] else {
            // A message may span lines ("*** in database main ***\nPage 6: ..."); the error is one line.
            let lines = messages.flatMap { $0.split(whereSeparator: \.isNewline) }
            throw .corrupt(path: connection.path, detail: "quick_check: " + lines.joined(separator: "; "))
        }
    }

    private static func configure(_ connection: SQLiteConnection, readOnly: Bool) throws(StoreError) {
        try connection.executeScript(StoreSQL.connectionSettings)
        guard !readOnly else { return }
        let mode = try connection.rows(StoreSQL.journalModeWAL) { (row: Statement) throws(StoreError) in
            row.text(0)
        }
        guard mode.first?.lowercased() == "wal" else {
            throw .cannotOpen(path: connection.path, reason: "SQLite cannot use WAL on its file system (the "
                + "journal mode stayed \(mode.first ?? "unknown"))")
        }
    }

    private static func integer(_ sql: SQLStatement, _ connection: SQLiteConnection) throws(StoreError) -> Int64 {
        try connection.rows(sql) { (row: Statement) throws(StoreError) in row.int64(0) }.first ?? 0
    }

    private static func hex(_ value: Int64) -> String {
        "0x" + String(UInt32(truncatingIfNeeded: value), radix: 16, uppercase: true)
    }
}
