import Geofencing

/// Writes regions as a GeoJSON FeatureCollection that `FenceGeoJSONReader` reads back to equal regions.
///
/// One feature per line, so that exports diff well. Centres are written in each region's source datum, with
/// `properties.datum` on every feature when any region's datum is not WGS-84 (see `FenceFile.geojson`). Strings are escaped as RFC 8259 requires (quote, backslash,
/// control characters), and U+FEFF too, and otherwise written as UTF-8; numbers in their shortest exact form.
enum FenceGeoJSONWriter {
    static func write(_ regions: [Region]) -> String {
        let namesDatum = regions.contains { $0.sourceDatum != .wgs84 }
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (index, region) in regions.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            let identifier = string(region.identifier)
            text += "{\"type\":\"Feature\",\"id\":\(identifier),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            let center = region.sourceCenter
            text += number(center.longitude) + "," + number(center.latitude) + "]},"
            text += "\"properties\":{\"id\":\(identifier),\"radius\":\(number(region.radius ?? .nan))"
            if !region.notifyOnEntry { text += ",\"notify_on_entry\":false" }
            if !region.notifyOnExit { text += ",\"notify_on_exit\":false" }
            if let dwellTime = region.dwellTime { text += ",\"dwell_s\":\(number(dwellTime))" }
            if let hysteresis = region.hysteresis { text += ",\"hysteresis_m\":\(number(hysteresis))" }
            if namesDatum { text += ",\"datum\":\"\(region.sourceDatum.rawValue)\"" }
            text += "}}"
        }
        text += regions.isEmpty ? "]}\n" : "\n]}\n"
        return text
    }

    /// JSON has no NaN or infinity: such a value (never in a validated region) is written as null, which the reader
    /// refuses with the feature named.
    private static func number(_ value: Double) -> String {
        value.isFinite ? FenceNumber.shortest(value) : "null"
    }

    private static func string(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            // Foundation's JSONSerialization drops a raw U+FEFF that starts a string or follows an escape, as if it
            // were a byte order mark (fuzzing found identifiers that changed on the way back); escaped, it is kept.
            case _ where scalar.value < 0x20 || scalar == "\u{FEFF}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
