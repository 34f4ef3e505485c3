import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

/// Contract 9, the same receiver output gives the same events live and in replay: each shared NMEA log played by
/// gpsfake through a real gpsd into `geofence run --gpsd`, and `geofence replay` of the same file, must print
/// byte-identical JSON Lines. Both compute the accuracy by the one model of `HorizontalAccuracyEstimate`, so the
/// events come at the same fixes, with the same times and distances.
///
/// What the receiver sends is the log with two changes that gpsd needs and that leave what it says alone: dates
/// before 2017 move 16 years forward (gpsd 3.22 moves such dates by 1024 weeks, taking them for a receiver that lost
/// a GPS week rollover; 16 years keep every weekday-free date valid, leap days included), and the last line gets
/// its line end (gpsd drops a last sentence without one). Fences: circles of 100 m around points of the log's
/// own track, 60 m to the north of every 20th fix, so the vehicle passes near their edges, where the accuracy
/// decides; every other one has a speed limit, so the fixes' speeds decide events too.
///
/// Quick by default (about a minute): nmealog.txt (GGA before RMC, GST in every epoch), its RTK variant (RMC moved
/// before GGA, GGA quality 4 and 5 alternating: a receiver where gpsd's `eph` lags an epoch), its variant without
/// speed or course (gpsd derives every speed from the previous fix), and nl2008u.log (a u-blox 8: RMC first, no GST). `GEOFENCE_LIVE_REPLAY_ALL=1` plays every log but the exceptions
/// (`exceptions`), whose cause it checks instead; a long log plays at `longLogCycle`. The full set has
/// bundg_zeus_9.log, an instrument bus that relays GLL and RMC a second after the GGA of their position and sends
/// DBT: gpsd reports it at nearly every sentence without a time and drops what only a GLC follows, which the reader
/// reproduces (`NMEACycleEnd`), and 20160815.nmea, a boat whose compass (HDG) gives the course of the fixes that gpsd
/// reports before their RMC, corrected by gpsd's magnetic variation grid (`MagneticVariation`).
@Suite(.enabled(if: TestEnvironment.canRunGPSFake && GeofenceExecutable.isBuilt,
                "needs gpsfake, the shared data and the geofence executable"))
struct LiveEqualsReplayTests {
    /// Logs whose live output cannot be compared with the replay, with the reason measured on them and a check of
    /// the property of the log that causes it: the test asserts that the log still has it (so an exception cannot
    /// outlive its cause) instead of skipping the log silently.
    static let exceptions: [String: Exception] = [
        "plaka.log": Exception(
            reason: "GLL only and a ZDA without a date: gpsd reports no time, so the daemon gets no observation",
            holds: { lines in !lines.contains { sentence($0, is: "RMC") || zdaDate(of: $0) != nil } }),
    ]

    /// Logs that are compared but whose fences give no events, with the reason; the others must give some.
    static let withoutEvents: [String: String] = [
        "bt451.log": "13 fixes with HDOP 2.72 (accuracy 52 m) 60 m from the one fence's centre, straddling its "
            + "edge, then the time steps back 52 minutes to fixes 1.9 km away: no region is ever determined",
    ]

    struct Exception: Sendable {
        var reason: String
        /// Whether the receiver output (its lines) still has the property that causes the exception.
        var holds: @Sendable ([String]) -> Bool
    }

    /// gpsfake's pacing for logs longer than 20,000 sentences: 2 ms per sentence. gpsd keeps up: measured on
    /// nmea-20130630.log (39,514 sentences, about 140 s instead of 470 s at `OnePass.cycle`), every one of its
    /// 18,934 epochs came as exactly one TPV, and the events equal those at 10 ms per sentence. The quick logs
    /// keep `OnePass.cycle`.
    static let longLogCycle = 0.002

    static let quickLogs = ["nmealog.txt", "nmealog-rtk (derived)", "nmealog-no-speed (derived)", "nl2008u.log"]

    static var logs: [String] {
        guard ProcessInfo.processInfo.environment["GEOFENCE_LIVE_REPLAY_ALL"] == "1" else { return quickLogs }
        let shared = (try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.nmeaLog(""))) ?? []
        return shared.sorted() + ["nmealog-rtk (derived)", "nmealog-no-speed (derived)"]
    }

    @Test(arguments: logs)
    func daemonThroughGPSDPrintsWhatReplayPrints(log name: String) async throws {
        if let exception = Self.exceptions[name] {
            let lines = String(decoding: try Self.receiverOutput(for: name), as: UTF8.self)
                .split(whereSeparator: \.isNewline).map(String.init)
            #expect(exception.holds(lines), "\(name) no longer has the cause of its exception: compare it")
            print("live = replay, \(name): not compared: \(exception.reason)")
            return
        }
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let receiverOutput = directory.appendingPathComponent("receiver.nmea")
        try Self.receiverOutput(for: name).write(to: receiverOutput)
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fences(along: receiverOutput).write(to: fences, atomically: true, encoding: .utf8)
        let arguments = ["--fences", fences.path, "--format", "jsonl"]

        let clock = ContinuousClock()
        let started = clock.now
        let replay = try GeofenceExecutable.run(["replay", receiverOutput.path] + arguments)
        #expect(replay.status == 0, "\(replay.standardError)")
        let replayed = replay.standardOutput.split(separator: "\n")

        // 1,200 sentences of padding (12 s) before the log, as in the field test: the daemon, started as soon as
        // gpsd listens, connects while gpsd plays them. One pass, ended by the copy's end marker.
        let padded = try OnePass.paddedCopy(of: receiverOutput.path, padding: 1_200)
        defer { try? FileManager.default.removeItem(atPath: padded) }
        let sentences = FieldTestThroughGPSDTests.text(receiverOutput).split(whereSeparator: \.isNewline).count
        let cycle = sentences > 20_000 ? Self.longLogCycle : OnePass.cycle
        let port = TCPProbe.freePort()
        let gpsfake = try await GPSFake.start(
            log: padded, port: port, cycle: cycle, nowait: true, endMarker: OnePass.endMarker)
        let daemonOutput = directory.appendingPathComponent("daemon.jsonl")
        let daemonErrors = directory.appendingPathComponent("daemon.err")
        let daemon = try FieldTestThroughGPSDTests.start(
            GeofenceExecutable.path,
            ["run", "--gpsd", "127.0.0.1:\(port)", "--store", directory.appendingPathComponent("unit.db").path]
                + arguments,
            output: daemonOutput, errors: daemonErrors)
        // A deadline that only bounds a hang: ten times the pass's pacing, and 5 minutes for a short log.
        let played = await gpsfake.finishPass(
            timeout: .seconds(300) + .seconds(Double(sentences + 1_200) * cycle * 10))
        let gpsfakeOutput = gpsfake.output
        // gpsd is gone: the daemon has every report and passes on the last epoch as its connection closes. Wait
        // until it has written as many lines as the replay (a deadline that only bounds one that writes fewer).
        let deadline = ContinuousClock.now + .seconds(120)
        while FieldTestThroughGPSDTests.text(daemonOutput).split(separator: "\n").count < replayed.count
            && ContinuousClock.now < deadline && daemon.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        daemon.interrupt()
        daemon.waitUntilExit()
        await gpsfake.stop()
        let live = FieldTestThroughGPSDTests.text(daemonOutput)
        print("live = replay, \(name): replay \(replayed.count) lines, daemon \(live.split(separator: "\n").count); "
            + "\(clock.now - started)")
        #expect(played, "gpsd read the whole log: \(gpsfakeOutput.suffix(2000))")
        #expect(daemon.terminationStatus == 0, "\(FieldTestThroughGPSDTests.text(daemonErrors).suffix(2000))")
        if let reason = Self.withoutEvents[name] {
            #expect(replayed.isEmpty, "\(name) now gives events (it did not: \(reason)); drop it from withoutEvents")
        } else {
            #expect(!replayed.isEmpty, "the fences along the track give events")
        }
        #expect(live == replay.standardOutput, "\(Self.firstDifference(live, replay.standardOutput))")
    }

    // MARK: - The receiver output and the fences

    /// The bytes the simulated receiver sends for `name`: a shared log, or the RTK variant of nmealog.txt.
    static func receiverOutput(for name: String) throws -> Data {
        let lines: [String]
        if name == "nmealog-rtk (derived)" {
            lines = rtkVariant(of: try logLines("nmealog.txt"))
        } else if name == "nmealog-no-speed (derived)" {
            lines = withoutSpeed(try logLines("nmealog.txt"))
        } else {
            lines = try logLines(name)
        }
        return Data(lines.map(movedForward).map { $0 + "\r\n" }.joined().utf8)
    }

    static func logLines(_ name: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.nmeaLog(name)))
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }

    /// nmealog.txt as an RTK receiver that sends RMC first would: in each epoch (from one GGA to the next) the RMC
    /// moves to the front, and GGA's quality alternates between 4 (RTK fixed) and 5 (RTK float).
    static func rtkVariant(of lines: [String]) -> [String] {
        var epochs: [[String]] = []
        for line in lines {
            if line.hasPrefix("$GPGGA") || epochs.isEmpty { epochs.append([]) }
            epochs[epochs.count - 1].append(line)
        }
        return epochs.enumerated().flatMap { index, epoch in
            let rmc = epoch.filter { $0.hasPrefix("$GPRMC") }
            let rest = epoch.filter { !$0.hasPrefix("$GPRMC") }.map { line in
                line.hasPrefix("$GPGGA") ? rewrite(line) { $0[6] = index % 2 == 0 ? "4" : "5" } : line
            }
            return rmc + rest
        }
    }

    /// nmealog.txt as a receiver that sends no speed would: each RMC's speed and course fields empty, the VTGs gone.
    /// gpsd then derives every fix's speed from the previous one, and so must the replay.
    static func withoutSpeed(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            if sentence(line, is: "VTG") { return nil }
            guard sentence(line, is: "RMC") else { return line }
            return rewrite(line) { fields in
                fields[7] = ""
                fields[8] = ""
            }
        }
    }

    static func sentence(_ line: String, is type: String) -> Bool {
        line.hasPrefix("$") && line.dropFirst(3).hasPrefix(type + ",")
    }

    /// A ZDA's date fields (day, month, year), nil when it has none or is no ZDA.
    static func zdaDate(of line: String) -> String? {
        guard sentence(line, is: "ZDA") else { return nil }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count > 4, !fields[2].isEmpty, !fields[3].isEmpty, !fields[4].isEmpty else { return nil }
        return fields[2...4].joined(separator: ",")
    }

    /// RMC and ZDA dates before 2017 moved 16 years forward (see the suite's comment).
    static func movedForward(_ line: String) -> String {
        if line.contains("RMC,"), line.hasPrefix("$") {
            return rewrite(line) { fields in
                guard fields.count > 9, fields[9].count == 6, let year = Int(fields[9].suffix(2)), year < 17 else { return }
                fields[9] = String(fields[9].prefix(4)) + String(format: "%02d", year + 16)
            }
        }
        if line.contains("ZDA,"), line.hasPrefix("$") {
            return rewrite(line) { fields in
                guard fields.count > 4, let year = Int(fields[4]), year < 2017 else { return }
                fields[4] = String(year + 16)
            }
        }
        return line
    }

    /// A sentence with its fields changed and its checksum recomputed; anything else as it was.
    static func rewrite(_ line: String, _ change: (inout [String]) -> Void) -> String {
        guard let dollar = line.lastIndex(of: "$"), let star = line.lastIndex(of: "*"), dollar < star else { return line }
        var fields = line[line.index(after: dollar)..<star].split(separator: ",", omittingEmptySubsequences: false)
            .map(String.init)
        change(&fields)
        let body = fields.joined(separator: ",")
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return String(line[..<dollar]) + "$" + body + "*" + String(format: "%02X", checksum)
    }

    /// A CSV fence file of circles of 100 m: 60 m north of every 20th fix of the track (of the middle one in a
    /// track shorter than 20 fixes). Every other circle has a speed limit of 20 km/h, so the speeds decide events
    /// too (a car's fixes pass it; the boats of the shared logs stay under it).
    static func fences(along log: URL) throws -> String {
        let fixes = try NMEAReader.read(path: log.path).observations.compactMap(\.fix)
        var lines = ["id,lat,lon,radius_m,speed_limit_kmh"]
        for (index, fix) in fixes.enumerated() where index % 20 == min(10, fixes.count / 2) {
            let latitude = fix.coordinate.latitude + 60 / 111_320
            let limit = index % 40 < 20 ? "20" : ""
            lines.append("s\(index),\(latitude),\(fix.coordinate.longitude),100,\(limit)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func firstDifference(_ live: String, _ replay: String) -> String {
        let a = live.split(separator: "\n"), b = replay.split(separator: "\n")
        for index in 0 ..< max(a.count, b.count) where index >= a.count || index >= b.count || a[index] != b[index] {
            let line = { (lines: [Substring]) in index < lines.count ? String(lines[index]) : "(none)" }
            return "line \(index + 1): live \(line(a)) | replay \(line(b))"
        }
        return "none"
    }
}
