import Glibc

/// Reads the stop positions of a GTFS stops.txt: a CSV whose header names the columns (stop_lat and stop_lon are
/// all we need), with quoted fields that may contain commas ("Stop 1, near North Quay") and values that may carry
/// leading spaces (", -27.467834"). Rows without a usable position (stations without coordinates) are skipped.
enum StopsFile {
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Returns nil when the file does not exist (the dataset is optional); throws when it exists but is unusable.
    static func readPositions(path: String) throws(ReadError) -> [Position]? {
        guard let text = readWholeFile(path: path) else { return nil }
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).makeIterator()
        guard let header = lines.next() else { throw ReadError(description: "\(path): empty file") }
        let columns = csvFields(header).map(trimmed)
        guard let latitudeColumn = columns.firstIndex(of: "stop_lat"),
              let longitudeColumn = columns.firstIndex(of: "stop_lon")
        else {
            throw ReadError(description: "\(path): the header has no stop_lat and stop_lon columns")
        }
        var positions: [Position] = []
        while let line = lines.next() {
            let fields = csvFields(line)
            guard latitudeColumn < fields.count, longitudeColumn < fields.count,
                  let latitude = Double(trimmed(fields[latitudeColumn])),
                  let longitude = Double(trimmed(fields[longitudeColumn])),
                  abs(latitude) <= 85, abs(longitude) < 180
            else { continue }
            positions.append(Position(latitude: latitude, longitude: longitude))
        }
        guard !positions.isEmpty else { throw ReadError(description: "\(path): no row has a usable position") }
        return positions
    }

    /// Splits one CSV record into fields: commas inside double quotes do not split, "" inside quotes is a quote.
    /// (Records spanning several lines do not occur in GTFS stop files and are not handled.)
    static func csvFields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var insideQuotes = false
        var previousWasQuote = false
        for character in line {
            if insideQuotes {
                if character == "\"" {
                    insideQuotes = false
                    previousWasQuote = true
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                if previousWasQuote { field.append("\"") }  // "" inside a quoted field
                insideQuotes = true
            case ",":
                fields.append(field)
                field = ""
            default:
                field.append(character)
            }
            previousWasQuote = false
        }
        fields.append(field)
        return fields
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The file's bytes as UTF-8 text, or nil if it cannot be opened.
    private static func readWholeFile(path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
