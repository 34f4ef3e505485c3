// Shared test support: the built `geofence` executable, run as a real process.
import Foundation

/// The `geofence` executable SwiftPM built next to the test bundle (`swift test` builds every product first).
public enum GeofenceExecutable {
    /// `<build directory>/geofence`: the test runner (`<build directory>/GeofencingPackageTests.xctest`) lives in the
    /// same directory.
    public static let path: String = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On macOS the runner is inside the .xctest bundle; walk up to the products directory.
        while directory.path.contains(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("geofence").path
    }()

    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// What a finished run printed and returned.
    public struct Outcome: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `geofence arguments...` to completion in `directory`, with `input` on standard input, and captures
    /// its output (through files, so a large output cannot fill a pipe and deadlock).
    public static func run(
        _ arguments: [String], input: Data = Data(), in directory: URL? = nil
    ) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("geofence-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputFile = scratch.appendingPathComponent("stdin")
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        try input.write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// A fresh temporary directory for one test; remove it with `FileManager.removeItem` when done.
    public static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("geofence-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
