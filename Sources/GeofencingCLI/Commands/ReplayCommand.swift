import Geofencing
import GeofencingInputs
import GeofencingMap
import GeofencingSinks
import GeofencingStore

/// `geofence replay TRACK --fences FILE [--format text|jsonl] [--map OUT.html]`: a recorded log through the monitor,
/// events on standard output: exactly what `geofence run` reports for the same fixes from gpsd.
enum ReplayCommand {
    static let command = GeofenceCLI.Command(
        name: "replay", summary: "replay an NMEA, GPX or gpsd JSON log against fences and print the events",
        help: """
            Usage: geofence replay TRACK --fences FILE [--radius M] [--datum D] [--approach T] [--format text|jsonl]
                                   [--map OUT.html] [--determinations inside|all]

            Replays a recorded track (NMEA 0183, GPX, or gpsd JSON as from 'gpspipe -w'; recognised by content)
            through the region monitor and prints every event, in GNSS time: the same events 'geofence run' reports
            when gpsd plays the same log.

              --fences FILE   GeoJSON (circles, polygons, corridors), CSV (id,lat,lon,radius_m) or
                              GTFS stops.txt
              --radius M      radius for GTFS stops, metres (default 100)
              --datum D       datum of the fences' coordinates: wgs84 (default), gcj02, tokyo
              --approach T    an approach alarm on every fence: an 'approach' event about T seconds (0 < T <= 300)
                              before the vehicle would enter at its current speed and course
              --format F      text (default) or jsonl (one JSON object per event)
              --map OUT.html  also write a map of the fences, the track and the events
              --determinations inside (default, as 'geofence run'): a state event only for regions found inside;
                              all: for every region (inside or outside at the first fix, unknown in an outage)
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let fencesPath = try arguments.option("--fences")
        let radius = try arguments.number("--radius", in: 1...50_000) ?? 100
        let datum = try FenceLoading.datumOption(&arguments)
        let approach = try FenceLoading.approachOption(&arguments)
        let format = try EventFormat(parsing: try arguments.option("--format"), in: arguments)
        let mapPath = try arguments.option("--map")
        var configuration = MonitorConfiguration()
        switch try arguments.option("--determinations") ?? "inside" {
        case "inside": configuration.determinations = Daemon.determinations
        case "all": configuration.determinations = .everyRegion
        case let other: throw arguments.usageError("--determinations \(other): expected inside or all")
        }
        let trackPath = try arguments.positional("TRACK (a log file)")
        try arguments.finish()
        guard let fencesPath else { throw arguments.usageError("--fences FILE is required") }

        let regions = FenceLoading.withApproach(
            try FenceLoading.regions(from: fencesPath, defaultRadius: radius, datum: datum), approach)
        let track = try TrackLoading.read(trackPath)
        let sink = format.standardOutputSink()
        var printFailure: SinkError?
        var timeWarnings = GNSSTimeWarnings(command: "geofence replay", configuration: MonitorConfiguration())
        let replay = try TrackReplay(
            regions: regions, observations: track.observations, configuration: configuration,
            onRefusal: { RefusalReport.report($0, $1, command: "replay", format: format) },
            onTime: { timeWarnings.check($0) }
        ) { events in
            // One write per fix (no fsync): a pipe reader sees each fix's events as soon as they happen.
            do throws(SinkError) {
                for event in events { try sink.deliver(event) }
                try sink.flush()
            } catch { printFailure = printFailure ?? error }
        }
        if let summary = GNSSTimeWarnings.summary(replay.timeStatistics) {
            Console.error("geofence replay: \(trackPath): \(summary)")
        }
        if let printFailure { throw CLIError.failure("geofence replay: cannot print events: \(printFailure)") }
        if let mapPath {
            try MapWriting.write(
                MapDocument(title: "\(trackPath) — \(regions.count) fences", regions: regions, track: replay.track,
                            events: replay.events),
                to: mapPath)
        }
    }
}
