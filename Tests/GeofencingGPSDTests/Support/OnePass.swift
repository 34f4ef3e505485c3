import Foundation
import Geofencing
import GeofencingGPSD
import GeofencingTestSupport

/// Plays one pass of a shared log through gpsfake and a `GPSDSource`, from its first sentence.
///
/// gpsfake starts playing at once; a client that connects after gpsd comes up misses the start of the log. So the
/// log is played from a temporary copy that begins with `padding` harmless $GPTXT sentences (no position, no time:
/// gpsd reports nothing for them) and gpsd reads from the start (`-n`); the source is started before gpsfake and
/// retries every 20 ms, so it is watching before the first real sentence arrives.
///
/// The copy ends with another $GPTXT, `endMarker`, and is played once (a repeated log would be reported
/// differently: gpsd has a date by then, and the step back in time at the wrap upsets its cycle detection, so each
/// epoch comes twice). The pass is over when gpsd has read the marker: gpsfake then kills gpsd, and the source has
/// every report of the pass once it sees its connection close (`GPSFake.finishPass`). No pause is timed.
struct OnePass {
    /// The observations of the pass, in order.
    var observations: [Observation]
    /// The source's counters after the pass.
    var statistics: GPSDStatistics

    var fixes: [Fix] { observations.compactMap(\.fix) }

    /// gpsfake's pacing: 10 ms per sentence (a 1,400-line log plays in about 15 s).
    static let cycle = 0.01

    /// The last sentence of a padded copy: gpsd passes it to raw watchers once it has read the whole log.
    static let endMarker = "geofencing test: the log ends here"

    /// Plays `log` once, through its end marker. `timeout` only bounds a hang: the pass ends when gpsd has read
    /// the whole log, however long a busy machine takes.
    static func play(log: String, padding: Int = 300, timeout: Duration = .seconds(300)) async throws -> OnePass {
        let copy = try paddedCopy(of: log, padding: padding)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let port = TCPProbe.freePort()
        let source = GPSDSource(configuration: GPSDConfiguration(
            host: "127.0.0.1", port: port,
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(20))))
        let recorder = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        let gpsfake = try await GPSFake.start(log: copy, port: port, cycle: cycle, nowait: true, endMarker: endMarker)
        let played = await gpsfake.finishPass(timeout: timeout)
        // The connection's end comes after the last report: the source has read them all once it waits to reconnect.
        let closed = await states.wait(timeout: timeout) { $0.contains(where: \.isWaiting) }
        source.stop()
        await source.waitUntilStopped()
        let ended = await recorder.waitForEnd(timeout: timeout)
        let output = gpsfake.output
        await gpsfake.stop()
        guard played && closed && ended else {
            throw GPSFakeError(message: "no complete pass of \(log): end marker read \(played), connection closed "
                + "\(closed), observations ended \(ended); gpsfake: \(output.suffix(2000))")
        }
        return OnePass(observations: recorder.elements, statistics: source.statistics)
    }

    /// A copy of `log` in the temporary directory behind `padding` $GPTXT sentences and followed by `endMarker`.
    static func paddedCopy(of log: String, padding: Int) throws -> String {
        var data = Data(String(repeating: text("geofencing test: the log starts after this pause"), count: padding).utf8)
        data.append(try Data(contentsOf: URL(fileURLWithPath: log)))
        // Right after the log's last byte, as the next pass's first sentence followed it in a repeating gpsfake: a
        // log whose last line has no line end (nmealog.txt) loses that sentence to gpsd's resynchronisation at the
        // marker's "$" exactly as it did there, and gpsd still reads the marker.
        data.append(contentsOf: Array(text(endMarker).utf8))
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("padded-\(UInt32.random(in: 0 ... .max))-" + (log as NSString).lastPathComponent)
        try data.write(to: copy)
        return copy.path
    }

    /// A $GPTXT sentence carrying `message`, with its checksum and line end.
    static func text(_ message: String) -> String {
        let body = "GPTXT,01,01,02,\(message)"
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(checksum, radix: 16, uppercase: true).leftPadded(to: 2))\r\n"
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
