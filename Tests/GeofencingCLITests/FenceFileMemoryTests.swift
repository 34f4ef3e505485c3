// The GeoJSON reader's memory against the CSV reader's for the same 10^5 circles, through the real executable:
// `geofence query` loads the fences (and builds the index) and classifies no point. Peak resident memory of each run
// comes from GNU time; what a run needs beyond an empty fence file is compared. Times are printed, never asserted.
import Foundation
import Testing
import GeofencingTestSupport

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time (/usr/bin/time) is missing"))
struct FenceFileMemoryTests {
    /// GNU time, which forks (not vfork: a child spawned from the test process by posix_spawn would inherit the
    /// test process's high-water mark through exec) and reports its child's own peak resident memory.
    private static let time = "/usr/bin/time"

    /// Peak resident memory (bytes) and wall time (seconds) of `geofence arguments...`, output discarded.
    private func measure(_ arguments: [String], in directory: URL) throws -> (peakBytes: Int, seconds: Double) {
        let report = directory.appendingPathComponent("time.txt").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.time)
        process.arguments = ["-f", "%M", "-o", report, GeofenceExecutable.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        try #require(process.terminationStatus == 0, "geofence \(arguments) failed")
        let text = try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let kibibytes = try #require(Int(text), "GNU time wrote \(text)")
        return (kibibytes * 1024, seconds)
    }

    @Test func geojsonNeedsAtMostTwiceTheMemoryOfCSVForTheSameFences() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 100_000
        var csv = "id,lat,lon,radius_m\n"
        var features: [String] = []
        var generator = SystemRandomNumberGenerator()
        for index in 0..<count {
            let latitude = String(format: "%.7f", -27 - Double.random(in: 0..<1, using: &generator))
            let longitude = String(format: "%.7f", 153 + Double.random(in: 0..<1, using: &generator))
            let radius = 20 + index % 1_980
            csv += "f\(index),\(latitude),\(longitude),\(radius)\n"
            features.append(#"{"type":"Feature","id":"f\#(index)","geometry":{"type":"Point","coordinates":"#
                + #"[\#(longitude),\#(latitude)]},"properties":{"radius":\#(radius)}}"#)
        }
        let files = [
            ("empty", #"{"type":"FeatureCollection","features":[]}"#),
            ("csv", csv),
            ("geojson", #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"),
        ]
        var peaks: [String: Int] = [:]
        for (name, text) in files {
            let path = directory.appendingPathComponent("fences.\(name)").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try measure(["query", "--fences", path, "--points", "/dev/null"], in: directory)
            peaks[name] = run.peakBytes
            print("geofence query --fences <\(count) circles as \(name)>: peak RSS \(run.peakBytes / 1024) KiB, "
                + "\(String(format: "%.2f", run.seconds)) s")
        }
        let empty = try #require(peaks["empty"])
        let csvMemory = try #require(peaks["csv"]) - empty
        let geojsonMemory = try #require(peaks["geojson"]) - empty
        #expect(csvMemory > 0)
        #expect(geojsonMemory <= 2 * csvMemory, "GeoJSON \(geojsonMemory) B, CSV \(csvMemory) B beyond an empty file")
    }
}
