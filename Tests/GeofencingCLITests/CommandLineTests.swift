import Foundation
import GeofencingTestSupport
import Testing

/// The command line's contract: --help everywhere, exit status 0 / 1 / 2, errors on standard error naming the input.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct CommandLineTests {
    static let commands = ["demo", "replay", "query", "run", "fences", "map", "simulate"]

    @Test(arguments: commands)
    func helpExitsZero(command: String) throws {
        let outcome = try GeofenceExecutable.run([command, "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("Usage: geofence \(command)"))
    }

    @Test func overviewListsEveryCommand() throws {
        let outcome = try GeofenceExecutable.run(["--help"])
        #expect(outcome.status == 0)
        for command in Self.commands { #expect(outcome.standardOutput.contains("  \(command) ")) }
    }

    @Test func usageErrorsExitTwo() throws {
        let cases: [([String], String)] = [
            ([], ""),
            (["frobnicate"], "unknown command frobnicate"),
            (["replay", "x.nmea"], "--fences FILE is required"),
            (["replay", "--fences", "f.csv"], "missing TRACK"),
            (["query", "--fences"], "--fences needs a value"),
            (["query", "--fences", "f.csv", "--bogus"], "unknown option --bogus"),
            (["run", "--nmea", "-"], "--store PATH is required"),
            (["run", "--store", "s.db", "--gpsd", "h:0"], "the port must be 1 ... 65535"),
            (["run", "--store", "s.db", "--gpsd", "h", "--nmea", "-"], "exclude each other"),
            (["run", "--store", "s.db", "--exec", "say 'hi"], "--exec"),
            (["demo", "--format", "xml"], "expected text or jsonl"),
            (["fences", "list"], "--store PATH is required"),
            (["fences", "frob", "--store", "s.db"], "unknown action frob"),
            (["simulate", "--profile", "rocket", "-o", "x.nmea"], "expected car, bus or train"),
            (["map", "--fences", "f.csv"], "-o OUT.html is required"),
        ]
        for (arguments, message) in cases {
            let outcome = try GeofenceExecutable.run(arguments)
            #expect(outcome.status == 2, "\(arguments): status \(outcome.status), \(outcome.standardError)")
            if !message.isEmpty {
                #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            }
        }
    }

    @Test func badFenceFileExitsOneNamingFileAndLine() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try "id,lat,lon,radius_m\na,-27.5,153.0,100\nb,-27.5,153.0,abc\n".write(to: fences, atomically: true, encoding: .utf8)
        let outcome = try GeofenceExecutable.run(["query", "--fences", fences.path], input: Data("-27.5,153\n".utf8))
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("fences.csv:3"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("radius_m"), "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func missingTrackExitsOne() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try "id,lat,lon,radius_m\na,-27.5,153.0,100\n".write(to: fences, atomically: true, encoding: .utf8)
        let outcome = try GeofenceExecutable.run(["replay", "/nonexistent/drive.nmea", "--fences", fences.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("/nonexistent/drive.nmea"), "\(outcome.standardError)")
    }
}
