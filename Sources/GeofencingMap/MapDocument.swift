import Foundation
import Geofencing
import GeofencingEvents

/// A map of fences, a track and events as one self-contained HTML file on Leaflet (inlined with its licence), with
/// no fonts, no images and no requests; with `tiles`, a street layer from that tile server when the viewer is
/// online, and images from its host are all the page may fetch. Drag to pan, wheel or +/- to zoom, "Fit all".
///
/// Fences (circles, polygons with their holes and parts even-odd, corridors as a band of their half-width around
/// the path) are drawn true-size on WGS-84, the track in the inside/outside colours of `MapPalette`, events as
/// markers by kind with their time; a scale bar stays true at the centre of every view. The data travels in the
/// local plane of `LocalProjection` and the page turns it back into degrees. Region identifiers, the title and the
/// attribution are treated as data: escaped wherever they appear.
public struct MapDocument: Sendable {
    public var title: String
    public var regions: [Region]
    public var track: [MapTrackPoint]
    public var events: [EventRecord]
    /// The street layer; nil (the default) for a page that fetches nothing.
    public var tiles: MapTiles?

    public init(title: String, regions: [Region], track: [MapTrackPoint] = [], events: [EventRecord] = [],
                tiles: MapTiles? = nil) {
        self.title = title
        self.regions = regions
        self.track = track
        self.events = events
        self.tiles = tiles
    }

    /// The page. Fences with an invalid centre, radius or vertex, fixes and events with invalid coordinates are left
    /// out (and counted in the page's data as `skipped`); the rest is drawn. The track is thinned to about one fix
    /// per pixel at the fit-all zoom but never by more than 2 m, keeping every change of state (`TrackSimplifier`,
    /// `MapPayload.maximumTolerance`): 12,866 fences and a 30k-fix drive make a page of about 1.2 MB, Leaflet's 150 KB included. Polygon and
    /// corridor outlines are thinned to half a pixel of a view that fits the outline, at most 4,000 vertices each
    /// (`MapOutline`); the monitor's regions are not changed.
    public func html() -> String {
        let payload = MapPayload(regions: regions, track: track, events: events)
        var summary = Self.counted(payload.fenceCount, "fence")
        if payload.outlineCount > 0 {
            summary += " (\(Self.counted(payload.outlineCount, "polygon or corridor", plural: "polygons or corridors")), "
                + "\(Self.counted(payload.outlineDrawnCount, "vertex", plural: "vertices")) drawn)"
        }
        summary += " \u{00b7} \(Self.counted(payload.trackCount, "track fix", plural: "track fixes"))"
        if payload.trackDrawnCount < payload.trackCount {
            summary += " (\(payload.trackDrawnCount) drawn)"
        }
        summary += " \u{00b7} \(Self.counted(payload.eventCount, "event")) \u{00b7} centre "
            + JSONText.fixed(payload.projection.origin.latitude, decimals: 5) + ", "
            + JSONText.fixed(payload.projection.origin.longitude, decimals: 5)
        return MapPageTemplate.page(title: title, summary: summary, payloadJSON: payload.json, tiles: tiles)
    }

    /// Writes `html()` to `path` atomically (a temporary file in the same folder, then renamed), so a reader never
    /// sees half a page and a failed write leaves an earlier map as it was.
    /// - Throws: `MapWriteError` naming the path and the system's reason.
    public func write(to path: String) throws {
        let data = Data(html().utf8)
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw MapWriteError(path: path, reason: Self.reason(error))
        }
    }

    private static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}

/// The map file could not be written.
public struct MapWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path given to `MapDocument.write(to:)`.
    public var path: String
    /// What the system said, e.g. "No such file or directory".
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write the map to \(path): \(reason)" }
}
