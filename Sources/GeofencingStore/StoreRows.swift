import Foundation
import Geofencing
import GeofencingEvents

/// Values to and from the rows of the store's tables, in the column and parameter order `StoreSQL` documents.
/// A value the schema forbids (a state that is not a `RegionState`, ...) makes the row corrupt.
enum StoreRows {
    // MARK: Regions

    /// Binds ?1 ... ?17 of `StoreSQL.insertRegion` / `updateRegionDefinition`; the shape's columns as
    /// `StoreSQL.regionsTable` documents them.
    static func bindDefinition(_ region: Region, to statement: Statement) throws(StoreError) {
        try statement.bind(1, region.identifier)
        try statement.bind(2, region.center.latitude)
        try statement.bind(3, region.center.longitude)
        switch region.shape {
        case .circle(_, let radius):
            try statement.bind(4, radius)
            try statement.bind(12, ShapeName.circle.rawValue)
            try statement.bind(13, nil as Double?)
        case .polygon(let rings):
            try statement.bind(4, nil as Double?)
            try statement.bind(12, ShapeName.polygon.rawValue)
            try statement.bind(13, StoreGeometry.text(rings: rings))
        case .corridor(let path, let halfWidth):
            try statement.bind(4, halfWidth)
            try statement.bind(12, ShapeName.corridor.rawValue)
            try statement.bind(13, StoreGeometry.text(path: path))
        }
        try statement.bind(5, region.notifyOnEntry)
        try statement.bind(6, region.notifyOnExit)
        try statement.bind(7, region.dwellTime)
        try statement.bind(8, region.hysteresis)
        try statement.bind(9, region.sourceDatum.rawValue)
        try statement.bind(10, region.approach?.leadTime)
        try statement.bind(11, region.approach?.maximumDistance)
        try statement.bind(14, region.speedLimit?.limitKilometresPerHour)
        try statement.bind(15, region.speedLimit?.toleranceKilometresPerHour)
        try statement.bind(16, region.speedLimit?.duration)
        if let schedule = region.schedule { try statement.bind(17, schedule.text) } else { try statement.bind(17, nil as Double?) }
    }

    /// Why the store cannot keep `region`, or nil. SQLite would store a NaN as NULL (so the region would come back
    /// different, or break a NOT NULL constraint with a message that names no region), and the geometry text, like
    /// JSON, has no NaN or infinity. A polygon needs a ring and a ring or path a vertex (else there is no centre to
    /// store); that the shape is one the monitor accepts (3 vertices a ring, limits of latitude) is not checked here:
    /// the store keeps what it is given, and `RegionMonitor` says what is wrong with it.
    static func problem(with region: Region) -> String? {
        // Quoted only for a message: an import checks 10^6 regions that have none.
        var name: String { JSONText.quoted(region.identifier) }
        if region.identifier.isEmpty { return "a region has an empty identifier" }
        switch region.shape {
        case .circle(let center, let radius):
            if center.latitude.isNaN { return "region \(name): latitude is not a number" }
            if center.longitude.isNaN { return "region \(name): longitude is not a number" }
            if radius.isNaN { return "region \(name): radius is not a number" }
        case .polygon(let rings):
            if rings.isEmpty { return "region \(name): the polygon has no rings" }
            for (index, ring) in rings.enumerated() {
                if let problem = problem(with: ring, what: "ring \(index + 1) of the polygon") {
                    return "region \(name): \(problem)"
                }
            }
        case .corridor(let path, let halfWidth):
            if let problem = problem(with: path, what: "the corridor's path") { return "region \(name): \(problem)" }
            if halfWidth.isNaN { return "region \(name): the corridor's half-width is not a number" }
        }
        if region.dwellTime?.isNaN == true { return "region \(name): dwell time is not a number" }
        if region.hysteresis?.isNaN == true { return "region \(name): hysteresis is not a number" }
        if let approach = region.approach {
            /* The columns' CHECK (> 0) would refuse these with a message that names no region. */
            if !(approach.leadTime > 0) { return "region \(name): approach lead time \(approach.leadTime) s is not > 0" }
            if let distance = approach.maximumDistance, !(distance > 0) {
                return "region \(name): approach distance \(distance) m is not > 0"
            }
        }
        if let speedLimit = region.speedLimit, let problem = speedLimit.problem {
            // The columns' CHECKs would refuse some of these with a message that names no region.
            return "region \(name): \(problem)"
        }
        if let problem = region.schedule?.problem { return "region \(name): schedule: \(problem)" }
        return nil
    }

    /// Why a ring or path cannot be stored: no vertices, or a coordinate that is not finite.
    private static func problem(with positions: [Coordinate], what: String) -> String? {
        if positions.isEmpty { return "\(what) has no vertices" }
        for (index, position) in positions.enumerated()
        where !position.latitude.isFinite || !position.longitude.isFinite {
            return "vertex \(index + 1) of \(what), (\(position.latitude), \(position.longitude)), is not finite"
        }
        return nil
    }

    /// Reads a row of `StoreSQL.selectRegions` / `selectRegion` (columns 0 ... 25).
    static func region(_ row: Statement, path: String) throws(StoreError) -> StoredRegion {
        let identifier = row.text(0)
        // Made only for an error: a restart reads 10^6 rows that have none.
        var place: String { regionPlace(identifier) }
        var definition = Region(
            shape: try shape(row, path: path, identifier: identifier), identifier: identifier,
            notifyOnEntry: try flag(row, 4, path: path, where: place + " notify_on_entry"),
            notifyOnExit: try flag(row, 5, path: path, where: place + " notify_on_exit"),
            dwellTime: row.double(6), hysteresis: row.double(7))
        let datumText = row.text(12)
        guard let datum = Datum(rawValue: datumText) else {
            throw .corrupt(path: path, detail: "\(place) source_datum is \(JSONText.quoted(datumText)), not a datum")
        }
        definition.sourceDatum = datum
        if let leadTime = row.double(13) {
            let distance = row.double(14)
            guard leadTime > 0, distance.map({ $0 > 0 }) ?? true else {
                throw .corrupt(path: path, detail: "\(place) has approach_seconds or approach_distance not > 0")
            }
            definition.approach = ApproachAlarm(leadTime: leadTime, maximumDistance: distance)
        } else if row.double(14) != nil {
            throw .corrupt(path: path, detail: "\(place) has approach_distance without approach_seconds")
        }
        if let limit = row.double(17) {
            let tolerance = row.double(18) ?? SpeedLimit.defaultToleranceKilometresPerHour
            let duration = row.double(19) ?? SpeedLimit.defaultDuration
            guard limit > 0, tolerance >= 0, duration >= 0 else {
                throw .corrupt(path: path, detail: "\(place) has speed_limit_kmh not > 0, or speed_tolerance_kmh "
                    + "or speed_duration_s negative")
            }
            definition.speedLimit = SpeedLimit(
                kilometresPerHour: limit, toleranceKilometresPerHour: tolerance, duration: duration)
        }
        if !row.isNull(20) {
            do {
                definition.schedule = try Schedule(parsing: row.text(20))
            } catch {
                throw .corrupt(path: path, detail: "\(place) schedule: \(error.message)")
            }
        }
        let stateRecord = RegionStateRecord(
            state: try state(row.text(8), path: path, where: place + " state"),
            lastKnownState: try state(row.text(9), path: path, where: place + " known_state"),
            insideSince: row.double(10).map(Date.init(timeIntervalSinceReferenceDate:)),
            dwellReported: try flag(row, 11, path: path, where: place + " dwell_reported"),
            overspeed: try overspeedEpisode(row, path: path, identifier: identifier))
        return StoredRegion(region: definition, stateRecord: stateRecord)
    }

    /// The overspeed episode of a regions row: columns 21 overspeed_since ... 25 overspeed_latest, all NULL or
    /// since, max, reported and latest set (under only in a reported episode).
    private static func overspeedEpisode(
        _ row: Statement, path: String, identifier: String
    ) throws(StoreError) -> OverspeedEpisode? {
        var place: String { regionPlace(identifier) }
        func date(_ column: Int32) -> Date? { row.double(column).map(Date.init(timeIntervalSinceReferenceDate:)) }
        guard let since = date(21) else {
            if (22...25).contains(where: { !row.isNull($0) }) {
                throw .corrupt(path: path, detail: "\(place) has an overspeed episode without overspeed_since")
            }
            return nil
        }
        guard let maximum = row.double(22), !row.isNull(23), let latest = date(25) else {
            throw .corrupt(path: path, detail: "\(place) has overspeed_since without overspeed_max, "
                + "overspeed_reported or overspeed_latest")
        }
        guard maximum >= 0 else { throw .corrupt(path: path, detail: "\(place) overspeed_max is negative") }
        let reported = try flag(row, 23, path: path, where: place + " overspeed_reported")
        if !reported, !row.isNull(24) {
            throw .corrupt(path: path, detail: "\(place) has overspeed_under in an episode not reported")
        }
        return OverspeedEpisode(overSince: since, maximumSpeed: maximum, reported: reported, underSince: date(24),
                                latestFix: latest)
    }

    /// The shape of a regions row: columns 1 latitude, 2 longitude, 3 radius, 15 shape, 16 geometry.
    private static func shape(_ row: Statement, path: String, identifier: String) throws(StoreError) -> RegionShape {
        var place: String { regionPlace(identifier) }
        let shapeText = row.text(15)
        guard let name = ShapeName(rawValue: shapeText) else {
            throw .corrupt(path: path, detail: "\(place) shape is \(JSONText.quoted(shapeText)), not circle, polygon "
                + "or corridor")
        }
        // The table's CHECKs make radius and geometry present when the shape needs them; a file whose rows break
        // them (edited with the constraints off) is corrupt, not a crash.
        func required(_ column: String) -> StoreError {
            .corrupt(path: path, detail: "\(place) is a \(shapeText) without \(column)")
        }
        func geometry<Value>(_ decode: (String) throws(StoreGeometry.Problem) -> Value) throws(StoreError) -> Value {
            guard !row.isNull(16) else { throw required("geometry") }
            do {
                return try decode(row.text(16))
            } catch {
                throw .corrupt(path: path, detail: "\(place) geometry: \(error.message)")
            }
        }
        // The converse CHECKs: a polygon has no radius, a circle no geometry.
        if (name == .polygon && !row.isNull(3)) || (name == .circle && !row.isNull(16)) {
            let column = name == .circle ? "geometry" : "radius"
            throw .corrupt(path: path, detail: "\(place) is a \(shapeText) with \(column)")
        }
        switch name {
        case .circle:
            guard let radius = row.double(3) else { throw required("radius") }
            return .circle(center: Coordinate(latitude: row.double(1) ?? .nan, longitude: row.double(2) ?? .nan),
                           radius: radius)
        case .polygon:
            return .polygon(rings: try geometry(StoreGeometry.rings))
        case .corridor:
            guard let halfWidth = row.double(3) else { throw required("radius (the half-width)") }
            return .corridor(path: try geometry(StoreGeometry.path), halfWidth: halfWidth)
        }
    }

    /// How errors name a regions row.
    private static func regionPlace(_ identifier: String) -> String {
        "regions row \(JSONText.quoted(identifier))"
    }

    /// The values of `regions.shape`.
    private enum ShapeName: String {
        case circle, polygon, corridor
    }

    /// Why the store cannot keep a region's state record, or nil: an `insideSince` that is NaN (it would come back
    /// as NULL).
    static func problem(with stateRecord: RegionStateRecord, identifier: String) -> String? {
        var name: String { "the state of region \(JSONText.quoted(identifier))" }
        if stateRecord.insideSince?.timeIntervalSinceReferenceDate.isNaN == true {
            return "\(name): inside since is not a number"
        }
        if let episode = stateRecord.overspeed {
            let numbers = [episode.overSince.timeIntervalSinceReferenceDate, episode.maximumSpeed,
                           episode.latestFix.timeIntervalSinceReferenceDate,
                           episode.underSince?.timeIntervalSinceReferenceDate ?? 0]
            if numbers.contains(where: \.isNaN) { return "\(name): a time or speed of its overspeed is not a number" }
            if !(episode.maximumSpeed >= 0) { return "\(name): its overspeed's maximum speed is negative" }
            if episode.underSince != nil, !episode.reported {
                return "\(name): its overspeed has a time under the limit but was not reported"
            }
        }
        return nil
    }

    /// Binds ?1 ... ?10 of `StoreSQL.updateRegionState`.
    static func bindState(
        _ stateRecord: RegionStateRecord, identifier: String, to statement: Statement
    ) throws(StoreError) {
        try statement.bind(1, identifier)
        try statement.bind(2, stateRecord.state.rawValue)
        try statement.bind(3, stateRecord.lastKnownState.rawValue)
        try statement.bind(4, stateRecord.insideSince?.timeIntervalSinceReferenceDate)
        try statement.bind(5, stateRecord.dwellReported)
        let episode = stateRecord.overspeed
        try statement.bind(6, episode?.overSince.timeIntervalSinceReferenceDate)
        try statement.bind(7, episode?.maximumSpeed)
        if let episode { try statement.bind(8, episode.reported) } else { try statement.bind(8, nil as Double?) }
        try statement.bind(9, episode?.underSince?.timeIntervalSinceReferenceDate)
        try statement.bind(10, episode?.latestFix.timeIntervalSinceReferenceDate)
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
        if event.crossedAt?.timeIntervalSinceReferenceDate.isNaN == true { return "\(name): crossed_at is not a number" }
        if event.maximumSpeed?.isNaN == true { return "\(name): maximum speed is not a number" }
        if event.overLimitDuration?.isNaN == true { return "\(name): time over the limit is not a number" }
        return nil
    }

    /// Binds ?1 ... ?11 of `StoreSQL.insertEvent`. The sequence number is in range (`problem(with:)`).
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
        try statement.bind(11, event.crossedAt?.timeIntervalSinceReferenceDate)
        try statement.bind(12, event.maximumSpeed)
        try statement.bind(13, event.overLimitDuration)
    }

    /// Reads a row of `StoreSQL.selectEventsAfter` (columns 0 ... 12).
    static func event(_ row: Statement, path: String) throws(StoreError) -> EventRecord {
        let sequence = row.int64(0)
        var place: String { "events row \(sequence)" }
        let kindText = row.text(1)
        guard sequence > 0, let kind = EventRecord.Kind(rawValue: kindText) else {
            throw .corrupt(path: path, detail: "\(place): kind \(JSONText.quoted(kindText)) or sequence invalid")
        }
        var record = EventRecord(
            sequence: UInt64(sequence), kind: kind, region: row.text(2),
            time: Date(timeIntervalSinceReferenceDate: row.double(3) ?? .nan),
            latitude: row.double(4) ?? .nan, longitude: row.double(5) ?? .nan, distance: row.double(6),
            state: try state(row.text(7), path: path, where: place + " state"),
            inferred: try flag(row, 8, path: path, where: place + " inferred"),
            interpolated: try flag(row, 9, path: path, where: place + " interpolated"),
            crossedAt: row.double(10).map { Date(timeIntervalSinceReferenceDate: $0) })
        record.maximumSpeed = row.double(11)
        record.overLimitDuration = row.double(12)
        return record
    }

    // MARK: Values

    private static func state(
        _ text: String, path: String, where place: @autoclosure () -> String
    ) throws(StoreError) -> RegionState {
        guard let state = RegionState(rawValue: text) else {
            throw .corrupt(path: path, detail: "\(place()) is \(JSONText.quoted(text)), not a region state")
        }
        return state
    }

    /// A column of 0 or 1. The table's CHECK says so, but the open's quick_check leaves CHECKs to the reads (see
    /// `StoreSchema.quickCheck`), so a file edited with the constraints off is corrupt here, not taken as true.
    private static func flag(
        _ row: Statement, _ column: Int32, path: String, where place: @autoclosure () -> String
    ) throws(StoreError) -> Bool {
        switch row.int64(column) {
        case 0: return false
        case 1: return true
        case let other: throw .corrupt(path: path, detail: "\(place()) is \(other), not 0 or 1")
        }
    }
}
