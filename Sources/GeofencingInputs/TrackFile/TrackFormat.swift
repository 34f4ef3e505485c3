import Foundation

/// The kinds of track file the readers know, told apart by content, not by file name.
public enum TrackFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NMEA 0183 sentences, as a receiver sends them or a logger records them.
    case nmea
    /// A GPX 1.1 (or 1.0) XML document.
    case gpx
    /// gpsd JSON reports, one per line, as `gpspipe -w` writes them.
    case gpsdJSON

    public var description: String {
        switch self {
        case .nmea: "NMEA 0183"
        case .gpx: "GPX"
        case .gpsdJSON: "gpsd JSON"
        }
    }

    /// How many leading bytes the detection looks at: enough to get past banners, comments and AIS traffic at the
    /// start of a log, small enough to stay fast on any file.
    static let sampleSize = 256 * 1024

    /// The format of a file that starts with `sample`.
    ///
    /// - Throws: `TrackReadError` naming `source` and saying what the content looks like, when it is none of them;
    ///   UTF-16 and UTF-32 text by one rule, with or without a byte order mark (`WideTextEncoding`).
    static func detect(in sample: Data, source: String) throws -> TrackFormat {
        if let wide = WideTextEncoding.detect(sample) {
            throw TrackReadError(source: source, message: wide.refusal("tracks"))
        }
        var text = sample.prefix(sampleSize)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }      // UTF-8 byte order mark
        let content = text.drop(while: isWhitespace)
        guard !content.isEmpty else {
            throw TrackReadError(source: source, message: sample.isEmpty ? "the file is empty" : "the file holds only white space")
        }
        if content.first == UInt8(ascii: "<") {
            let root = rootElement(of: content)
            guard root == "gpx" else {
                throw TrackReadError(source: source,
                                     message: "looks like XML with root element <\(InputText.shown(root ?? "?"))>, not GPX")
            }
            return .gpx
        }
        var nmeaLines = 0
        for line in content.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            if case .sentence = NMEALine(bytes: line) { nmeaLines += 1 }
        }
        let gpsdLines = gpsdReports(in: content)
        if gpsdLines > 0 && gpsdLines >= nmeaLines { return .gpsdJSON }
        if nmeaLines > 0 { return .nmea }
        throw TrackReadError(source: source, message: describeUnknown(content))
    }

    /// The gpsd reports (JSON objects with a "class", on one line or pretty-printed over several) in `content`, as the
    /// gpsd JSON reader reads them.
    private static func gpsdReports(in content: Data.SubSequence) -> Int {
        var reader = GPSDJSONReader(source: "")
        _ = reader.read(bytes: content)
        _ = reader.finish()
        let statistics = reader.statistics
        return statistics.otherReports + statistics.unusableReports + statistics.usedReports
    }

    /// The name of the first element, after any XML declaration, comments and doctype.
    private static func rootElement(of content: Data.SubSequence) -> String? {
        var rest = content[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "<")) {
            let after = rest.index(after: open)
            guard after < rest.endIndex else { return nil }
            if rest[after] == UInt8(ascii: "?") || rest[after] == UInt8(ascii: "!") {
                guard let close = rest[after...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                rest = rest[rest.index(after: close)...]
                continue
            }
            let name = rest[after...].prefix { !isWhitespace($0) && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }
            let local = name.split(separator: UInt8(ascii: ":")).last ?? name[...]   // gpx:gpx -> gpx
            return String(decoding: local, as: UTF8.self)
        }
        return nil
    }

    private static func describeUnknown(_ content: Data.SubSequence) -> String {
        let controlBytes = content.filter { ($0 < 0x20 && !isWhitespace($0)) || $0 == 0x7F }.count
        if content.contains(0) || controlBytes * 20 > content.count {
            return "looks like binary data (\(controlBytes) of the first \(content.count) bytes are control "
                + "characters), not NMEA, GPX or gpsd JSON"
        }
        let firstLine = InputText.doubleQuoted(String(decoding: content.prefix {
            $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r")
        }.prefix(InputText.maximumShownCharacters * 4 + 4), as: UTF8.self))
        if content.first == UInt8(ascii: "{") || content.first == UInt8(ascii: "[") {
            return "looks like JSON without gpsd reports (no \"class\" member; GeoJSON?), first line \(firstLine)"
        }
        return "is text without NMEA sentences (none with a valid checksum), GPX or gpsd JSON reports; "
            + "first line \(firstLine)"
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
