import Foundation
import Geofencing
import GeofencingGPSD
import GeofencingTestSupport

/// Plays one pass of a shared log through gpsfake and a `GPSDSource`, from its first sentence.
///
/// gpsfake starts playing at once and repeats the log; a client that connects after gpsd comes up misses the start
/// of the first pass (and gpsd reports later passes differently: it has a date by then, and the step back in time
/// at the wrap upsets its cycle detection, so each epoch comes twice). So the log is played from a temporary copy
/// that begins with `padding` harmless $GPTXT sentences (no position, no time: gpsd reports nothing for them) and
/// gpsd reads from the start (`-n`); the source is started before gpsfake and retries every 20 ms, so it is
/// watching before the first real sentence arrives.
struct OnePass {
    /// The observations of the pass, in order.
    var observations: [Observation]
    /// The source's counters after the pass.
    var statistics: GPSDStatistics

    var fixes: [Fix] { observations.compactMap(\.fix) }

    /// gpsfake's pacing: 10 ms per sentence (a 1,400-line log plays in about 15 s).
    static let cycle = 0.01

    /// How long the source must stay quiet after an observation for the pass to count as over. An epoch takes
    /// about 0.15 s at this pacing (gpsfake spends some 14 ms per sentence with `-c 0.01`); the padding before
    /// the next pass (300 sentences) over 4 s. The margin is for a loaded machine, where gpsd may pause.
    static let quiet = Duration.seconds(2)

    /// Plays `log` once: until an observation has arrived and then nothing for `quiet`, or `timeout`.
    static func play(log: String, padding: Int = 300, timeout: Duration = .seconds(45)) async throws -> OnePass {
        let copy = try paddedCopy(of: log, padding: padding)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let port = TCPProbe.freePort()
        let source = GPSDSource(configuration: GPSDConfiguration(
            host: "127.0.0.1", port: port,
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(20))))
        let recorder = Recorder(source.observations)
        try source.start()
        defer { source.stop() }
        let gpsfake = try await GPSFake.start(log: copy, port: port, cycle: cycle, nowait: true)
        await recorder.waitForQuiet(quiet, timeout: timeout)
        source.stop()
        await source.waitUntilStopped()
        await gpsfake.stop()
        return OnePass(observations: recorder.elements, statistics: source.statistics)
    }

    /// A copy of `log` in the temporary directory behind `padding` $GPTXT sentences.
    static func paddedCopy(of log: String, padding: Int) throws -> String {
        let body = "GPTXT,01,01,02,geofencing test: the log starts after this pause"
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let line = "$\(body)*\(String(checksum, radix: 16, uppercase: true).leftPadded(to: 2))\r\n"
        var data = Data(String(repeating: line, count: padding).utf8)
        data.append(try Data(contentsOf: URL(fileURLWithPath: log)))
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("padded-\(UInt32.random(in: 0 ... .max))-" + (log as NSString).lastPathComponent)
        try data.write(to: copy)
        return copy.path
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
