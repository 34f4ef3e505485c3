import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Geofencing
import GeofencingEvents

/// Builds a `GPXDocument` from XMLParser's events. Knows the few GPX elements the readers need and skips the rest
/// (metadata, waypoints, extensions); namespaces are ignored so that GPX 1.0 files and files with a default
/// namespace read alike.
///
/// The first problem, with its line, is kept in `failure`; XMLParser on Linux may return success from `parse()`
/// after reporting an error, so the reader relies on this rather than on `parse()`'s result.
final class GPXParsingDelegate: NSObject, XMLParserDelegate {
    private(set) var document = GPXDocument()
    private(set) var failure: (line: Int, message: String)?
    private(set) var sawRoot = false

    /// Open elements, innermost last.
    private var path: [String] = []
    private var point: GPXPoint?
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        if path.isEmpty {
            guard name == "gpx" else { return fail(parser, "the root element is <\(InputText.shown(name))>, not <gpx>") }
            sawRoot = true
        }
        let parent = path.last
        text = ""
        var inPlace = true
        switch (parent, name) {
        case ("gpx", "trk"): document.tracks.append(GPXDocument.Track())
        case ("trk", "trkseg"): document.tracks[document.tracks.count - 1].segments.append([])
        case ("gpx", "rte"): document.routes.append(GPXDocument.Route())
        case ("trkseg", "trkpt"), ("rte", "rtept"): point = readPoint(parser, name, attributes)
        case (nil, _): break            // the root, <gpx> as checked above
        default: inPlace = !Self.structuralElements.contains(name)
        }
        // A structural element out of place (a <trk> inside an extension or inside another <rte>) is pushed under a
        // name that matches nothing, so that it and everything in it are skipped: the cases here and in
        // didEndElement index the last track or route on the invariant that an open <trk>, <trkseg> or <rte> on the
        // path is the one last appended (fuzzing found the index trap when it was not).
        path.append(inPlace ? name : "")
    }

    /// The elements whose place the document's structure depends on.
    private static let structuralElements: Set<String> = ["gpx", "trk", "trkseg", "rte", "trkpt", "rtept"]

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        path.removeLast()
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        switch (path.last, name) {
        case ("trkpt", "ele"), ("rtept", "ele"): point?.elevation = number(parser, name, value)
        case ("trkpt", "hdop"), ("rtept", "hdop"): point?.hdop = number(parser, name, value)
        case ("trkpt", "name"), ("rtept", "name"): point?.name = value
        case ("trkpt", "time"), ("rtept", "time"):
            guard let time = ISO8601Time.parse(value) else {
                return fail(parser, "<time> \(InputText.doubleQuoted(value)) is not an ISO 8601 time")
            }
            point?.time = time
        case ("trk", "name"): document.tracks[document.tracks.count - 1].name = value
        case ("rte", "name"): document.routes[document.routes.count - 1].name = value
        case ("trkseg", "trkpt"):
            if let point { appendToLastSegment(point) }
            point = nil
        case ("rte", "rtept"):
            if let point { document.routes[document.routes.count - 1].points.append(point) }
            point = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        let code = (parseError as NSError).code
        failure = (parser.lineNumber, "malformed XML: \(Self.describe(code)) (column \(parser.columnNumber))")
    }

    private func readPoint(_ parser: XMLParser, _ name: String, _ attributes: [String: String]) -> GPXPoint? {
        guard let latitudeText = attributes["lat"], let longitudeText = attributes["lon"] else {
            fail(parser, "<\(name)> has no lat or lon attribute")
            return nil
        }
        guard let latitude = Double(latitudeText), let longitude = Double(longitudeText),
              case let coordinate = Coordinate(latitude: latitude, longitude: longitude), coordinate.isValid
        else {
            fail(parser, "<\(name) lat=\(InputText.doubleQuoted(latitudeText)) lon=\(InputText.doubleQuoted(longitudeText))> is "
                + "not a valid position")
            return nil
        }
        return GPXPoint(coordinate: coordinate)
    }

    private func number(_ parser: XMLParser, _ name: String, _ value: String) -> Double? {
        guard let number = Double(value), number.isFinite else {
            fail(parser, "<\(name)> \(InputText.doubleQuoted(value)) is not a number")
            return nil
        }
        return number
    }

    private func appendToLastSegment(_ point: GPXPoint) {
        let track = document.tracks.count - 1
        document.tracks[track].segments[document.tracks[track].segments.count - 1].append(point)
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = (parser.lineNumber, message)
        parser.abortParsing()
    }

    /// libxml2's error numbers, as XMLParser passes them on, for the mistakes a hand-edited or cut-off file has.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "the document ends early (cut off, or an element is not closed)"
        case 9: "an invalid character"
        case 23, 26: "an undeclared or malformed entity (a bare '&'?)"
        case 38, 39, 40, 41: "a malformed attribute"
        case 64, 65, 68, 73: "a malformed tag"
        case 76: "a closing tag does not match the open element"
        default: "XML error \(code)"
        }
    }
}
