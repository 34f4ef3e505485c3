import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX 1.1 (and 1.0) files: tracks with their timed points, and routes. See `GPXDocument` for what becomes
/// fixes.
public enum GPXReader {
    /// Parses a GPX document held in memory. `source` names it in errors.
    ///
    /// - Throws: `TrackReadError` with the line number for malformed XML, a root element other than `<gpx>`, a
    ///   point without a valid `lat`/`lon`, an unreadable `<time>`, `<ele>` or `<hdop>`, bytes that are not valid
    ///   UTF-8 (the only encoding read), or a processing instruction without data (see `GPXParserGuard`).
    public static func read(data: Data, source: String = "GPX") throws -> GPXDocument {
        try GPXParserGuard.check(data, source: source)
        let delegate = GPXParsingDelegate()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        _ = parser.parse()
        if let failure = delegate.failure {
            throw TrackReadError(source: source, line: failure.line, message: failure.message)
        }
        guard delegate.sawRoot else { throw TrackReadError(source: source, message: "no <gpx> element") }
        return delegate.document
    }

    /// Reads the GPX file at `path`.
    ///
    /// - Throws: `TrackReadError` as `read(data:source:)` does, or when the file cannot be read.
    public static func read(path: String) throws -> GPXDocument {
        try read(data: try TrackFileData.contents(ofFile: path), source: path)
    }
}
