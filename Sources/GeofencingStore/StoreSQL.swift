/// One SQL statement with the short name errors give it ("insert event" reads better in a log than the SQL).
struct SQLStatement: Sendable, Hashable {
    let name: String
    let text: String
}

/// Every piece of SQL the store runs, in one place: the schema and the statements.
///
/// Conventions of the schema:
/// - Times are `REAL` seconds since 2001-01-01T00:00:00Z, Foundation's reference date, so a `Date` comes back
///   bit-exact (Unix seconds would round away up to one bit of a fraction). `events.time_unix` is a virtual
///   column with the Unix time, for people reading the file with `sqlite3` (`datetime(time_unix, 'unixepoch')`).
/// - States and kinds are their wire names (`RegionState.rawValue`, `EventRecord.Kind.rawValue`).
/// - Tables are STRICT (SQLite 3.37+), so a wrong type is an error instead of a silent conversion.
/// - A sequence number is an `INTEGER` (signed 64 bits): the store accepts 1 ... Int64.max.
enum StoreSQL {
    /// `PRAGMA application_id` of a geofence store: "GeoF" in ASCII. Tells our file from other SQLite files.
    static let applicationID: Int32 = 0x4765_6F46
    /// `PRAGMA user_version`: the schema version this build writes and reads. Bump it with a migration.
    static let schemaVersion: Int32 = 7
    /// The `meta` key of the highest sequence number ever appended (kept when events are pruned).
    static let lastSequenceKey = "last_sequence"

    /// The current version (7). Run in one write transaction, with the two pragmas that mark the file as ours.
    /// Version 1 lacked the columns regions.source_datum, approach_seconds and approach_distance; version 2 had
    /// circles only (no regions.shape and geometry, radius NOT NULL); version 3 lacked the fence_set table;
    /// version 4 lacked events.crossed_at; version 5 lacked the zone rules (regions.speed_limit_kmh,
    /// speed_tolerance_kmh, speed_duration_s, schedule; the overspeed kinds and events.max_speed, over_limit);
    /// version 6 lacked the overspeed episode of a region's state (regions.overspeed_since, overspeed_max,
    /// overspeed_reported, overspeed_under, overspeed_latest). `migrations` upgrades an older file.
    static let createSchema = SQLStatement(
        name: "create schema",
        text: """
            CREATE TABLE meta (
                key   TEXT PRIMARY KEY NOT NULL,
                value INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;

            \(regionsTable("regions", zoneRules: false));
            \(zoneRulesMigration(to: 6).prefix(4).map(\.text).joined(separator: ";\n"));
            \(overspeedEpisodeMigration(to: 7).dropLast().map(\.text).joined(separator: ";\n"));

            -- The outbox. No foreign key to regions: an event outlives the region it concerns.
            \(eventsTable("events"));

            -- Delivery cursors: each sink has delivered every event with sequence <= cursor.
            CREATE TABLE sinks (
                name   TEXT PRIMARY KEY NOT NULL,
                cursor INTEGER NOT NULL CHECK (cursor >= 0)
            ) STRICT, WITHOUT ROWID;

            \(fenceSetTable);

            INSERT INTO meta (key, value) VALUES ('\(lastSequenceKey)', 0);
            PRAGMA application_id = \(applicationID);
            PRAGMA user_version = \(schemaVersion);
            """)

    /// The regions table of version 3, named `name` (the migration from version 2 builds it beside the old one).
    ///
    /// Every region has a `shape`; the columns it uses:
    /// - circle: latitude, longitude = the centre; radius = the radius; geometry NULL.
    /// - polygon: geometry = the rings as GeoJSON coordinates `[[[lon,lat],...],...]` (`StoreGeometry`); radius
    ///   NULL; latitude, longitude = the centre of the outer ring's bounding box (`Region.center`): derived, never
    ///   read back, there for people reading the file with `sqlite3` (and for sorting by place).
    /// - corridor: geometry = the path `[[lon,lat],...]`; radius = the half-width; latitude, longitude as for a
    ///   polygon.
    /// The CHECKs tie the columns to the shape, so a row cannot hold a circle without a radius or a polygon without
    /// its geometry. Coordinates are WGS-84 in every column; `source_datum` says what they were given in.
    ///
    /// The state columns hold the region's `RegionStateRecord` as the monitor last reported it: state, known_state
    /// (its `lastKnownState`), inside_since, dwell_reported, and from version 7 its `overspeed` episode
    /// (overspeed_since ... overspeed_latest, all NULL when none is under way).
    /// `zoneRules: false` leaves out version 6's columns: the table as the migration from version 2 to 3 builds it
    /// (the step from 5 to 6 adds them; a new file adds them with the same statements, so that its DDL is the
    /// upgraded file's).
    static func regionsTable(_ name: String, zoneRules: Bool = true) -> String {
        """
        CREATE TABLE \(name) (
            position        INTEGER PRIMARY KEY,  -- insertion order; a replaced region keeps its place
            identifier      TEXT NOT NULL UNIQUE,
            shape           TEXT NOT NULL CHECK (shape IN ('circle', 'polygon', 'corridor')),
            latitude        REAL NOT NULL,        -- degrees, WGS-84: the centre (a polygon's, corridor's: of its box)
            longitude       REAL NOT NULL,        -- degrees, WGS-84
            radius          REAL,                 -- metres: a circle's radius, a corridor's half-width; NULL: polygon
            geometry        TEXT,                 -- GeoJSON coordinates: polygon rings, corridor path; NULL: circle
            notify_on_entry INTEGER NOT NULL CHECK (notify_on_entry IN (0, 1)),
            notify_on_exit  INTEGER NOT NULL CHECK (notify_on_exit IN (0, 1)),
            dwell_time      REAL,                 -- seconds; NULL: no dwell event
            hysteresis      REAL,                 -- metres; NULL: the monitor's default
            state           TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            known_state     TEXT NOT NULL CHECK (known_state IN ('unknown', 'inside', 'outside')),
            inside_since    REAL,                 -- GNSS time (seconds since 2001); NULL unless inside
            dwell_reported  INTEGER NOT NULL CHECK (dwell_reported IN (0, 1)),
            \(sourceDatumColumn),
            \(approachSecondsColumn),
            \(approachDistanceColumn),\(zoneRules ? zoneRulesColumns : "")
            CHECK ((radius IS NULL) = (shape = 'polygon')),
            CHECK ((geometry IS NULL) = (shape = 'circle'))
        ) STRICT
        """
    }

    /// The outbox table of version 6, named `name` (the migration from version 5 builds it beside the old one: the
    /// CHECK of `kind` gained the overspeed kinds, which SQLite cannot change in place). `crossed_at` is version 5's
    /// column, kept by the rebuild.
    static func eventsTable(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
            sequence     INTEGER PRIMARY KEY CHECK (sequence > 0),
            kind         TEXT NOT NULL CHECK (kind IN ('enter', 'exit', 'dwell', 'approach', 'state', 'overspeed',
                'overspeed_end')),
            region       TEXT NOT NULL,
            time         REAL NOT NULL,           -- GNSS time, seconds since 2001 (bit-exact Date)
            time_unix    REAL GENERATED ALWAYS AS (time + 978307200.0) VIRTUAL,
            latitude     REAL NOT NULL,
            longitude    REAL NOT NULL,
            distance     REAL,                    -- metres, negative inside; NULL when the state is unknown
            state        TEXT NOT NULL CHECK (state IN ('unknown', 'inside', 'outside')),
            inferred     INTEGER NOT NULL CHECK (inferred IN (0, 1)),
            interpolated INTEGER NOT NULL CHECK (interpolated IN (0, 1)),
            \(crossedAtColumn),                    -- estimated boundary crossing, seconds since 2001; NULL: none
            max_speed    REAL,                    -- m/s, the overspeed kinds only; NULL for the others
            over_limit   REAL                     -- seconds over the limit, the overspeed kinds only
        ) STRICT
        """
    }

    /// The version of the fence set last applied (`GeofenceStore.applyFenceSet`): one row, or none while no set has
    /// been applied. A separate table rather than a `meta` row, because meta's values are integers and a version
    /// is the back-end's text.
    static let fenceSetTable = """
        CREATE TABLE fence_set (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            version   TEXT NOT NULL
        ) STRICT
        """

    /// Version 2's columns, as version 3's table and the migration from version 1 define them (ALTER TABLE ADD
    /// COLUMN takes the same definition, with a non-NULL default for the NOT NULL column).
    /// The datum the centre was given in (`Datum.rawValue`); latitude and longitude stay WGS-84.
    private static let sourceDatumColumn = "source_datum TEXT NOT NULL DEFAULT 'wgs84' "
        + "CHECK (source_datum IN ('wgs84', 'gcj02', 'tokyo'))"
    /// Seconds before the boundary at which the approach alarm fires; NULL: no approach alarm.
    private static let approachSecondsColumn = "approach_seconds REAL CHECK (approach_seconds > 0)"
    /// Metres from the boundary below which the approach alarm may fire too; NULL: no distance threshold.
    private static let approachDistanceColumn = "approach_distance REAL CHECK (approach_distance > 0)"

    /// Version 5's column, as the new schema and the migration from version 4 define it. NULL for events without a
    /// crossing (dwell, approach, state) and for every event stored before version 5.
    private static let crossedAtColumn = "crossed_at   REAL"

    /// Version 6's zone rules (`Region.speedLimit`, `Region.schedule`), as the table and the migration from version
    /// 5 define them. A speed limit in km/h, as fence files give it; NULL: no speed limit (and then no tolerance or
    /// duration either).
    private static let speedLimitColumn = "speed_limit_kmh REAL CHECK (speed_limit_kmh > 0)"
    /// km/h above the limit before the duration counts.
    private static let speedToleranceColumn = "speed_tolerance_kmh REAL CHECK (speed_tolerance_kmh >= 0)"
    /// Seconds above limit + tolerance before an overspeed (and at or under the limit before its end).
    private static let speedDurationColumn = "speed_duration_s REAL CHECK (speed_duration_s >= 0)"
    /// The schedule's text form (`Schedule.text`); NULL: always active.
    private static let scheduleColumn = "schedule TEXT"
    /// An overspeed episode under way (`OverspeedEpisode`), version 7: GNSS times in seconds since 2001 and the
    /// maximum in m/s; overspeed_since NULL: none (the other four NULL too; `StoreRows.region` checks it).
    private static let overspeedEpisodeColumns = [
        "overspeed_since REAL",
        "overspeed_max REAL CHECK (overspeed_max >= 0)",
        "overspeed_reported INTEGER CHECK (overspeed_reported IN (0, 1))",
        "overspeed_under REAL",
        "overspeed_latest REAL",
    ]

    private static var zoneRulesColumns: String {
        "\n    \(speedLimitColumn),\n    \(speedToleranceColumn),\n    \(speedDurationColumn),\n    \(scheduleColumn),"
    }

    /// The steps from each older version to the next, each run in the same write transaction as the others (a
    /// failure rolls the file back to the version it had): `migrations[v]` takes version v to v + 1, one statement
    /// per step, so that errors name the step.
    ///
    /// Version 2 -> 3 rebuilds the regions table (SQLite cannot drop the NOT NULL of radius in place): the old
    /// table is renamed, the new one created under the old name (so its DDL is the same as in a new file), every
    /// row copied as a circle with its position, state and stay, and the old table dropped. No other table, index,
    /// view or trigger refers to regions.
    static let migrations: [Int32: [SQLStatement]] = [
        1: [
            SQLStatement(name: "migrate to version 2: add regions.source_datum",
                         text: "ALTER TABLE regions ADD COLUMN \(sourceDatumColumn)"),
            SQLStatement(name: "migrate to version 2: add regions.approach_seconds",
                         text: "ALTER TABLE regions ADD COLUMN \(approachSecondsColumn)"),
            SQLStatement(name: "migrate to version 2: add regions.approach_distance",
                         text: "ALTER TABLE regions ADD COLUMN \(approachDistanceColumn)"),
            SQLStatement(name: "migrate to version 2: set user_version", text: "PRAGMA user_version = 2"),
        ],
        2: [
            SQLStatement(name: "migrate to version 3: rename regions",
                         text: "ALTER TABLE regions RENAME TO regions_version_2"),
            SQLStatement(name: "migrate to version 3: create regions",
                         text: regionsTable("regions", zoneRules: false)),
            SQLStatement(
                name: "migrate to version 3: copy regions as circles",
                text: """
                    INSERT INTO regions (position, identifier, shape, latitude, longitude, radius, geometry,
                        notify_on_entry, notify_on_exit, dwell_time, hysteresis, state, known_state, inside_since,
                        dwell_reported, source_datum, approach_seconds, approach_distance)
                    SELECT position, identifier, 'circle', latitude, longitude, radius, NULL, notify_on_entry,
                        notify_on_exit, dwell_time, hysteresis, state, known_state, inside_since, dwell_reported,
                        source_datum, approach_seconds, approach_distance
                    FROM regions_version_2 ORDER BY position
                    """),
            SQLStatement(name: "migrate to version 3: drop the old regions", text: "DROP TABLE regions_version_2"),
            SQLStatement(name: "migrate to version 3: set user_version", text: "PRAGMA user_version = 3"),
        ],
        3: [
            SQLStatement(name: "migrate to version 4: create fence_set", text: fenceSetTable),
            SQLStatement(name: "migrate to version 4: set user_version", text: "PRAGMA user_version = 4"),
        ],
        // Event crossing times: one column, NULL in the events already stored (their crossing is not known).
        4: [
            SQLStatement(name: "migrate to version 5: add events.crossed_at",
                         text: "ALTER TABLE events ADD COLUMN \(crossedAtColumn)"),
            SQLStatement(name: "migrate to version 5: set user_version", text: "PRAGMA user_version = 5"),
        ],
        5: zoneRulesMigration(to: 6),
        6: overspeedEpisodeMigration(to: 7),
    ]

    /// The step that keeps an overspeed episode across a restart: five region columns, NULL in every row (no
    /// episode was kept before, so none is under way as far as the file knows). `version` is the one it leads to;
    /// a new file runs the same ALTERs (all but the last statement), so that its DDL is the upgraded file's.
    static func overspeedEpisodeMigration(to version: Int32) -> [SQLStatement] {
        let step = "migrate to version \(version) (overspeed episodes)"
        return overspeedEpisodeColumns.map { column in
            let name = column.prefix { $0 != " " }
            return SQLStatement(name: "\(step): add regions.\(name)", text: "ALTER TABLE regions ADD COLUMN \(column)")
        } + [SQLStatement(name: "\(step): set user_version", text: "PRAGMA user_version = \(version)")]
    }

    /// The zone rules' step (speed limits and schedules): four region columns added, and the outbox rebuilt for its
    /// wider CHECK of `kind` and its two new columns (renamed, created under its name, rows copied in sequence
    /// order, the old one dropped; no index, view or trigger refers to it). `version` is the one it leads to.
    static func zoneRulesMigration(to version: Int32) -> [SQLStatement] {
        let step = "migrate to version \(version) (zone rules)"
        return [
            SQLStatement(name: "\(step): add regions.speed_limit_kmh",
                         text: "ALTER TABLE regions ADD COLUMN \(speedLimitColumn)"),
            SQLStatement(name: "\(step): add regions.speed_tolerance_kmh",
                         text: "ALTER TABLE regions ADD COLUMN \(speedToleranceColumn)"),
            SQLStatement(name: "\(step): add regions.speed_duration_s",
                         text: "ALTER TABLE regions ADD COLUMN \(speedDurationColumn)"),
            SQLStatement(name: "\(step): add regions.schedule", text: "ALTER TABLE regions ADD COLUMN \(scheduleColumn)"),
            SQLStatement(name: "\(step): rename events", text: "ALTER TABLE events RENAME TO events_before_zone_rules"),
            SQLStatement(name: "\(step): create events", text: eventsTable("events")),
            SQLStatement(
                name: "\(step): copy events",
                text: """
                    INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
                        interpolated, crossed_at)
                    SELECT sequence, kind, region, time, latitude, longitude, distance, state, inferred, interpolated,
                        crossed_at
                    FROM events_before_zone_rules ORDER BY sequence
                    """),
            SQLStatement(name: "\(step): drop the old events", text: "DROP TABLE events_before_zone_rules"),
            SQLStatement(name: "\(step): set user_version", text: "PRAGMA user_version = \(version)"),
        ]
    }

    // MARK: Opening

    static let applicationIDPragma = SQLStatement(name: "read application_id", text: "PRAGMA application_id")
    static let userVersionPragma = SQLStatement(name: "read user_version", text: "PRAGMA user_version")
    static let countSchemaObjects = SQLStatement(
        name: "count schema objects", text: "SELECT count(*) FROM sqlite_schema")
    static let quickCheck = SQLStatement(name: "quick_check", text: "PRAGMA quick_check(5)")
    /// Around `quickCheck` only (`StoreSchema.quickCheck`): every write enforces the CHECK constraints.
    static let skipCheckConstraints = SQLStatement(
        name: "skip CHECKs for quick_check", text: "PRAGMA ignore_check_constraints = ON")
    static let enforceCheckConstraints = SQLStatement(
        name: "enforce CHECKs", text: "PRAGMA ignore_check_constraints = OFF")
    /// Returns the journal mode now in force ("wal" unless the file system cannot do WAL).
    static let journalModeWAL = SQLStatement(name: "set journal_mode=WAL", text: "PRAGMA journal_mode = WAL")
    /// Per connection. FULL: see the durability notes of `GeofenceStore`. The WAL file is truncated to 4 MiB after
    /// a checkpoint so that a burst does not keep its high-water size on a small flash disk.
    static let connectionSettings = SQLStatement(
        name: "connection settings",
        text: "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = 4194304")

    // MARK: Transactions

    /// IMMEDIATE takes the write lock at the start, waiting up to the busy timeout. A deferred transaction that
    /// reads first and then writes gets SQLITE_BUSY at once, without waiting, when another writer committed in
    /// between; IMMEDIATE avoids that.
    static let beginWrite = SQLStatement(name: "begin write transaction", text: "BEGIN IMMEDIATE")
    /// A read transaction: one snapshot for several SELECTs.
    static let beginRead = SQLStatement(name: "begin read transaction", text: "BEGIN DEFERRED")
    static let commit = SQLStatement(name: "commit", text: "COMMIT")
    static let rollback = SQLStatement(name: "rollback", text: "ROLLBACK")

    // MARK: Regions

    /// Columns 0 ... 25, as `StoreRows.region` reads them.
    private static let regionColumns = """
        identifier, latitude, longitude, radius, notify_on_entry, notify_on_exit, dwell_time, hysteresis,
        state, known_state, inside_since, dwell_reported, source_datum, approach_seconds, approach_distance,
        shape, geometry, speed_limit_kmh, speed_tolerance_kmh, speed_duration_s, schedule,
        overspeed_since, overspeed_max, overspeed_reported, overspeed_under, overspeed_latest
        """
    static let selectRegions = SQLStatement(
        name: "select regions", text: "SELECT \(regionColumns) FROM regions ORDER BY position")
    static let countRegions = SQLStatement(name: "count regions", text: "SELECT count(*) FROM regions")
    static let selectRegion = SQLStatement(
        name: "select region", text: "SELECT \(regionColumns) FROM regions WHERE identifier = ?1")
    /// ?1 identifier, ?2 latitude, ?3 longitude, ?4 radius, ?5 notify_on_entry, ?6 notify_on_exit, ?7 dwell_time,
    /// ?8 hysteresis, ?9 source_datum, ?10 approach_seconds, ?11 approach_distance, ?12 shape, ?13 geometry,
    /// ?14 speed_limit_kmh, ?15 speed_tolerance_kmh, ?16 speed_duration_s, ?17 schedule. The
    /// state columns are left as they are (a region whose shape changes keeps its state, as one whose radius does).
    static let updateRegionDefinition = SQLStatement(
        name: "update region",
        text: """
            UPDATE regions SET latitude = ?2, longitude = ?3, radius = ?4, notify_on_entry = ?5,
                notify_on_exit = ?6, dwell_time = ?7, hysteresis = ?8, source_datum = ?9, approach_seconds = ?10,
                approach_distance = ?11, shape = ?12, geometry = ?13, speed_limit_kmh = ?14,
                speed_tolerance_kmh = ?15, speed_duration_s = ?16, schedule = ?17
            WHERE identifier = ?1
            """)
    /// The same parameters as `updateRegionDefinition`; a new region's state is unknown.
    static let insertRegion = SQLStatement(
        name: "insert region",
        text: insertRegionColumns + """
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, 'unknown', 'unknown',
                NULL, 0)
            """)
    /// The columns `insertRegion` and `upsertRegionBatch` write (the 17 definition parameters, then the state), with
    /// the line's end.
    private static let insertRegionColumns = """
            INSERT INTO regions (identifier, latitude, longitude, radius, notify_on_entry, notify_on_exit,
                dwell_time, hysteresis, source_datum, approach_seconds, approach_distance, shape, geometry,
                speed_limit_kmh, speed_tolerance_kmh, speed_duration_s, schedule, state, known_state, inside_since,
                dwell_reported)

            """
    /// `insertRegion`, or, for an identifier stored already, `updateRegionDefinition`: one statement per region of
    /// an import (the state columns of a stored region are left as they are).
    static let upsertRegion = SQLStatement(name: "upsert region", text: insertRegion.text + upsertConflictClause)

    /// Rows per run of the batched writes (`upsertRegionBatch`, `updateRegionStateBatch`). SQLite builds the lookup
    /// table of a CHECK's IN list (shape, state, known_state, source_datum) once per run of a statement: one run
    /// per row rebuilt four of them for each region imported. 128 rows of 17 parameters stay far below SQLite's
    /// limit of 32,766 parameters.
    static let batchRows = 128
    /// Parameters per region of `insertRegion`, `updateRegionDefinition`, `upsertRegion` and their batch.
    static let regionDefinitionParameters: Int32 = 17
    /// Parameters per region of `updateRegionState` and its batch.
    static let regionStateParameters: Int32 = 10

    /// `upsertRegion` for `batchRows` regions: row k's parameters are ?(17k + 1) ... ?(17k + 17), in the order of
    /// `insertRegion`'s. Rows run in order, so a later duplicate replaces an earlier one as with `upsertRegion`.
    static let upsertRegionBatch = SQLStatement(
        name: "upsert regions (batch)",
        text: insertRegionColumns + """
            VALUES \(parameterRows(batchRows, width: regionDefinitionParameters, then: "'unknown', 'unknown', NULL, 0"))
            """ + upsertConflictClause)

    /// `updateRegionState` for `batchRows` regions (distinct identifiers): row k's parameters are ?(10k + 1) ...
    /// ?(10k + 10), in the order of `updateRegionState`'s.
    static let updateRegionStateBatch = SQLStatement(
        name: "update region states (batch)",
        text: """
            UPDATE regions SET state = s.column2, known_state = s.column3, inside_since = s.column4,
                dwell_reported = s.column5, overspeed_since = s.column6, overspeed_max = s.column7,
                overspeed_reported = s.column8, overspeed_under = s.column9, overspeed_latest = s.column10
            FROM (VALUES \(parameterRows(batchRows, width: regionStateParameters))) AS s
            WHERE regions.identifier = s.column1
            """)

    /// `(?1, ..., ?width), (?width+1, ...), ...`: `rows` rows of numbered parameters, each followed by `then`.
    private static func parameterRows(_ rows: Int, width: Int32, then constants: String? = nil) -> String {
        (0..<rows).map { row in
            let parameters = (1...Int(width)).map { "?\(row * Int(width) + $0)" } + (constants.map { [$0] } ?? [])
            return "(" + parameters.joined(separator: ", ") + ")"
        }.joined(separator: ",\n")
    }

    private static let upsertConflictClause = """

            ON CONFLICT (identifier) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
                radius = excluded.radius, notify_on_entry = excluded.notify_on_entry,
                notify_on_exit = excluded.notify_on_exit, dwell_time = excluded.dwell_time,
                hysteresis = excluded.hysteresis, source_datum = excluded.source_datum,
                approach_seconds = excluded.approach_seconds, approach_distance = excluded.approach_distance,
                shape = excluded.shape, geometry = excluded.geometry, speed_limit_kmh = excluded.speed_limit_kmh,
                speed_tolerance_kmh = excluded.speed_tolerance_kmh, speed_duration_s = excluded.speed_duration_s,
                schedule = excluded.schedule
            """
    static let deleteRegion = SQLStatement(name: "delete region", text: "DELETE FROM regions WHERE identifier = ?1")
    /// ?1 identifier, ?2 state, ?3 known_state, ?4 inside_since, ?5 dwell_reported, ?6 overspeed_since,
    /// ?7 overspeed_max, ?8 overspeed_reported, ?9 overspeed_under, ?10 overspeed_latest.
    static let updateRegionState = SQLStatement(
        name: "update region state",
        text: """
            UPDATE regions SET state = ?2, known_state = ?3, inside_since = ?4, dwell_reported = ?5,
                overspeed_since = ?6, overspeed_max = ?7, overspeed_reported = ?8, overspeed_under = ?9,
                overspeed_latest = ?10
            WHERE identifier = ?1
            """)

    // MARK: Outbox

    static let selectFenceSetVersion = SQLStatement(
        name: "select fence-set version", text: "SELECT version FROM fence_set WHERE singleton = 1")
    static let replaceFenceSetVersion = SQLStatement(
        name: "store fence-set version",
        text: "INSERT INTO fence_set (singleton, version) VALUES (1, ?1) "
            + "ON CONFLICT (singleton) DO UPDATE SET version = excluded.version")

    static let selectLastSequence = SQLStatement(
        name: "select last sequence", text: "SELECT value FROM meta WHERE key = '\(lastSequenceKey)'")
    static let updateLastSequence = SQLStatement(
        name: "update last sequence", text: "UPDATE meta SET value = ?1 WHERE key = '\(lastSequenceKey)'")
    /// ?1 sequence, ?2 kind, ?3 region, ?4 time, ?5 latitude, ?6 longitude, ?7 distance, ?8 state, ?9 inferred,
    /// ?10 interpolated, ?11 crossed_at, ?12 max_speed, ?13 over_limit.
    static let insertEvent = SQLStatement(
        name: "insert event",
        text: """
            INSERT INTO events (sequence, kind, region, time, latitude, longitude, distance, state, inferred,
                interpolated, crossed_at, max_speed, over_limit)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """)
    /// Columns 0 ... 12 in the order of `insertEvent`'s parameters. ?1 after (exclusive), ?2 limit.
    static let selectEventsAfter = SQLStatement(
        name: "select events",
        text: """
            SELECT sequence, kind, region, time, latitude, longitude, distance, state, inferred, interpolated,
                crossed_at, max_speed, over_limit
            FROM events WHERE sequence > ?1 ORDER BY sequence LIMIT ?2
            """)
    /// ?1 deletes every event with sequence <= ?1.
    static let deleteEventsThrough = SQLStatement(
        name: "prune events", text: "DELETE FROM events WHERE sequence <= ?1")

    // MARK: Sinks

    /// ?1 name, ?2 initial cursor. A sink already registered keeps its cursor.
    static let insertSink = SQLStatement(
        name: "register sink",
        text: "INSERT INTO sinks (name, cursor) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING")
    static let deleteSink = SQLStatement(name: "remove sink", text: "DELETE FROM sinks WHERE name = ?1")
    static let selectSinkCursor = SQLStatement(
        name: "select sink cursor", text: "SELECT cursor FROM sinks WHERE name = ?1")
    static let selectSinks = SQLStatement(name: "select sinks", text: "SELECT name, cursor FROM sinks ORDER BY name")
    /// ?1 name, ?2 sequence; the cursor never moves back.
    static let advanceSinkCursor = SQLStatement(
        name: "mark delivered", text: "UPDATE sinks SET cursor = max(cursor, ?2) WHERE name = ?1")
    /// The lowest cursor of all sinks: every event up to it has been delivered everywhere. NULL without sinks.
    static let selectLowestCursor = SQLStatement(name: "select lowest cursor", text: "SELECT min(cursor) FROM sinks")
}
