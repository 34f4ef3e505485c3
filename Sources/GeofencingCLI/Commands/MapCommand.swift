import Geofencing
import GeofencingEvents
import GeofencingMap
import GeofencingStore

/// `geofence map --fences FILE [--track TRACK] [--events EVENTS.jsonl] [--tiles URL_TEMPLATE] -o OUT.html`.
enum MapCommand {
    static let command = GeofenceCLI.Command(
        name: "map", summary: "write a self-contained HTML map of fences, a track and events",
        help: """
            Usage: geofence map --fences FILE [--radius M] [--datum D] [--track TRACK] [--events EVENTS.jsonl]
                                [--tiles URL_TEMPLATE [--tiles-attribution TEXT]] -o OUT.html

            Writes one HTML file on Leaflet (inlined) that needs no network: the fences (circles, polygons with
            their holes, corridors as a band of their half-width; large outlines thinned for drawing, at most 4,000
            vertices each) with their identifiers, the track coloured by state (inside a fence or not), event
            markers with time and type; drag to pan, wheel or +/- to zoom, with a scale bar. With --track and no
            --events, the events are those 'geofence replay' finds; --events shows a daemon's or replay's JSON
            Lines output instead. Without --tiles the page fetches nothing; with it, a street layer is loaded from
            that tile server when the viewer is online (and images from its host are all the page may fetch).

              --fences FILE    GeoJSON (circles, polygons, corridors), CSV (id,lat,lon,radius_m) or
                               GTFS stops.txt
              --radius M       radius for GTFS stops, metres (default 100)
              --datum D        datum of the fences' coordinates: wgs84 (default), gcj02, tokyo
              --track TRACK    an NMEA, GPX or gpsd JSON log
              --events FILE    events as JSON Lines ('--format jsonl' output)
              --tiles URL_TEMPLATE
                               a tile server, http(s) with {z}, {x} and {y}, e.g.
                               https://tile.openstreetmap.org/{z}/{x}/{y}.png (mind the server's usage policy)
              --tiles-attribution TEXT
                               the attribution the tiles' terms ask for (default for tile.openstreetmap.org:
                               "\u{00a9} OpenStreetMap contributors"; required for other servers)
              -o OUT.html      the map to write
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let fencesPath = try arguments.option("--fences")
        let radius = try arguments.number("--radius", in: 1...50_000) ?? 100
        let datum = try FenceLoading.datumOption(&arguments)
        let trackPath = try arguments.option("--track")
        let eventsPath = try arguments.option("--events")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let tilesTemplate = try arguments.option("--tiles")
        let tilesAttribution = try arguments.option("--tiles-attribution")
        try arguments.finish()
        guard let fencesPath else { throw arguments.usageError("--fences FILE is required") }
        guard let output else { throw arguments.usageError("-o OUT.html is required") }
        var tiles: MapTiles?
        if let tilesTemplate {
            do {
                tiles = try MapTiles(template: tilesTemplate, attribution: tilesAttribution)
            } catch {
                throw arguments.usageError("--tiles \"\(error.template)\": \(error.problem)")
            }
        } else if tilesAttribution != nil {
            throw arguments.usageError("--tiles-attribution needs --tiles URL_TEMPLATE")
        }

        let regions = try FenceLoading.regions(from: fencesPath, defaultRadius: radius, datum: datum)
        var track: [MapTrackPoint] = []
        var events: [EventRecord] = []
        if let trackPath {
            let replay = try TrackReplay(regions: regions, observations: try TrackLoading.read(trackPath).observations)
            track = replay.track
            events = replay.events
        }
        if let eventsPath { events = try EventLines.read(path: eventsPath) }
        let title = trackPath.map { "\($0) — \(regions.count) fences" } ?? "\(fencesPath) — \(regions.count) fences"
        try MapWriting.write(MapDocument(title: title, regions: regions, track: track, events: events, tiles: tiles),
                             to: output)
    }
}
