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
            (["run", "--store", "s.db", "--mqtt", "http://broker/topic"], "--mqtt: bad URL"),
            (["fences", "list"], "--store PATH is required"),
            (["fences", "frob", "--store", "s.db"], "unknown action frob"),
            (["simulate", "--profile", "rocket", "-o", "x.nmea"], "expected car, bus or train"),
            (["map", "--fences", "f.csv"], "-o OUT.html is required"),
            (["map", "--fences", "f.csv", "-o", "m.html", "--tiles", "ftp://t/{z}/{x}/{y}"],
             #"--tiles "ftp://t/{z}/{x}/{y}": want an http:// or https:// URL"#),
            (["map", "--fences", "f.csv", "-o", "m.html", "--tiles", "https://tiles.example.org/{z}/{x}/{y}.png"],
             "need their attribution text (--tiles-attribution)"),
            (["map", "--fences", "f.csv", "-o", "m.html", "--tiles-attribution", "x"], "--tiles-attribution needs --tiles"),
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

    /// A runaway line (here a 2 MB identifier) is refused with its size, and the store keeps what it held.
    @Test func hugeIdentifierIsRefusedAndStoreKeepsItsRegions() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.csv")
        try "id,lat,lon,radius_m\na,-27.5,153.0,100\n".write(to: good, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("s.db").path
        #expect(try GeofenceExecutable.run(["fences", "import", good.path, "--store", store]).status == 0)
        let huge = directory.appendingPathComponent("huge.csv")
        try ("id,lat,lon,radius_m\nb,-27.5,153.0,100\n" + String(repeating: "x", count: 2_000_000) + ",-27.5,153.0,100\n")
            .write(to: huge, atomically: true, encoding: .utf8)
        let refused = try GeofenceExecutable.run(["fences", "import", huge.path, "--store", store])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("huge.csv:3: field id: the identifier is 2000000 bytes long"),
                "\(refused.standardError.prefix(300))")
        let list = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(list.standardOutput.split(separator: "\n").map { $0.prefix(2) } == ["id", "a,"])
        let query = try GeofenceExecutable.run(
            ["query", "--fences", good.path], input: Data(("0,0\n" + String(repeating: "9", count: 10_000)).utf8))
        #expect(query.status == 1 && query.standardError.contains("stdin:2: line of 10000 bytes"), "\(query.standardError)")
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
