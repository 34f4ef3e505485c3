import Geofencing

/// Reads the two table formats: our CSV (`id,lat,lon,radius_m`) and GTFS `stops.txt` (stop_id, stop_lat, stop_lon;
/// every stop a circle of the default radius).
///
/// Coordinates are in the reader's datum (GTFS, too: a feed from a Chinese agency may well be in GCJ-02), or in the
/// datum a CSV row's optional `datum` cell names; centres are converted to WGS-84 as they are read.
///
/// Every record is validated; the first bad one makes the whole read throw with its line and column, so a file is
/// either taken whole or not at all. Blank lines are skipped. In GTFS, generic nodes and boarding areas
/// (location_type 3 and 4) may lack coordinates: those are skipped, with one warning.
struct FenceTableReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private let columns: FenceTableColumns
    private let radius: Double?
    private let datum: Datum

    /// Reads the table that starts at `start` (after any byte order mark); the caller has made sure that the bytes
    /// hold something other than blanks.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, file: String, defaultRadius: Double, datum: Datum
    ) throws(FenceFileError) -> FenceFileContents {
        var scanner = CSVRecordScanner(bytes: bytes, startingAt: start)
        var fields: [CSVField] = []
        var headerLine = 0
        repeat {
            guard let line = try record(&scanner, into: &fields, file: file, columns: nil) else {
                return FenceFile.emptyContents(format: .csv, file: file, message: "no fences: the file is empty")
            }
            headerLine = line
        } while isBlank(fields)

        let names = fields.map { field in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[field.range]), as: UTF8.self)
                .trimmingBlanks()
        }
        let columns: FenceTableColumns
        switch FenceTableColumns.detect(header: names) {
        case .columns(let found): columns = found
        case .unrecognised:
            let isLineEnd = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
            let before = bytes[start..<fields[0].range.lowerBound]
            let lineStart = before.lastIndex(where: isLineEnd).map { $0 + 1 } ?? start
            let lineEnd = bytes[lineStart...].firstIndex(where: isLineEnd) ?? bytes.count
            let text = FenceText.quotedValue(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            throw FenceFile.unrecognisedFormat(file: file, detail: "line \(headerLine) is \(text)")
        case .invalid(let field, let message):
            throw FenceFileError(file: file, line: headerLine, field: field, message: message)
        }
        if columns.format == .gtfs {
            do throws(FenceFieldProblem) {
                try FenceValidation.radius(defaultRadius)
            } catch {
                throw FenceFileError(file: file, field: "radius", message: "the radius given for GTFS stops: "
                    + error.message)
            }
        }

        let reader = FenceTableReader(bytes: bytes, file: file, columns: columns,
                                      radius: columns.format == .gtfs ? defaultRadius : nil, datum: datum)
        var cells = FenceCellDecoder(bytes: bytes)
        // One region per line at most: reserved at once, so that 10^6 regions are not copied as the array grows.
        let lines = UnsafeBufferPointer(rebasing: bytes[start...]).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        var collector = FenceRegionCollector(file: file, expectedCount: lines)
        var skipped: (count: Int, firstLine: Int) = (0, 0)
        while let line = try record(&scanner, into: &fields, file: file, columns: columns) {
            if isBlank(fields) { continue }
            if let region = try reader.region(from: fields, line: line, cells: &cells) {
                collector.add(region, from: .line(line))
            } else {
                if skipped.count == 0 { skipped.firstLine = line }
                skipped.count += 1
            }
        }
        if skipped.count == 1 {
            collector.warn(FenceFileWarning(file: file, line: skipped.firstLine,
                                            message: "skipped a GTFS stop without coordinates (location_type 3 or 4)"))
        } else if skipped.count > 1 {
            collector.warn(FenceFileWarning(file: file, line: skipped.firstLine, message: "skipped \(skipped.count) "
                + "GTFS stops without coordinates (location_type 3 or 4), the first on this line"))
        }
        if collector.regions.isEmpty {
            collector.warn(FenceFileWarning(file: file, message: skipped.count == 0
                ? "no fences: the file holds only a header" : "no fences: no stop in the file has coordinates"))
        }
        return FenceFileContents(format: columns.format, regions: collector.regions, warnings: collector.warnings)
    }

    /// The next record, with a syntax error turned into a `FenceFileError` naming the column.
    private static func record(
        _ scanner: inout CSVRecordScanner, into fields: inout [CSVField], file: String, columns: FenceTableColumns?
    ) throws(FenceFileError) -> Int? {
        do {
            return try scanner.nextRecord(into: &fields)
        } catch {
            throw FenceFileError(file: file, line: error.line,
                                 field: columns?.name(ofField: error.fieldIndex) ?? "\(error.fieldIndex + 1)",
                                 message: error.message)
        }
    }

    /// An empty or all-blank line (a quoted empty field is not blank: it is a record with an empty value).
    private static func isBlank(_ fields: [CSVField]) -> Bool {
        fields.count == 1 && !fields[0].isQuoted && fields[0].range.isEmpty
    }

    // MARK: - One record

    /// The region of one record, or nil for a GTFS node without coordinates.
    private func region(
        from fields: [CSVField], line: Int, cells: inout FenceCellDecoder
    ) throws(FenceFileError) -> Region? {
        if isEmpty(fields, columns.latitude), isEmpty(fields, columns.longitude),
           let locationType = columns.locationType, locationType < fields.count,
           ["3", "4"].contains(cells.text(fields[locationType])) {
            return nil
        }
        let identifier = try value(fields, columns.identifier, line: line) { (field) throws(FenceFieldProblem) in
            guard let identifier = cells.string(field) else { throw FenceFieldProblem(message: "not valid UTF-8") }
            try FenceValidation.identifier(identifier)
            return identifier
        }
        let latitude = try value(fields, columns.latitude, line: line) { (field) throws(FenceFieldProblem) in
            let latitude = try cells.number(field)
            try FenceValidation.latitude(latitude)
            return latitude
        }
        let longitude = try value(fields, columns.longitude, line: line) { (field) throws(FenceFieldProblem) in
            let longitude = try cells.number(field)
            try FenceValidation.longitude(longitude)
            return longitude
        }
        var rowDatum = datum
        if let column = columns.datum {
            rowDatum = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                try FenceValidation.datum(cells.text(field))
            } ?? datum
        }
        let center = try value(fields, columns.latitude, line: line) { (_) throws(FenceFieldProblem) in
            try FenceValidation.wgs84Center(Coordinate(latitude: latitude, longitude: longitude), in: rowDatum)
        }
        var radiusValue = radius ?? 0
        if radius == nil, let column = columns.radius {
            radiusValue = try value(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                let radius = try cells.number(field)
                try FenceValidation.radius(radius)
                return radius
            }
        }
        var region = Region(center: center, radius: radiusValue, identifier: identifier)
        region.sourceDatum = rowDatum
        if let column = columns.notifyOnEntry {
            region.notifyOnEntry = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                try cells.boolean(field)
            } ?? true
        }
        if let column = columns.notifyOnExit {
            region.notifyOnExit = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                try cells.boolean(field)
            } ?? true
        }
        if let column = columns.dwellTime {
            region.dwellTime = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                let seconds = try cells.number(field)
                try FenceValidation.nonNegative(seconds, unit: "s")
                return seconds
            }
        }
        if let column = columns.hysteresis {
            region.hysteresis = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                let metres = try cells.number(field)
                try FenceValidation.nonNegative(metres, unit: "m")
                return metres
            }
        }
        try readZoneRules(fields, line: line, into: &region, cells: &cells)
        return region
    }

    /// The zone rules' columns (`FenceZoneRules`); an empty cell is absent.
    private func readZoneRules(
        _ fields: [CSVField], line: Int, into region: inout Region, cells: inout FenceCellDecoder
    ) throws(FenceFileError) {
        func number(_ column: Int?) throws(FenceFileError) -> Double? {
            guard let column else { return nil }
            return try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                try cells.number(field)
            }
        }
        let limit = try number(columns.speedLimit), tolerance = try number(columns.speedTolerance)
        let duration = try number(columns.speedDuration)
        var scheduleText: String?
        if let column = columns.schedule {
            scheduleText = try optionalValue(fields, column, line: line) { (field) throws(FenceFieldProblem) in
                guard let text = cells.string(field) else { throw FenceFieldProblem(message: "not valid UTF-8") }
                return text
            }
        }
        do throws(FenceZoneRules.Problem) {
            region.speedLimit = try FenceZoneRules.speedLimit(limit: limit, tolerance: tolerance, duration: duration)
            region.schedule = try scheduleText.map { (text) throws(FenceZoneRules.Problem) in
                try FenceZoneRules.schedule(text)
            }
        } catch {
            throw FenceFileError(file: file, line: line, field: error.key, message: error.message)
        }
    }

    /// Applies `parse` to a required cell, naming the line and column in any error.
    private func value<T>(
        _ fields: [CSVField], _ column: Int, line: Int, _ parse: (CSVField) throws(FenceFieldProblem) -> T
    ) throws(FenceFileError) -> T {
        guard column < fields.count else {
            let count = fields.count == 1 ? "1 field" : "\(fields.count) fields"
            throw FenceFileError(
                file: file, line: line, field: columns.name(ofField: column),
                message: "missing: the record has \(count), this column is field \(column + 1) of the header")
        }
        do {
            return try parse(fields[column])
        } catch {
            throw FenceFileError(file: file, line: line, field: columns.name(ofField: column), message: error.message)
        }
    }

    /// As `value`, but a missing or empty cell is nil (the default).
    private func optionalValue<T>(
        _ fields: [CSVField], _ column: Int, line: Int, _ parse: (CSVField) throws(FenceFieldProblem) -> T
    ) throws(FenceFileError) -> T? {
        if isEmpty(fields, column) { return nil }
        return try value(fields, column, line: line, parse)
    }

    private func isEmpty(_ fields: [CSVField], _ column: Int) -> Bool {
        column >= fields.count || fields[column].range.isEmpty
    }
}

/// Turns cells into values: strings (checked UTF-8), strict numbers, booleans. Holds the one scratch buffer that
/// quoted cells with doubled quotes are undoubled into, so no cell allocates beyond its resulting String.
private struct FenceCellDecoder {
    let bytes: UnsafeBufferPointer<UInt8>
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The cell as a String when it is valid UTF-8.
    mutating func string(_ field: CSVField) -> String? {
        field.withValue(in: bytes, scratch: &scratch) { String(validating: $0, as: UTF8.self) }
    }

    /// Short cells (location_type) compared as text; invalid UTF-8 shows as U+FFFD and matches nothing.
    mutating func text(_ field: CSVField) -> String {
        field.withValue(in: bytes, scratch: &scratch) { String(decoding: $0, as: UTF8.self) }.trimmingBlanks()
    }

    /// A strict decimal number (spaces around it allowed, also inside quotes).
    mutating func number(_ field: CSVField) throws(FenceFieldProblem) -> Double {
        let parsed: Result<Double, FenceFieldProblem> = field.withValue(in: bytes, scratch: &scratch) { value in
            let trimmed = value.trimmingBlanks()
            if trimmed.isEmpty { return .failure(FenceFieldProblem(message: "empty: a number is required")) }
            guard let number = FenceNumber.parse(trimmed) else {
                return .failure(FenceFieldProblem(message: "\(FenceText.quotedValue(value)) is not a number"))
            }
            guard number.isFinite else {
                return .failure(FenceFieldProblem(message: "\(FenceText.quotedValue(value)) is not a finite number"))
            }
            return .success(number)
        }
        return try parsed.get()
    }

    /// true / false (or 1 / 0), in any case.
    mutating func boolean(_ field: CSVField) throws(FenceFieldProblem) -> Bool {
        let value = text(field)
        switch value.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw FenceFieldProblem(message: "\(FenceText.quotedValue(value)) is not true or false")
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Without the spaces and tabs at both ends.
    fileprivate func trimmingBlanks() -> UnsafeBufferPointer<UInt8> {
        var start = startIndex, end = endIndex
        while start < end, self[start] == UInt8(ascii: " ") || self[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, self[end - 1] == UInt8(ascii: " ") || self[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}

extension String {
    /// Without the spaces and tabs at both ends (header names, short cells).
    fileprivate func trimmingBlanks() -> String {
        let blanks: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blanks($0) }), let last = lastIndex(where: { !blanks($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
