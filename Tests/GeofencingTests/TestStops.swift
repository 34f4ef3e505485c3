// Test support: the stop positions of a GTFS stops.txt, as regions.
import Foundation
import Geofencing

/// Reads a GTFS stops.txt (CSV with a header naming stop_id, stop_lat, stop_lon; quoted fields may hold commas;
/// values may carry leading spaces) into regions of one radius, identified by stop_id. Rows without a position
/// (parent stations may have none) are skipped.
enum TestStops {
    static func regions(from url: URL, radius: Double) throws -> [Region] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var lines = bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }).makeIterator()
        guard let header = lines.next() else { return [] }
        let columns = fields(header).map(text)
        guard let idColumn = columns.firstIndex(of: "stop_id"), let latColumn = columns.firstIndex(of: "stop_lat"),
              let lonColumn = columns.firstIndex(of: "stop_lon")
        else { return [] }
        var regions: [Region] = []
        while let line = lines.next() {
            let row = fields(line)
            guard row.count > max(idColumn, latColumn, lonColumn) else { continue }
            let identifier = text(row[idColumn])
            guard !identifier.isEmpty, let latitude = Double(text(row[latColumn])),
                  let longitude = Double(text(row[lonColumn]))
            else { continue }
            regions.append(Region(
                center: Coordinate(latitude: latitude, longitude: longitude), radius: radius, identifier: identifier))
        }
        return regions
    }

    /// One CSV record's fields as byte strings: commas inside double quotes do not split; "" inside quotes is a
    /// quote. (Bytes, not Characters: 1.5 MB of Characters is slow in a debug build.)
    static func fields(_ line: ArraySlice<UInt8>) -> [[UInt8]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var quoted = false
        var previous: UInt8?
        for byte in line {
            if quoted {
                if byte == quote { quoted = false } else { field.append(byte) }
            } else if byte == quote {
                if previous == quote { field.append(quote) }
                quoted = true
            } else if byte == comma {
                fields.append(field)
                field = []
            } else {
                field.append(byte)
            }
            previous = byte
        }
        fields.append(field)
        return fields
    }

    /// A field as text without leading and trailing blanks (GTFS files here write ", -27.467834").
    private static func text(_ field: [UInt8]) -> String {
        String(decoding: field, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
