import Foundation
import Geofencing

/// Values to and from the rows of the store's tables, in the column and parameter order `StoreSQL` documents.
/// A value the schema forbids (a state that is not a `RegionState`, ...) makes the row corrupt.
enum StoreRows {
    // MARK: Regions

    /// Binds ?1 ... ?11 of `StoreSQL.insertRegion` / `updateRegionDefinition`.
    static func bindDefinition(_ region: Region, to statement: Statement) throws(StoreError) {
        try statement.bind(1, region.identifier)
        try statement.bind(2, region.center.latitude)
        try statement.bind(3, region.center.longitude)
        try statement.bind(4, region.radius ?? .nan)
        try statement.bind(5, region.notifyOnEntry)
        try statement.bind(6, region.notifyOnExit)
        try statement.bind(7, region.dwellTime)
        try statement.bind(8, region.hysteresis)
        try statement.bind(9, region.sourceDatum.rawValue)
        try statement.bind(10, region.approach?.leadTime)
        try statement.bind(11, region.approach?.maximumDistance)
    }

    /// Why the store cannot keep `region`, or nil. SQLite would store a NaN as NULL (so the region would come back
    /// different, or break a NOT NULL constraint with a message that names no region).
    static func problem(with region: Region) -> String? {
        let name = JSONText.quoted(region.identifier)
        if region.identifier.isEmpty { return "a region has an empty identifier" }
        if region.center.latitude.isNaN { return "region \(name): latitude is not a number" }
        if region.center.longitude.isNaN { return "region \(name): longitude is not a number" }
        if region.radius?.isNaN ?? true { return "region \(name): radius is not a number" }
        if region.dwellTime?.isNaN == true { return "region \(name): dwell time is not a number" }
        if region.hysteresis?.isNaN == true { return "region \(name): hysteresis is not a number" }
        if let approach = region.approach {
            /* The columns' CHECK (> 0) would refuse these with a message that names no region. */
            if !(approach.leadTime > 0) { return "region \(name): approach lead time \(approach.leadTime) s is not > 0" }
            if let distance = approach.maximumDistance, !(distance > 0) {
                return "region \(name): approach distance \(distance) m is not > 0"
            }
        }
        return nil
    }

    /// Reads a row of `StoreSQL.selectRegions` / `selectRegion` (columns 0 ... 14).
    static func region(_ row: Statement, path: String) throws(StoreError) -> StoredRegion {
        let identifier = row.text(0)
        var definition = Region(
            center: Coordinate(latitude: row.double(1) ?? .nan, longitude: row.double(2) ?? .nan),
            radius: row.double(3) ?? .nan, identifier: identifier,
            notifyOnEntry: row.int64(4) != 0, notifyOnExit: row.int64(5) != 0,
            dwellTime: row.double(6), hysteresis: row.double(7))
        let place = "regions row \(JSONText.quoted(identifier))"
        let datumText = row.text(12)
        guard let datum = Datum(rawValue: datumText) else {
            throw .corrupt(path: path, detail: "\(place) source_datum is \(JSONText.quoted(datumText)), not a datum")
        }
        definition.sourceDatum = datum
        if let leadTime = row.double(13) {
            definition.approach = ApproachAlarm(leadTime: leadTime, maximumDistance: row.double(14))
        } else if row.double(14) != nil {
            throw .corrupt(path: path, detail: "\(place) has approach_distance without approach_seconds")
        }
        let columns = StoredRegionState(
            state: try state(row.text(8), path: path, where: place + " state"),
            knownState: try state(row.text(9), path: path, where: place + " known_state"),
            insideSince: row.double(10).map(Date.init(timeIntervalSinceReferenceDate:)),
            dwellReported: row.int64(11) != 0)
        return StoredRegion(region: definition, state: columns.state, restored: columns.restored)
    }

    /// Reads a row of `StoreSQL.selectRegionState` (columns 0 ... 3).
    static func regionState(_ row: Statement, path: String, identifier: String)
        throws(StoreError) -> StoredRegionState
    {
        let place = "regions row \(JSONText.quoted(identifier))"
        return StoredRegionState(
            state: try state(row.text(0), path: path, where: place + " state"),
            knownState: try state(row.text(1), path: path, where: place + " known_state"),
            insideSince: row.double(2).map(Date.init(timeIntervalSinceReferenceDate:)),
            dwellReported: row.int64(3) != 0)
    }

    /// Binds ?1 ... ?5 of `StoreSQL.updateRegionState`.
    static func bindState(
        _ columns: StoredRegionState, identifier: String, to statement: Statement
    ) throws(StoreError) {
        try statement.bind(1, identifier)
        try statement.bind(2, columns.state.rawValue)
        try statement.bind(3, columns.knownState.rawValue)
        try statement.bind(4, columns.insideSince?.timeIntervalSinceReferenceDate)
        try statement.bind(5, columns.dwellReported)
    }

    // MARK: Events

    /// Why the store cannot keep `event`, or nil: a sequence number SQLite's signed INTEGER cannot hold (or 0,
    /// which means "no event"), or a number that is NaN (it would come back as NULL).
    static func problem(with event: EventRecord) -> String? {
        let name = "event \(event.sequence)"
        if event.sequence == 0 || event.sequence > UInt64(Int64.max) {
            return "\(name): the sequence number must be 1 ... \(Int64.max)"
        }
        if event.time.timeIntervalSinceReferenceDate.isNaN { return "\(name): time is not a number" }
        if event.latitude.isNaN { return "\(name): latitude is not a number" }
        if event.longitude.isNaN { return "\(name): longitude is not a number" }
        if event.distance?.isNaN == true { return "\(name): distance is not a number" }
        return nil
    }

    /// Binds ?1 ... ?10 of `StoreSQL.insertEvent`. The sequence number is in range (`problem(with:)`).
    static func bindEvent(_ event: EventRecord, to statement: Statement) throws(StoreError) {
        try statement.bind(1, Int64(event.sequence))
        try statement.bind(2, event.kind.rawValue)
        try statement.bind(3, event.region)
        try statement.bind(4, event.time.timeIntervalSinceReferenceDate)
        try statement.bind(5, event.latitude)
        try statement.bind(6, event.longitude)
        try statement.bind(7, event.distance)
        try statement.bind(8, event.state.rawValue)
        try statement.bind(9, event.inferred)
        try statement.bind(10, event.interpolated)
    }

    /// Reads a row of `StoreSQL.selectEventsAfter` (columns 0 ... 9).
    static func event(_ row: Statement, path: String) throws(StoreError) -> EventRecord {
        let sequence = row.int64(0)
        let place = "events row \(sequence)"
        let kindText = row.text(1)
        guard sequence > 0, let kind = EventRecord.Kind(rawValue: kindText) else {
            throw .corrupt(path: path, detail: "\(place): kind \(JSONText.quoted(kindText)) or sequence invalid")
        }
        return EventRecord(
            sequence: UInt64(sequence), kind: kind, region: row.text(2),
            time: Date(timeIntervalSinceReferenceDate: row.double(3) ?? .nan),
            latitude: row.double(4) ?? .nan, longitude: row.double(5) ?? .nan, distance: row.double(6),
            state: try state(row.text(7), path: path, where: place + " state"),
            inferred: row.int64(8) != 0, interpolated: row.int64(9) != 0)
    }

    // MARK: Values

    private static func state(_ text: String, path: String, where place: String) throws(StoreError) -> RegionState {
        guard let state = RegionState(rawValue: text) else {
            throw .corrupt(path: path, detail: "\(place) is \(JSONText.quoted(text)), not a region state")
        }
        return state
    }
}
