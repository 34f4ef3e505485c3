import Foundation
import GeofencingTestSupport
import Testing

/// `geofence run --config FILE`: the file's `key = value` lines are run's own options (the command line wins);
/// each wrong line is a usage error naming the file, the line and the key; and the daemon runs from a file alone.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct ConfigFileTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/geofence.conf")

    /// Writes `text` as geofence.conf in `directory` and runs `geofence run --config it` plus `arguments`.
    static func run(_ text: String, _ arguments: [String] = [], in directory: URL) throws
        -> GeofenceExecutable.Outcome
    {
        let file = directory.appendingPathComponent("geofence.conf")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try GeofenceExecutable.run(["run", "--config", file.path] + arguments)
    }

    @Test(arguments: [
        ("store = unit.db\n# a comment\nmqtt-pasword = x\n", #"geofence.conf:3: unknown key "mqtt-pasword""#),
        ("\n--store = unit.db\n", #"geofence.conf:2: unknown key "--store""#),
        ("mqtt-password = hunter2\n", #"geofence.conf:1: key "mqtt-password": a password does not belong"#),
        ("password = hunter2\n", #"geofence.conf:1: key "password": a password does not belong"#),
        ("store = unit.db\nradius = 0\n", #"geofence.conf:2: key "radius": --radius 0: expected a number"#),
        ("format = yaml\nstore = unit.db\n", #"geofence.conf:1: key "format": --format yaml: expected text or jsonl"#),
        ("gpsd = localhost:99999\nstore = unit.db\n", #"geofence.conf:1: key "gpsd": --gpsd localhost:99999"#),
        ("store = a.db\nstore = b.db\n", #"geofence.conf:2: key "store": given more than once"#),
        ("store = unit.db\ngpsd localhost\n", #"geofence.conf:2: expected 'key = value', not "gpsd localhost""#),
        ("store =\n", #"geofence.conf:1: key "store": no value"#),
        ("config = other.conf\n", #"geofence.conf:1: key "config": a configuration file cannot name another"#),
        ("mqtt-format = owntracks\nmqtt = mqtt://127.0.0.1/vehicle/7\nstore = unit.db\n",
         #"geofence.conf:1: key "mqtt-format": --mqtt-format: "#),
    ])
    func wrongLinesNameFileLineAndKey(text: String, message: String) throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try Self.run(text, in: directory)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(outcome.standardError.contains(directory.appendingPathComponent("geofence.conf").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("unit.db").path))
    }

    @Test func unreadableFilesAreNamed() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [directory.appendingPathComponent("missing.conf").path, directory.path] {
            let outcome = try GeofenceExecutable.run(["run", "--config", path])
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains("\(path): cannot read the configuration file"),
                    "\(outcome.standardError)")
        }
        let binary = directory.appendingPathComponent("binary.conf")
        try Data([0x73, 0x3D, 0xFF, 0xFE]).write(to: binary)
        let outcome = try GeofenceExecutable.run(["run", "--config", binary.path])
        #expect(outcome.standardError.contains("\(binary.path): not UTF-8 text"), "\(outcome.standardError)")
    }

    /// The daemon from a file alone prints what it prints from the same options on the command line; options on
    /// the command line win over the file's lines (a store in a directory that does not exist, text output).
    @Test func daemonRunsFromTheFileAndFlagsOverrideIt() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        let fromFlags = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("flags.db").path, "--fences", fences.path,
             "--nmea", nmea.path, "--format", "jsonl"])
        try #require(fromFlags.status == 0, "\(fromFlags.standardError)")
        #expect(fromFlags.standardOutput.contains(#""type":"enter""#))

        let fromFile = try Self.run("""
            # the daemon, all from here
            store = \(directory.appendingPathComponent("file.db").path)
              fences   =   \(fences.path)
            nmea = \(nmea.path)
            format = jsonl
            """, in: directory)
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(fromFile.standardOutput == fromFlags.standardOutput)

        let overridden = try Self.run("""
            store = /nonexistent/geofence/unit.db
            fences = \(fences.path)
            nmea = \(nmea.path)
            format = text
            """, ["--store", directory.appendingPathComponent("override.db").path, "--format=jsonl"], in: directory)
        #expect(overridden.status == 0, "\(overridden.standardError)")
        #expect(overridden.standardOutput == fromFlags.standardOutput)
    }

    /// systemd/geofence.conf, the example the service reads, parses and holds only run's options (its commented
    /// MQTT lines too, once uncommented).
    @Test func exampleConfigurationIsRunsOptions() throws {
        let text = try String(contentsOf: Self.example, encoding: .utf8)
        let help = try GeofenceExecutable.run(["run", "--help"])
        var keys: [String] = []
        for line in text.split(separator: "\n") {
            // An active line, or a commented one of the form "# key = value".
            let content = line.hasPrefix("# ") ? line.dropFirst(2) : line[...]
            guard let equals = content.firstIndex(of: "=") else { continue }
            let key = content[..<equals].trimmingCharacters(in: .whitespaces)
            if !key.isEmpty && key.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) { keys.append(key) }
        }
        #expect(keys.contains("store") && keys.contains("gpsd") && keys.contains("mqtt-password-file"))
        for key in keys { #expect(help.standardOutput.contains("--\(key) "), "\(key) is not an option of run") }

        // The active lines parse: with a store of the test's and an NMEA input instead of gpsd, the daemon runs.
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        let active = text.split(separator: "\n").filter { !$0.hasPrefix("gpsd") }.joined(separator: "\n")
        let outcome = try Self.run(
            active, ["--store", directory.appendingPathComponent("unit.db").path, "--nmea", nmea.path,
                     "--fences", fences.path], in: directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(#""type":"enter""#), "format = jsonl from the example")
    }

#if MQTT
    /// The daemon from a file, publishing OwnTracks transitions to a real broker: one per enter and exit it
    /// printed, on owntracks/USER/DEVICE/event; its state events are not published, and it says how many.
    @Test(.enabled(if: MosquittoBroker.isInstalled, "mosquitto (Debian package mosquitto) is not installed"))
    func daemonPublishesOwnTracksTransitionsFromTheFile() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        // A region around the start too: the drive begins inside it, so there is a state event (the daemon
        // reports states only for regions found inside) besides the enters and exits.
        let start = DaemonFixtures.east(0)
        try (try String(contentsOf: fences, encoding: .utf8) + "start,\(start.latitude),\(start.longitude),100\n")
            .write(to: fences, atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let subscriber = try TestSubscriber(port: broker.port, topic: "owntracks/fleet/unit-07/event")
        #expect(await subscriber.wait(timeout: .seconds(10)) { $0.subscriptions == 1 })

        let outcome = try Self.run("""
            store = \(directory.appendingPathComponent("unit.db").path)
            fences = \(fences.path)
            nmea = \(nmea.path)
            format = jsonl
            mqtt = \(broker.url)/owntracks/fleet/unit-07
            mqtt-format = owntracks
            """, in: directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let printed = outcome.standardOutput.split(separator: "\n")
        let transitions = printed.filter { $0.contains(#""type":"enter""#) || $0.contains(#""type":"exit""#) }
        let others = printed.count - transitions.count
        #expect(transitions.count >= 2 && others >= 1, "\(outcome.standardOutput)")
        #expect(await subscriber.wait(timeout: .seconds(10)) { $0.messages.count >= transitions.count })
        #expect(subscriber.messages.count == transitions.count)
        for (message, line) in zip(subscriber.messages, transitions) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
            #expect(object["_type"] as? String == "transition")
            #expect(object["event"] as? String == (line.contains(#""type":"enter""#) ? "enter" : "leave"))
            #expect(object["tid"] as? String == "07")
            #expect(line.contains(#""region":"\#(object["desc"] as? String ?? "?")""#), "\(message) for \(line)")
        }
        #expect(outcome.standardError.contains("\(others) events not published (no form in the owntracks format)"),
                "\(outcome.standardError)")
    }
#endif
}
