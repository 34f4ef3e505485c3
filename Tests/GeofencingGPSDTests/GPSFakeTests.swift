import Foundation
import Geofencing
import GeofencingInputs
import Testing
import GeofencingTestSupport

@testable import GeofencingGPSD

/// GPSDSource against a real gpsd, run by gpsfake from the shared logs. Skipped, with the reason, when the build has
/// no libgps, ../shared/data is absent, or gpsfake is not installed.
@Suite(.enabled(if: TestEnvironment.canRunGPSFake, "\(TestEnvironment.whyNot ?? "")"))
struct GPSFakeTests {
    static let brisbane = TestEnvironment.nmeaLog("nmealog.txt")

    /// Fast retries for tests: gpsd comes and goes within seconds here.
    static func configuration(port: UInt16) -> GPSDConfiguration {
        GPSDConfiguration(
            host: "127.0.0.1", port: port,
            backoff: ReconnectBackoff(initial: .milliseconds(50), maximum: .milliseconds(200)))
    }

    // MARK: - gpsd's fixes equal the NMEA reader's

    /// The Brisbane car log (nmealog.txt: 156 epochs at 1 Hz; RMC GGA GLL GSA GST GSV VTG). One pass through gpsd and
    /// libgps gives the reader's fixes, epoch for epoch: same position (1e-7°), same time of week, same speed,
    /// course and altitude. The differences, each checked:
    /// - gpsd dates the log 1024 weeks late (2027-10-18 for 2008-03-03): gpsd 3.22 takes dates older than its
    ///   build for a GPS week-number rollover and adds 1024 weeks; the reader uses the RMC date as written.
    /// - gpsd's first three reports have no time: the first epoch's GGA, GLL and GSA come before its RMC, and gpsd
    ///   cannot date a time of day without a date. The source counts them (`untimedReports`) and passes nothing on;
    ///   the epoch itself is reported, with its time, once the RMC arrives.
    /// - gpsd does not report the last epoch (22:27:12) in one pass: the log's last line, that epoch's RMC, has no
    ///   line end, and the sentence played after it (the end marker; in a repeating gpsfake, the next pass) starts
    ///   with "$" where gpsd expects it: gpsd drops the unterminated RMC. (Measured: with a line end added, gpsd
    ///   reports that epoch too.)
    /// - At 22:27:07 ... 22:27:11 the receiver sent no speed (empty RMC and VTG fields): the reader leaves speed
    ///   nil, gpsd 3.22 fills it in from the distance between consecutive fixes. Checked: gpsd's value is that
    ///   distance over the time step, within 1 %.
    /// - Horizontal accuracy is the same: both take it from the epoch's GST (live, gpsd's GST report paired with
    ///   the TPV by time), not from gpsd's `eph` (HDOP × 19 m). Except in the first epoch: gpsd sends its GST
    ///   before it knows the date, without a time, so it cannot be paired and the fix keeps gpsd's `eph`.
    ///
    /// Each epoch comes once: the source passes on one observation per epoch (the last TPV of its time).
    @Test func brisbaneLogMatchesNMEAReader() async throws {
        let reader = try NMEAReader.read(path: Self.brisbane).observations.compactMap(\.fix)
        let pass = try await OnePass.play(log: Self.brisbane)
        let comparison = FixComparison(gpsd: pass.fixes, reader: reader)
        print("nmealog.txt: reader \(reader.count) fixes; gpsd \(pass.fixes.count) fixes, \(pass.statistics)")
        print("nmealog.txt: \(comparison.summary)")

        #expect(reader.count == 156)
        #expect(comparison.offset == FixComparison.gpsWeekRollover)
        #expect(pass.statistics.untimedReports == 3)
        #expect(pass.statistics.noFixes == 0 && pass.statistics.invalidReports == 0)
        #expect(comparison.matched.count == 155)
        #expect(comparison.extra.isEmpty)
        #expect(comparison.repeatedTimes == 0)
        #expect(comparison.missing.map(\.timestamp) == [reader.last?.timestamp])

        // The one remaining difference is the first epoch's accuracy. Five epochs are reported before their RMC
        // and VTG: gpsd derives their speed from the previous fix, and so does the reader (`NMEADerivedSpeed`).
        var previous: Fix?
        var derivedSpeeds = 0
        for (gpsd, reader) in comparison.matched {
            defer { previous = reader }
            var gpsdAfterTheFirst = gpsd
            if previous == nil {
                #expect(gpsd.horizontalAccuracy == 24.7, "the first epoch: gpsd's eph, HDOP 1.3 × 19 m")
                gpsdAfterTheFirst.horizontalAccuracy = reader.horizontalAccuracy
            }
            if reader.course == nil, let speed = reader.speed, let previous {
                derivedSpeeds += 1
                let distance = Self.distance(previous.coordinate, reader.coordinate)
                let step = reader.timestamp.timeIntervalSince(previous.timestamp)
                #expect(abs(speed - distance / step) <= 0.01 * speed + 1e-3, "derived speed at \(reader.timestamp)")
            }
            #expect(FixComparison(gpsd: [gpsdAfterTheFirst], reader: [reader]).mismatches.isEmpty,
                    "\(FixComparison(gpsd: [gpsd], reader: [reader]).mismatches)")
        }
        #expect(comparison.mismatches.count == 1, "the first epoch's accuracy: \(comparison.mismatches)")
        #expect(derivedSpeeds == 5)
    }

    /// Distance in metres on a sphere of radius 6371 km: plenty for steps of a few metres checked to 1 %.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians
        let dLongitude = (b.longitude - a.longitude) * radians * cos((a.latitude + b.latitude) / 2 * radians)
        return 6_371_000 * (dLatitude * dLatitude + dLongitude * dLongitude).squareRoot()
    }

    /// gpsd's regression log for a u-blox BT-451 (bt451.log, 2 Hz, ZDA RMC GGA): no fix indoors (empty
    /// sentences, not even a time), a fix at 15:25:04.5 ... 15:25:08.5, then — the log is spliced — one at
    /// 14:33:06 ... 14:33:08.5 of the same day. Both see nothing in the indoor part: no time, no observation.
    /// Where both report an epoch, they agree. The differences, each checked:
    /// - 1024 weeks again (2029 for 2009), as for the Brisbane log.
    /// - 13 gpsd reports without time: the 12 indoor no-fix epochs and the GGA at 15:25:04.5 that comes before any
    ///   date. The reader holds that epoch back and dates it from the RMC that follows, so it is missing from gpsd.
    /// - In this log ZDA ends each epoch; the epochs at 15:25:08.5 and 14:33:08.5 have none, so gpsd never reports
    ///   them, and the reader, which follows gpsd's end-of-cycle rule (`NMEACycleEnd`), gives no observation for them
    ///   either.
    /// - At the splice the time of day steps back 52 minutes. gpsd takes that for midnight and dates the GGA at
    ///   14:33:06.0 one day later, until the next RMC brings the date back; the reader steps back to the same day
    ///   (it only moves to the next day when the time of day drops by more than 12 hours).
    /// - After the splice gpsd sends each epoch twice (its cycle detection restarts); the source passes each on
    ///   once. Accuracy (no GST here) is gpsd's `eph` on both sides, the reader applying gpsd's HDOP rule.
    @Test func bt451LogMatchesNMEAReader() async throws {
        let log = TestEnvironment.nmeaLog("bt451.log")
        let readerLog = try NMEAReader.read(path: log)
        let reader = readerLog.observations.compactMap(\.fix)
        let pass = try await OnePass.play(log: log)
        let comparison = FixComparison(gpsd: pass.fixes, reader: reader)
        print("bt451.log: reader \(reader.count) fixes, \(readerLog.observations.count - reader.count) no-fix; "
            + "gpsd \(pass.fixes.count) fixes, \(pass.statistics)")
        print("bt451.log: \(comparison.summary)")

        let day: TimeInterval = 86_400
        let time = { (text: String) in ISO8601DateFormatter.fractional.date(from: "2009-12-09T\(text)Z")! }
        #expect(reader.count == 13)
        #expect(readerLog.observations.count == reader.count)
        #expect(comparison.offset == FixComparison.gpsWeekRollover)
        #expect(pass.statistics.untimedReports == 13)
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches)")
        #expect(comparison.matched.count == 11)
        #expect(comparison.missing.map(\.timestamp) == ["15:25:04.500", "14:33:06.000"].map(time))
        #expect(comparison.extra.map { $0.timestamp.addingTimeInterval(-comparison.offset) }
            == [time("14:33:06.000").addingTimeInterval(day)])
        let nextDay = try #require(comparison.extra.first).coordinate
        let sameDay = try #require(comparison.missing.first { $0.timestamp == time("14:33:06.000") }).coordinate
        #expect(abs(nextDay.latitude - sameDay.latitude) <= 1e-7 && abs(nextDay.longitude - sameDay.longitude) <= 1e-7)
        #expect(comparison.repeatedTimes == 0, "one observation per epoch")
        #expect(pass.fixes.count == comparison.matched.count + comparison.extra.count)
    }

    // MARK: - The real world

    /// gpsd is killed (SIGKILL, as in a crash) while fixes flow, then started again on the same port: the source
    /// notices, retries, reconnects, and fixes flow again.
    @Test func reconnectsAfterGPSDIsKilledAndRestarted() async throws {
        let port = TCPProbe.freePort()
        let source = GPSDSource(configuration: Self.configuration(port: port))
        let observations = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        let first = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        try source.start()
        defer { source.stop() }

        #expect(await observations.wait(timeout: .seconds(15)) { $0.compactMap(\.fix).count >= 5 })
        first.crashDaemon()
        #expect(await states.wait(timeout: .seconds(5)) { $0.contains(where: \.isWaiting) })
        let reason = states.elements.first(where: \.isWaiting)?.reason
        #expect(reason == .connectionClosed, "first failure: \(String(describing: reason))")
        await first.stop()
        let fixesBefore = observations.elements.count

        let second = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        #expect(await observations.wait(timeout: .seconds(15)) { $0.compactMap(\.fix).count >= fixesBefore + 5 })
        #expect(source.state == .connected)
        #expect(source.statistics.connections == 2)
        print("restart: \(states.elements.map(\.description))")
        source.stop()
        await second.stop()
    }

    /// gpsd is not running when the source starts: it keeps trying, with growing waits, and connects when gpsd
    /// appears.
    /// (With the default host, "localhost".)
    @Test func connectsWhenGPSDAppearsLater() async throws {
        let port = TCPProbe.freePort()
        var configuration = Self.configuration(port: port)
        configuration.host = GPSDConfiguration().host
        let source = GPSDSource(configuration: configuration)
        let observations = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }

        #expect(await states.wait(timeout: .seconds(5)) { $0.filter(\.isWaiting).count >= 4 })
        let failures = states.elements.filter(\.isWaiting)
        // gps_open's own code for "nothing listens there": NL_NOCONNECT, -6.
        #expect(failures.first?.reason == .callFailed(
            function: "gps_open", code: -6, message: "can't connect to host/port pair"))
        #expect(failures.prefix(4).map(\.delay) == [50, 100, 200, 200].map { Duration.milliseconds($0) })
        #expect(observations.elements.isEmpty)

        let gpsfake = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        #expect(await observations.wait(timeout: .seconds(15)) { $0.compactMap(\.fix).count >= 3 })
        #expect(source.statistics.connections == 1)
        #expect(source.statistics.failures >= 4)
        source.stop()
        await gpsfake.stop()
    }

    /// stop() while connected and reading: the thread ends, the socket and the wake-up pipe are closed, both
    /// streams end, the last state is `.stopped`.
    @Test func stopWhileReadingClosesEverything() async throws {
        let port = TCPProbe.freePort()
        let gpsfake = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        let source = GPSDSource(configuration: Self.configuration(port: port))
        let observations = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        try source.start()
        #expect(await observations.wait(timeout: .seconds(15)) { !$0.isEmpty })

        // The source's connection to gpsd: one socket of this process connected to the port.
        let connected = await observations.wait(timeout: .seconds(5)) { _ in
            Descriptors.sockets(connectedToPort: port).count == 1
        }
        #expect(connected, "sockets to \(port): \(Descriptors.sockets(connectedToPort: port)), \(source.state)")
        let wakePipe = try #require(Descriptors.open()[source.core.wakeDescriptor])
        #expect(wakePipe.hasPrefix("pipe:"))

        source.stop()
        await source.waitUntilStopped()
        #expect(Descriptors.sockets(connectedToPort: port).isEmpty)
        #expect(!Descriptors.open().values.contains(wakePipe))
        #expect(await observations.waitForEnd(timeout: .seconds(1)))
        #expect(await states.waitForEnd(timeout: .seconds(1)))
        #expect(states.elements.last == .stopped)
        #expect(source.state == .stopped)
        await gpsfake.stop()
    }

    /// Cancelling the task that consumes the observations stops the source just the same: its connection closes.
    @Test func cancellingTheConsumerStopsTheSource() async throws {
        let port = TCPProbe.freePort()
        let gpsfake = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        let source = GPSDSource(configuration: Self.configuration(port: port))
        let observations = Recorder(source.observations)
        try source.start()
        #expect(await observations.wait(timeout: .seconds(15)) { !$0.isEmpty })

        observations.cancel()
        await source.waitUntilStopped()
        #expect(source.state == .stopped)
        #expect(Descriptors.sockets(connectedToPort: port).isEmpty)
        await gpsfake.stop()
    }

    /// Ten sources connect to gpsd and stop, one after the other: each closes its connection and its wake-up pipe
    /// (the descriptors it opens, found by inode in /proc/self/fd: other tests run in parallel, so a plain count of
    /// descriptors moves on its own). The total count is printed, not checked.
    @Test func repeatedStartStopLeaksNoDescriptor() async throws {
        let port = TCPProbe.freePort()
        let gpsfake = try await GPSFake.start(log: Self.brisbane, port: port, cycle: 0.01)
        let before = Descriptors.count
        for round in 1 ... 10 {
            let source = GPSDSource(configuration: Self.configuration(port: port))
            let states = Recorder(source.connectionStates)
            try source.start()
            #expect(await states.wait(timeout: .seconds(5)) { $0.contains(.connected) })
            let socket = Descriptors.sockets(connectedToPort: port)
            let pipe = Descriptors.open()[source.core.wakeDescriptor]
            #expect(socket.count == 1 && pipe?.hasPrefix("pipe:") == true, "round \(round): \(socket), \(pipe ?? "-")")
            source.stop()
            await source.waitUntilStopped()
            let open = Set(Descriptors.open().values)
            #expect(open.isDisjoint(with: socket), "round \(round): socket left open")
            #expect(pipe.map { !open.contains($0) } ?? true, "round \(round): wake-up pipe left open")
        }
        // Printed only: the total moves with the tests running beside this one (the field test's daemon and
        // gpspipe hold files and pipes of this process); the per-round checks above are the ones that count.
        let after = Descriptors.count
        print("descriptors before \(before), after 10 connections \(after)")
        await gpsfake.stop()
    }
}

extension ISO8601DateFormatter {
    /// 2009-12-09T15:25:04.500Z
    nonisolated(unsafe) static let fractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}

extension GPSDConnectionState {
    var isWaiting: Bool {
        if case .waitingToReconnect = self { return true }
        return false
    }

    var reason: GPSDError? {
        if case .waitingToReconnect(_, let reason) = self { return reason }
        return nil
    }

    var delay: Duration? {
        if case .waitingToReconnect(let delay, _) = self { return delay }
        return nil
    }
}
