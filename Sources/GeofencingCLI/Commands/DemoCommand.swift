import Foundation
import Geofencing
import GeofencingInputs
import GeofencingMap
import GeofencingSinks
import GeofencingWriters

/// `geofence demo`: a simulated bus drive past stops the demo makes itself, monitored, events printed, a map
/// written. Needs no files, no gpsd and no network.
enum DemoCommand {
    static let command = GeofenceCLI.Command(
        name: "demo", summary: "simulate a bus line past its stops, print the events, write demo-map.html",
        help: """
            Usage: geofence demo [--format text|jsonl] [--map OUT.html] [--nmea OUT.nmea] [--seed N]

            Makes a bus line with nine stops (three of them off the line), a bus lane (a corridor) and a school zone
            (a polygon), simulates a drive along it at 1 Hz with a consumer GNSS receiver's errors, monitors the
            eleven fences and prints every event. Needs no files, no gpsd and no network; the same seed gives the
            same events.

              --format F     text (default) or jsonl
              --map OUT      the map to write (default demo-map.html)
              --nmea OUT     also write the simulated drive as an NMEA log (replay it with 'geofence replay' or
                             feed it to gpsd with gpsfake)
              --seed N       the simulation's seed (default 1)
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let format = try EventFormat(parsing: try arguments.option("--format"), in: arguments)
        let mapPath = try arguments.option("--map") ?? "demo-map.html"
        let nmeaPath = try arguments.option("--nmea")
        let seedText = try arguments.option("--seed") ?? "1"
        try arguments.finish()
        guard let seed = UInt64(seedText) else { throw arguments.usageError("--seed \(seedText): expected a whole number") }

        let scenario = try DemoScenario(seed: seed)
        let observations = scenario.drive.observations
        let sink = format.standardOutputSink()
        let replay = try TrackReplay(
            regions: scenario.regions, observations: observations,
            onEvents: { events in
                for event in events { try? sink.deliver(event) }
                try? sink.flush()
            })
        if let nmeaPath {
            do {
                try NMEAWriter().write(observations, comments: ["geofence demo, seed \(seed)"],
                                       to: URL(fileURLWithPath: nmeaPath))
            } catch {
                throw CLIError.failure("geofence demo: cannot write \(nmeaPath): \(error)")
            }
            Console.error("nmea: \(nmeaPath)")
        }
        try MapWriting.write(
            MapDocument(title: "geofence demo: bus line, seed \(seed)", regions: scenario.regions,
                        track: replay.track, events: replay.events),
            to: mapPath)
        let minutes = Int((scenario.drive.duration / 60).rounded())
        Console.error(
            "demo: \(scenario.regions.count) fences, \(observations.count) fixes over \(minutes) min of GNSS time, "
                + "\(replay.events.count) events")
    }
}
