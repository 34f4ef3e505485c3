import Foundation
import Geofencing

/// A recorded track, read from a file whose format is recognised by its content: NMEA 0183, GPX or gpsd JSON.
///
/// ```swift
/// let track = try TrackFile.read(path: "drive.nmea")
/// for observation in track.observations { monitor.process(observation) }
/// ```
public struct TrackFile: Sendable, Hashable {
    /// What the format-specific reader returned.
    public enum Contents: Sendable, Hashable {
        case nmea(NMEALog)
        case gpx(GPXDocument)
        case gpsdJSON(GPSDJSONLog)
    }

    /// The path (or the name given to `read(data:source:)`).
    public let source: String
    /// Everything the format's reader returned, for callers that need more than the observations.
    public let contents: Contents

    /// The format recognised from the content.
    public var format: TrackFormat {
        switch contents {
        case .nmea: .nmea
        case .gpx: .gpx
        case .gpsdJSON: .gpsdJSON
        }
    }

    /// The track's observations in file order: NMEA epochs, timed GPX track points, gpsd TPV reports.
    public var observations: [Observation] {
        switch contents {
        case .nmea(let log): log.observations
        case .gpx(let document): document.observations
        case .gpsdJSON(let log): log.observations
        }
    }

    /// GPX routes (planned paths without times); empty for the other formats.
    public var routes: [GPXDocument.Route] {
        if case .gpx(let document) = contents { return document.routes }
        return []
    }

    /// Lines that were skipped as unreadable (NMEA checksum failures and malformed lines, bad gpsd JSON lines),
    /// with the first few of them in `problems`. A GPX file is either read whole or not at all.
    public var badLines: Int {
        switch contents {
        case .nmea(let log): log.statistics.badLines
        case .gpx: 0
        case .gpsdJSON(let log): log.statistics.badLines
        }
    }

    /// The first skipped lines, with line number and reason.
    public var problems: [TrackReadError] {
        switch contents {
        case .nmea(let log): log.statistics.problems
        case .gpx: []
        case .gpsdJSON(let log): log.statistics.problems
        }
    }

    public init(source: String, contents: Contents) {
        self.source = source
        self.contents = contents
    }

    /// Reads the track file at `path`, recognising NMEA 0183, GPX and gpsd JSON by their content.
    ///
    /// - Parameter nmea: how to date NMEA logs that lack dates, and the other NMEA choices.
    /// - Throws: `TrackReadError` naming the file when it cannot be read, is empty, or looks like something else
    ///   (binary data, other XML, other JSON, plain text); for malformed GPX, with the line.
    public static func read(
        path: String, nmea: NMEAReaderConfiguration = NMEAReaderConfiguration()
    ) throws -> TrackFile {
        try read(data: try TrackFileData.contents(ofFile: path), source: path, nmea: nmea)
    }

    /// Reads a track held in memory; `source` names it in errors.
    public static func read(
        data: Data, source: String, nmea: NMEAReaderConfiguration = NMEAReaderConfiguration()
    ) throws -> TrackFile {
        let contents: Contents
        switch try TrackFormat.detect(in: data, source: source) {
        case .nmea: contents = .nmea(NMEAReader.read(data: data, source: source, configuration: nmea))
        case .gpx: contents = .gpx(try GPXReader.read(data: data, source: source))
        case .gpsdJSON: contents = .gpsdJSON(GPSDJSONReader.read(data: data, source: source))
        }
        return TrackFile(source: source, contents: contents)
    }
}
