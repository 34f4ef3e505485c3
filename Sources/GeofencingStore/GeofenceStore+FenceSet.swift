import Geofencing

/// Fence sets from a fleet's back-end: the version of the set last applied, and applying a set's changes in one
/// transaction.
extension GeofenceStore {
    /// The version of the fence set last applied; nil when none has been (regions only from `upsertRegions`).
    public func fenceSetVersion() throws(StoreError) -> String? {
        try connection.rows(StoreSQL.selectFenceSetVersion) { (row: Statement) throws(StoreError) in
            row.text(0)
        }.first
    }

    /// Applies a fence set's changes and records its version, in one transaction: `remove` deleted (with their
    /// states), `upsert` added with nothing known or, for an identifier already stored, given its new definition
    /// with its state record kept (as `upsertRegions`). Regions named in neither are left as they are.
    ///
    /// - Parameter expectedVersion: the version the caller computed the changes against (nil: no set applied): when
    ///   the stored version differs (another process applied a set meanwhile), nothing is written.
    /// - Throws: `invalidArgument` when the stored version is not `expectedVersion`, a region to remove is not
    ///   stored, or a region is invalid (as `upsertRegions`); nothing is written then. Or a write error, after which
    ///   nothing is written either.
    public func applyFenceSet(
        version: String, expectedVersion: String?, upsert: [Region], remove: [String]
    ) throws(StoreError) {
        try requireWritable()
        if let problem = upsert.lazy.compactMap(StoreRows.problem(with:)).first {
            throw .invalidArgument(path: path, reason: problem)
        }
        try connection.writeTransaction { () throws(StoreError) in
            let current = try fenceSetVersion()
            guard current == expectedVersion else {
                throw .invalidArgument(
                    path: path, reason: "the fence-set version changed while the set was checked (now "
                        + "\(current.map { "\"\($0)\"" } ?? "none"))")
            }
            for identifier in remove {
                try connection.execute(StoreSQL.deleteRegion) { (statement: Statement) throws(StoreError) in
                    try statement.bind(1, identifier)
                }
                guard connection.changes > 0 else {
                    throw .invalidArgument(path: path, reason: "no region \"\(identifier)\" to remove")
                }
            }
            for region in upsert {
                try connection.execute(StoreSQL.updateRegionDefinition) {
                    (statement: Statement) throws(StoreError) in
                    try StoreRows.bindDefinition(region, to: statement)
                }
                guard connection.changes == 0 else { continue }
                try connection.execute(StoreSQL.insertRegion) { (statement: Statement) throws(StoreError) in
                    try StoreRows.bindDefinition(region, to: statement)
                }
            }
            try connection.execute(StoreSQL.replaceFenceSetVersion) { (statement: Statement) throws(StoreError) in
                try statement.bind(1, version)
            }
        }
    }
}
