import Geofencing
import GeofencingInputs

/// Writes regions as fence CSV (`id,lat,lon,radius_m`) that `FenceTableReader` reads back to equal regions.
///
/// The optional columns notify_on_entry, notify_on_exit, dwell_s and hysteresis_m are added only when some region
/// differs from the defaults, and speed_limit_kmh, speed_tolerance_kmh, speed_duration_s and schedule only when some
/// region has a speed limit or a schedule; their empty cells mean the default. A field is quoted (RFC 4180, `""` for a quote) when
/// it holds a comma, quote or line break, has blanks at either end (the reader trims unquoted fields), or is empty.
/// Lines end in LF. Centres are written in each region's source datum, with a `datum` column naming every row's
/// datum when any region's datum is not WGS-84 (see `FenceFile.csv`). A table row holds a circle only: a polygon or
/// a corridor makes the write fail before anything is written, naming the first such region.
enum FenceCSVWriter {
    static func write(_ regions: [Region]) throws(FenceWriteError) -> String {
        for region in regions {
            let kind: String
            switch region.shape {
            case .circle: continue
            case .polygon: kind = "a polygon"
            case .corridor: kind = "a corridor"
            }
            throw FenceWriteError(format: .csv, identifier: region.identifier, message: "it is \(kind), and CSV "
                + "holds circles only (id, lat, lon, radius_m); write GeoJSON instead, which holds every shape")
        }
        let extended = regions.contains {
            !$0.notifyOnEntry || !$0.notifyOnExit || $0.dwellTime != nil || $0.hysteresis != nil
        }
        let namesDatum = regions.contains { $0.sourceDatum != .wgs84 }
        let zoneRules = regions.contains { $0.speedLimit != nil || $0.schedule != nil }
        var text = extended ? "id,lat,lon,radius_m,notify_on_entry,notify_on_exit,dwell_s,hysteresis_m"
            : "id,lat,lon,radius_m"
        if zoneRules { text += ",speed_limit_kmh,speed_tolerance_kmh,speed_duration_s,schedule" }
        text += namesDatum ? ",datum\n" : "\n"
        for region in regions {
            text += field(region.identifier) + ","
            guard case .circle(let center, let radius) = region.sourceShape else { continue }  // refused above
            text += FenceNumber.shortest(center.latitude) + "," + FenceNumber.shortest(center.longitude)
            text += "," + FenceNumber.shortest(radius)
            if extended {
                text += region.notifyOnEntry ? "," : ",false"
                text += region.notifyOnExit ? "," : ",false"
                text += "," + (region.dwellTime.map(FenceNumber.shortest) ?? "")
                text += "," + (region.hysteresis.map(FenceNumber.shortest) ?? "")
            }
            if zoneRules {
                let limit = region.speedLimit
                text += "," + (limit.map { FenceNumber.shortest($0.limitKilometresPerHour) } ?? "")
                text += "," + (limit.map { FenceNumber.shortest($0.toleranceKilometresPerHour) } ?? "")
                text += "," + (limit.map { FenceNumber.shortest($0.duration) } ?? "")
                text += "," + (region.schedule.map { field($0.text) } ?? "")
            }
            if namesDatum { text += "," + region.sourceDatum.rawValue }
            text += "\n"
        }
        return text
    }

    private static func field(_ value: String) -> String {
        let needsQuotes = value.isEmpty
            || value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                || $0 == UInt8(ascii: "\r") }
            || [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(value.utf8.first!)
            || [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(value.utf8.last!)
        guard needsQuotes else { return value }
        // Doubled byte by byte: a quote followed by a combining mark is one Character, which a String replacement
        // would not match, leaving the quote single (found by fuzzing).
        let doubled = value.utf8.flatMap { $0 == UInt8(ascii: "\"") ? [$0, $0] : [$0] }
        return "\"" + String(decoding: doubled, as: UTF8.self) + "\""
    }
}
