import Geofencing

/// The text of `regions.geometry`: a polygon's rings or a corridor's path as GeoJSON coordinate arrays, so that
/// `sqlite3` users (and `json_extract`) can read them.
///
/// - polygon: `[[[lon,lat],[lon,lat],...],[...]]`, the rings in order (ring 1 the outer boundary), every vertex as
///   given (a closing vertex is kept when the region has one);
/// - corridor: `[[lon,lat],...]`, the path.
///
/// Numbers are written in Swift's shortest round-trip form (`"\(double)"`: "153.0251", "1e-05", "-0.0") and read
/// back with the correctly rounded `Double(_:)`, so a region reads back `==` to the one stored. JSONSerialization
/// is not used for reading: it turns numbers of more than 17 characters into NSDecimalNumbers whose `doubleValue`
/// is not correctly rounded (see the fence file reader), and its errors would not say which ring or vertex is bad.
enum StoreGeometry {
    /// What is wrong with a geometry text, without the row (the caller adds it).
    struct Problem: Error {
        let message: String
    }

    // MARK: Writing

    static func text(rings: [[Coordinate]]) -> String {
        var text = "["
        for (index, ring) in rings.enumerated() {
            if index > 0 { text += "," }
            append(ring, to: &text)
        }
        return text + "]"
    }

    static func text(path: [Coordinate]) -> String {
        var text = ""
        append(path, to: &text)
        return text
    }

    private static func append(_ positions: [Coordinate], to text: inout String) {
        text.reserveCapacity(text.utf8.count + positions.count * 24)
        text += "["
        for (index, position) in positions.enumerated() {
            text += index == 0 ? "[" : ",["
            text += "\(position.longitude),\(position.latitude)]"
        }
        text += "]"
    }

    // MARK: Reading

    /// A polygon's rings: at least one ring, each of at least one position.
    static func rings(_ text: String) throws(Problem) -> [[Coordinate]] {
        var scanner = Scanner(text)
        var rings: [[Coordinate]] = []
        try scanner.list("the polygon") { (scanner: inout Scanner) throws(Problem) in
            rings.append(try scanner.positions(what: "ring \(rings.count + 1)"))
        }
        try scanner.end()
        guard !rings.isEmpty else { throw Problem(message: "the polygon has no rings") }
        return rings
    }

    /// A corridor's path: at least one position.
    static func path(_ text: String) throws(Problem) -> [Coordinate] {
        var scanner = Scanner(text)
        let path = try scanner.positions(what: "the path")
        try scanner.end()
        return path
    }

    /// A strict reader of nested arrays of numbers (no objects, strings or literals; blanks allowed between tokens).
    private struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: String) {
            bytes = Array(text.utf8)
        }

        /// `[ item, item, ... ]`, calling `item` for each; `what` names the array in errors.
        mutating func list(
            _ what: String, item: (inout Scanner) throws(Problem) -> Void
        ) throws(Problem) {
            try expect(UInt8(ascii: "["), "'[' opening \(what)")
            skipBlanks()
            if peek == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try item(&self)
                skipBlanks()
                guard let byte = peek else { throw problem("\(what) is not closed (the text ends)") }
                index += 1
                if byte == UInt8(ascii: "]") { return }
                guard byte == UInt8(ascii: ",") else {
                    index -= 1
                    throw problem("expected ',' or ']' in \(what), found \(found)")
                }
            }
        }

        /// `[[lon,lat],...]` with at least one position.
        mutating func positions(what: String) throws(Problem) -> [Coordinate] {
            var positions: [Coordinate] = []
            try list(what) { (scanner: inout Scanner) throws(Problem) in
                positions.append(try scanner.position(what: "position \(positions.count + 1) of \(what)"))
            }
            guard !positions.isEmpty else { throw Problem(message: "\(what) has no positions") }
            return positions
        }

        /// `[lon,lat]`.
        private mutating func position(what: String) throws(Problem) -> Coordinate {
            var numbers: [Double] = []
            try list(what) { (scanner: inout Scanner) throws(Problem) in
                numbers.append(try scanner.number(what: what))
            }
            guard numbers.count == 2 else {
                throw Problem(message: "\(what) has \(numbers.count) numbers, not [longitude, latitude]")
            }
            return Coordinate(latitude: numbers[1], longitude: numbers[0])
        }

        private mutating func number(what: String) throws(Problem) -> Double {
            skipBlanks()
            let start = index
            while let byte = peek, Self.isNumberByte(byte) { index += 1 }
            guard index > start else { throw problem("expected a number in \(what), found \(found)") }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                index = start
                throw problem("'\(text)' in \(what) is not a finite number")
            }
            return value
        }

        mutating func end() throws(Problem) {
            skipBlanks()
            guard index == bytes.count else { throw problem("unexpected \(found) after the coordinates") }
        }

        private mutating func expect(_ byte: UInt8, _ what: String) throws(Problem) {
            skipBlanks()
            guard peek == byte else { throw problem("expected \(what), found \(found)") }
            index += 1
        }

        private mutating func skipBlanks() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private var peek: UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        /// The byte at the current index, for messages: `'x'` or "the end of the text".
        private var found: String {
            guard let byte = peek else { return "the end of the text" }
            return byte < 0x80 && byte >= 0x20 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        }

        /// A problem at the current position (1-based character offset: the text is ASCII when it is valid).
        private func problem(_ message: String) -> Problem {
            Problem(message: "at character \(index + 1): \(message)")
        }

        /// Digits, sign, point and exponent: everything a JSON number (or Swift's shortest form) is made of.
        private static func isNumberByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        }
    }
}
