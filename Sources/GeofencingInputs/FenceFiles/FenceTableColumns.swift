/// Which columns of a CSV or GTFS header hold what, found from the header's names.
///
/// Names are compared after trimming and ASCII lower-casing ("Stop_Lat " is stop_lat). A header that names `id`,
/// `lat` or `lon` is our CSV even if it also has a stop_id; otherwise one with `stop_id` is GTFS; otherwise the file is
/// not a fence table at all.
struct FenceTableColumns {
    let format: FenceFileFormat
    /// The header's names as written (trimmed), by field index, for messages.
    let names: [String]
    let identifier: Int
    let latitude: Int
    let longitude: Int
    /// CSV only; GTFS stops all get the default radius.
    let radius: Int?
    /// Optional CSV columns, written by `FenceFile.csv` when a region needs them; empty cells mean the default.
    let notifyOnEntry: Int?
    let notifyOnExit: Int?
    let dwellTime: Int?
    let hysteresis: Int?
    /// Optional CSV columns of the zone rules (`FenceZoneRules`): speed_limit_kmh, speed_tolerance_kmh,
    /// speed_duration_s, schedule.
    let speedLimit: Int?
    let speedTolerance: Int?
    let speedDuration: Int?
    let schedule: Int?
    /// CSV only: the datum of the row's coordinates; an empty cell means the reader's datum.
    let datum: Int?
    /// GTFS only: stations, entrances, generic nodes and boarding areas (3 and 4 may lack coordinates).
    let locationType: Int?

    static let csvRequired = ["id", "lat", "lon", "radius_m"]
    static let gtfsRequired = ["stop_id", "stop_lat", "stop_lon"]

    enum Detection {
        case columns(FenceTableColumns)
        /// Not a header of either kind.
        case unrecognised
        /// A CSV or GTFS header that lacks a required column or names one twice: the message, and the column.
        case invalid(field: String, message: String)
    }

    static func detect(header names: [String]) -> Detection {
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() {
            let key = lowercasedASCII(name)
            if key.isEmpty { continue }
            if let first = index[key] {
                guard !(csvRequired + gtfsRequired).contains(key) else {
                    return .invalid(field: name, message: "the column appears twice in the header "
                        + "(fields \(first + 1) and \(position + 1))")
                }
                continue
            }
            index[key] = position
        }
        let isCSV = ["id", "lat", "lon"].contains { index[$0] != nil }
        let isGTFS = !isCSV && index["stop_id"] != nil
        let required: [String]
        if isCSV {
            required = csvRequired
        } else if isGTFS {
            required = gtfsRequired
        } else {
            return index["radius_m"] != nil ? missingColumn(csvRequired, in: index) ?? .unrecognised : .unrecognised
        }
        if let missing = missingColumn(required, in: index) { return missing }
        return .columns(FenceTableColumns(
            format: isCSV ? .csv : .gtfs, names: names,
            identifier: index[required[0]]!, latitude: index[required[1]]!, longitude: index[required[2]]!,
            radius: isCSV ? index["radius_m"] : nil,
            notifyOnEntry: isCSV ? index["notify_on_entry"] : nil, notifyOnExit: isCSV ? index["notify_on_exit"] : nil,
            dwellTime: isCSV ? index["dwell_s"] : nil, hysteresis: isCSV ? index["hysteresis_m"] : nil,
            speedLimit: isCSV ? index[FenceZoneRules.limitKey] : nil,
            speedTolerance: isCSV ? index[FenceZoneRules.toleranceKey] : nil,
            speedDuration: isCSV ? index[FenceZoneRules.durationKey] : nil,
            schedule: isCSV ? index[FenceZoneRules.scheduleKey] : nil,
            datum: isCSV ? index["datum"] : nil,
            locationType: isCSV ? nil : index["location_type"]))
    }

    /// The `.invalid` detection for the first required column the header lacks; nil when it has them all.
    private static func missingColumn(_ required: [String], in index: [String: Int]) -> Detection? {
        guard let absent = required.first(where: { index[$0] == nil }) else { return nil }
        let kind = required == csvRequired ? "a fence CSV header" : "a GTFS stops.txt header"
        return .invalid(field: absent, message: "missing column: \(kind) names "
            + required.joined(separator: ", "))
    }

    private static func lowercasedASCII(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The name of field `index` for messages: the header's name, or its position when the header has none.
    func name(ofField index: Int) -> String {
        index < names.count && !names[index].isEmpty ? names[index] : "\(index + 1)"
    }
}
