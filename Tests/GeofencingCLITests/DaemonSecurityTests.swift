import Foundation
import Geofencing
import GeofencingInputs
import GeofencingStore
import GeofencingTestSupport
import GeofencingWriters
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What README.md ("geofence run", "Running as a service") and systemd/geofence.service promise about the daemon's
/// security, each checked on the running executable:
/// - the store and its -wal and -shm files are 0600 whatever the umask (they hold where the vehicle was);
/// - it runs unprivileged: the unit runs it as a dynamic user with no capabilities and no new privileges, so it
///   must work as such a user (the daemon itself does not check who runs it: that is the unit's job, and the
///   README claims no more);
/// - `--exec` runs no shell: region identifiers and the command's own words reach the command as data;
/// - it opens no listening socket (no TCP, UDP or unix socket anyone could connect to).
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonSecurityTests {
    static let fences = [(id: "A", center: DaemonFixtures.east(300), radius: 50.0),
                         (id: "B", center: DaemonFixtures.east(700), radius: 50.0)]

    /// A 1 km drive past A and B, as NMEA, and the fences, in `directory`.
    static func scenario(in directory: URL) throws -> (fences: URL, nmea: URL, epochs: [String]) {
        let fences = directory.appendingPathComponent("fences.csv")
        try DaemonFixtures.writeFences(Self.fences, to: fences)
        let observations = try DaemonFixtures.drive(length: 1_000).observations
        let nmea = directory.appendingPathComponent("drive.nmea")
        try DaemonFixtures.nmea(observations).write(to: nmea, atomically: true, encoding: .utf8)
        return (fences, nmea, observations.map { NMEAWriter().sentences(for: $0).map { $0 + "\r\n" }.joined() })
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    /// Runs `executable` to completion with its output in files (no pipe to fill up).
    static func run(_ executable: String, _ arguments: [String]) throws
        -> (status: Int32, standardOutput: String, standardError: String)
    {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try DaemonProcess(
            arguments, output: directory.appendingPathComponent("out"), errors: directory.appendingPathComponent("err"),
            executable: executable)
        try daemon.closeInput()
        daemon.process.waitUntilExit()
        return (daemon.process.terminationStatus,
                String(decoding: try Data(contentsOf: directory.appendingPathComponent("out")), as: UTF8.self),
                daemon.standardError)
    }

    @Test func storeFilesAre0600UnderAPermissiveUmask() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, _, epochs) = try Self.scenario(in: directory)
        let store = directory.appendingPathComponent("unit.db").path
        // umask 022 for the daemon alone (a shell that sets it and then becomes the daemon).
        let daemon = try DaemonProcess(
            ["-c", "umask 022 && exec \"$0\" \"$@\"", GeofenceExecutable.path,
             "run", "--store", store, "--nmea", "-", "--format", "jsonl", "--fences", fences.path],
            output: directory.appendingPathComponent("out.jsonl"), errors: directory.appendingPathComponent("err.txt"),
            executable: "/bin/sh")
        try await daemon.waitForStandardError(containing: "reading NMEA")
        daemon.write(epochs.joined())
        // While it runs (SQLite removes -wal and -shm when the last connection closes).
        let delivered = try await daemon.waitForStandardOutput(timeout: .seconds(30)) { $0.count >= 4 }
        #expect(delivered)
        let modes = ["", "-wal", "-shm"].map { (store + $0, Self.mode(store + $0)) }
        try daemon.closeInput()
        #expect(try await daemon.waitForExit(timeout: .seconds(30)) == 0, "\(daemon.standardError)")
        for (path, mode) in modes {
            #expect(mode == 0o600, "\(path): mode \(mode.map { String($0, radix: 8) } ?? "missing")")
        }
    }

    /// A store left with mode 0644 (copied, restored from a backup, created by an older build) and its -wal and -shm
    /// files: the first command that opens it, even one that only reads, makes all three 0600, and the daemon's
    /// files stay so while it runs.
    @Test func anExistingStoreOpenToOthersIsTightened() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, _, epochs) = try Self.scenario(in: directory)
        let store = directory.appendingPathComponent("unit.db").path
        #expect(try GeofenceExecutable.run(["fences", "import", fences.path, "--store", store]).status == 0)
        // A reader holds the store open, so that its -wal and -shm files stay while their modes are loosened.
        let holder = try GeofenceStore(path: store)
        _ = try holder.regions()
        for suffix in ["", "-wal", "-shm"] { #expect(chmod(store + suffix, 0o644) == 0, "\(suffix)") }
        let listed = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(listed.status == 0, "\(listed.standardError)")
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(store + suffix) == 0o600, "after fences list: \(store + suffix)")
        }
        withExtendedLifetime(holder) {}

        chmod(store, 0o644)
        let daemon = try DaemonProcess(
            ["run", "--store", store, "--nmea", "-", "--format", "jsonl"],
            output: directory.appendingPathComponent("out.jsonl"), errors: directory.appendingPathComponent("err.txt"))
        defer { daemon.kill() }
        try await daemon.waitForStandardError(containing: "reading NMEA")
        daemon.write(epochs.joined())
        #expect(try await daemon.waitForStandardOutput(timeout: .seconds(30)) { $0.count >= 4 })
        let modes = ["", "-wal", "-shm", ".lock"].map { (store + $0, Self.mode(store + $0)) }
        try daemon.closeInput()
        #expect(try await daemon.waitForExit(timeout: .seconds(30)) == 0, "\(daemon.standardError)")
        for (path, mode) in modes {
            #expect(mode == 0o600, "\(path): mode \(mode.map { String($0, radix: 8) } ?? "missing")")
        }
    }

    /// As the unit runs it: user nobody, no supplementary groups, no capabilities (bounding set empty), no new
    /// privileges, umask 0077, its state in a directory of its own (mode 0700). It stores and prints the same events
    /// as when root runs it.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "needs root to switch to user nobody, and setpriv (util-linux)"))
    func runsUnprivilegedAsTheServiceUnitDoes() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try Self.scenario(in: directory)
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
        chmod(state.path, 0o700)
        chown(state.path, 65_534, 65_534)
        // A copy of the executable where nobody can reach it (the build directory may not be).
        let executable = directory.appendingPathComponent("geofence").path
        try FileManager.default.copyItem(atPath: GeofenceExecutable.path, toPath: executable)
        chmod(directory.path, 0o755)
        for file in [fences.path, nmea.path, executable] { chmod(file, 0o755) }

        let store = state.appendingPathComponent("store.db").path
        let unprivileged = try Self.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
             "--no-new-privs", "/bin/sh", "-c", "umask 0077 && exec \"$0\" \"$@\"", executable,
             "run", "--store", store, "--nmea", nmea.path, "--fences", fences.path, "--format", "jsonl"])
        #expect(unprivileged.status == 0, "\(unprivileged.standardError)")
        let asRoot = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("root.db").path, "--nmea", nmea.path,
             "--fences", fences.path, "--format", "jsonl"])
        #expect(unprivileged.standardOutput == asRoot.standardOutput && !asRoot.standardOutput.isEmpty)
        var status = stat()
        #expect(stat(store, &status) == 0 && status.st_uid == 65_534 && status.st_mode & 0o777 == 0o600,
                "the store belongs to the service's user, mode 0600")
    }

    /// Identifiers that a shell would run, and shell operators in the --exec string: the command gets them as
    /// plain arguments and variables; nothing they name is run.
    @Test func execRunsNoShellWhateverTheIdentifiers() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("pwned").path
        let canary = directory.appendingPathComponent("canary")
        try FileManager.default.createDirectory(at: canary, withIntermediateDirectories: false)
        let hostile = [
            "$(touch \(marker)-1)", "`touch \(marker)-2`", "; rm -rf \(canary.path)", "x && touch \(marker)-3",
            "| touch \(marker)-4", "' ; touch \(marker)-5 ; '", "\" ; touch \(marker)-6 ; \"", "${IFS}touch${IFS}\(marker)-7",
        ]
        // One fence per identifier, every 200 m along a 2 km drive; CSV quoting: the field in double quotes,
        // each double quote doubled.
        var csv = "id,lat,lon,radius_m\n"
        for (index, identifier) in hostile.enumerated() {
            let center = DaemonFixtures.east(200 + 200 * Double(index))
            csv += "\"\(identifier.replacingOccurrences(of: "\"", with: "\"\""))\",\(center.latitude),\(center.longitude),40\n"
        }
        let fences = directory.appendingPathComponent("fences.csv")
        try csv.write(to: fences, atomically: true, encoding: .utf8)
        let nmea = directory.appendingPathComponent("drive.nmea")
        try DaemonFixtures.nmea(try DaemonFixtures.drive(length: 2_000).observations)
            .write(to: nmea, atomically: true, encoding: .utf8)
        // The hook records GEOFENCE_REGION and its arguments, each followed by a NUL.
        let log = directory.appendingPathComponent("hook.log").path
        let hook = directory.appendingPathComponent("hook.sh")
        try """
            #!/bin/sh
            printf '%s\\0' "$GEOFENCE_TYPE" "$GEOFENCE_REGION" "$#" "$@" >> '\(log)'
            """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)

        let outcome = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences", fences.path,
             "--nmea", nmea.path, "--format", "jsonl",
             "--exec", "\(hook.path) ; touch \(marker)-8 && rm -rf \(canary.path) $(touch \(marker)-9)"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let fields = ((try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data())
            .split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        // Per call: type, region, argument count (9), then the 9 arguments as written.
        let arguments = [";", "touch", "\(marker)-8", "&&", "rm", "-rf", canary.path, "$(touch", "\(marker)-9)"]
        var entered: [String] = []
        var index = 0
        while index + 3 + arguments.count <= fields.count {
            #expect(fields[index + 2] == "\(arguments.count)")
            #expect(Array(fields[(index + 3)..<(index + 3 + arguments.count)]) == arguments)
            if fields[index] == "enter" { entered.append(fields[index + 1]) }
            index += 3 + arguments.count
        }
        #expect(entered == hostile, "every identifier reaches the command unchanged")
        for number in 1...9 {
            #expect(!FileManager.default.fileExists(atPath: "\(marker)-\(number)"), "\(marker)-\(number) was created")
        }
        #expect(FileManager.default.fileExists(atPath: canary.path), "the canary directory was removed")
    }

    /// With every sink on (standard output, --exec, --mqtt towards a port where nothing listens), the daemon holds
    /// no socket that listens: checked from /proc/PID/fd against the kernel's socket tables.
    @Test func opensNoListeningSocket() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, _, epochs) = try Self.scenario(in: directory)
        var arguments = ["run", "--store", directory.appendingPathComponent("unit.db").path, "--nmea", "-",
                         "--fences", fences.path, "--format", "jsonl", "--exec", "/bin/true"]
        arguments += ["--mqtt", "mqtt://127.0.0.1:\(TCPProbe.freePort())/geofence"]
        let daemon = try DaemonProcess(
            arguments, output: directory.appendingPathComponent("out.jsonl"),
            errors: directory.appendingPathComponent("err.txt"))
        defer { daemon.kill() }
        try await daemon.waitForStandardError(containing: "reading NMEA")
        daemon.write(epochs.joined())
        #expect(try await daemon.waitForStandardOutput(timeout: .seconds(30)) { $0.count >= 4 })
        try await Task.sleep(for: .milliseconds(500))  // the MQTT sink has tried to connect by now
        let sockets = ProcessSockets.of(processID: daemon.process.processIdentifier)
        #expect(sockets.filter(\.isListening).isEmpty, "listening: \(sockets.filter(\.isListening))")
        print("daemon sockets with every sink on: \(sockets.isEmpty ? "none" : sockets.map(\.description).joined(separator: "; "))")
    }
}
