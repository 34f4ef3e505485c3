import Foundation
import Geofencing
import Synchronization
import Testing
import GeofencingTestSupport

@testable import GeofencingGPSD

/// GPSDSource without gpsd: its lifecycle, and the failures a real gpsd rarely shows on demand, played by a
/// hand-made TCP server and by the debug-only fault hook.
@Suite struct GPSDSourceTests {
    /// A stall timeout no test outlasts, for tests of one connection: the server sends its lines once and then
    /// stays quiet, and a stall would reconnect and get them again, however long the test waits on a busy machine.
    static let noStall = Duration.seconds(3600)

    static func configuration(port: UInt16, stallTimeout: Duration = .seconds(10)) -> GPSDConfiguration {
        GPSDConfiguration(
            host: "127.0.0.1", port: port,
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(80)),
            stallTimeout: stallTimeout)
    }

    /// A gpsd-style greeting and one TPV report, as gpsd 3.22 writes them.
    /// One fix, then the next epoch's GST: the source passes an epoch on once the next one begins
    /// (`TPVEpochAssembler`), and a GST is no observation itself.
    static let tpvLines = """
        {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
        {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.500Z","ept":0.005,\
        "lat":-27.572913833,"lon":153.090970833,"altMSL":52.7,"epx":13.938,"epy":13.695,"track":159.4,\
        "speed":17.8,"eph":24.7}
        {"class":"GST","device":"/dev/ttyUSB0","time":"2024-05-01T12:00:01.500Z","lat":1.0,"lon":1.0}

        """
    static let tpvFix = Fix(
        coordinate: Coordinate(latitude: -27.572913833, longitude: 153.090970833),
        timestamp: Date(timeIntervalSince1970: 1_714_564_800.5), horizontalAccuracy: 24.7, speed: 17.8,
        course: 159.4, altitude: 52.7)

    @Test func startThrowsOnlyWithoutTheTrait() throws {
        let source = GPSDSource(configuration: Self.configuration(port: TCPProbe.freePort()))
        defer { source.stop() }
        if GPSDSource.isAvailable {
            try source.start()
        } else {
            #expect(throws: GPSDError.disabled) { try source.start() }
            #expect(GPSDError.disabled.description.contains("GPSD trait"))
        }
    }

    @Test func stopBeforeStartEndsTheStreams() async {
        let source = GPSDSource()
        let observations = Recorder(source.observations)
        source.stop()
        await source.waitUntilStopped()
        #expect(source.state == .stopped)
        #expect(await observations.waitForEnd(timeout: .seconds(1)))
        try? source.start()  // does nothing once stopped
        #expect(source.state == .stopped)
    }

    /// The whole path without gpsd: libgps parses a TPV line from a TCP server, the source passes on the fix.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func readsATPVReport() async throws {
        let server = try FakeServer(.send(Array(Self.tpvLines.utf8)))
        defer { server.stop() }
        let source = GPSDSource(configuration: Self.configuration(port: server.port, stallTimeout: Self.noStall))
        let observations = Recorder(source.observations)
        try source.start()
        defer { source.stop() }
        #expect(await observations.wait(timeout: .seconds(60)) { !$0.isEmpty })
        #expect(observations.elements == [.fix(Self.tpvFix)])
        #expect(source.state == .connected)
    }

    /// gpsd that never answers (here: a listener that never accepts; the kernel completes the connection): after
    /// `stallTimeout` of silence the source gives up on the connection and reconnects.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func stalledConnectionIsReopened() async throws {
        let server = try FakeServer(.silent)
        defer { server.stop() }
        let source = GPSDSource(configuration: Self.configuration(port: server.port, stallTimeout: .milliseconds(200)))
        let states = Recorder(source.connectionStates)
        let clock = ContinuousClock()
        let start = clock.now
        try source.start()
        defer { source.stop() }
        #expect(await states.wait(timeout: .seconds(5)) { $0.filter(\.isWaiting).count >= 2 })
        let elapsed = clock.now - start
        #expect(states.elements.first(where: \.isWaiting)?.reason == .stalled(after: .milliseconds(200)))
        #expect(elapsed >= .milliseconds(200), "a lower bound, which a busy machine cannot break")
        // Silence from a gpsd that answered nothing makes the wait grow like any failure.
        #expect(states.elements.filter(\.isWaiting).prefix(2).map(\.delay) == [.milliseconds(20), .milliseconds(40)])
    }

    /// A server that accepts and hangs up at once: libgps's write of the WATCH command may meet a closed socket
    /// (EPIPE, and a SIGPIPE that must not kill the process); the source just retries.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func hangUpsAreRetried() async throws {
        let server = try FakeServer(.closeAtOnce)
        defer { server.stop() }
        let source = GPSDSource(configuration: Self.configuration(port: server.port))
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        #expect(await states.wait(timeout: .seconds(5)) { $0.filter(\.isWaiting).count >= 5 })
        #expect(server.connectionCount >= 5)
        print("hang-ups: \(Set(states.elements.compactMap(\.reason).map(\.description)))")
    }

    /// Bytes that are not gpsd JSON — binary noise, a truncated object, text — then a good report: nothing
    /// crashes, and the good report still comes through (on this connection or a later one).
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func garbageDoesNotStopTheReader() async throws {
        var bytes: [UInt8] = [0x00, 0xFF, 0xFE, 0x0A, 0x7B, 0x0A]  // NUL, junk, "{"
        bytes += Array("{\"class\":\"TPV\",\"mode\":3,\"lat\":\n".utf8)
        bytes += Array("$GPRMC,not json at all\n".utf8)
        bytes += Array(String(repeating: "x", count: 9000).utf8) + [0x0A]  // longer than libgps's buffer
        bytes += Array(Self.tpvLines.utf8)
        let server = try FakeServer(.send(bytes))
        defer { server.stop() }
        let source = GPSDSource(configuration: Self.configuration(port: server.port))
        let observations = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        let delivered = await observations.wait(timeout: .seconds(5)) { $0.contains(.fix(Self.tpvFix)) }
        print("garbage: \(states.elements.map(\.description)), \(source.statistics)")
        #expect(delivered)
    }

    #if DEBUG
    /// The fault hook: gps_stream fails once (as if gpsd closed the socket under the WATCH command), gps_read
    /// fails once later (connection reset): each ends that connection with the injected error, and the source
    /// reconnects and reads on.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func injectedFailuresAreRetried() async throws {
        let server = try FakeServer(.send(Array(Self.tpvLines.utf8)))
        defer { server.stop() }
        let source = GPSDSource(configuration: Self.configuration(port: server.port))
        let calls = Calls()
        source.faultHook = { function in
            switch (function, calls.count(function)) {
            case (.stream, 1): EPIPE
            case (.read, 2): ECONNRESET
            default: nil
            }
        }
        let observations = Recorder(source.observations)
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        #expect(await observations.wait(timeout: .seconds(5)) { $0.count >= 1 })
        #expect(await states.wait(timeout: .seconds(5)) { $0.filter { $0 == .connected }.count >= 2 })
        let reasons = states.elements.compactMap(\.reason)
        #expect(reasons.first == .callFailed(function: "gps_stream", code: EPIPE, message: "Broken pipe"))
        #expect(reasons.dropFirst().first
            == .callFailed(function: "gps_read", code: ECONNRESET, message: "Connection reset by peer"))
        #expect(observations.elements.allSatisfy { $0 == .fix(Self.tpvFix) })
    }

    /// An injected gps_open failure with libgps's own code reads as libgps would say it.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func injectedOpenFailureCarriesLibgpsText() async throws {
        let source = GPSDSource(configuration: Self.configuration(port: TCPProbe.freePort()))
        source.faultHook = { $0 == .open ? -2 : nil }
        let states = Recorder(source.connectionStates)
        try source.start()
        defer { source.stop() }
        #expect(await states.wait(timeout: .seconds(5)) { $0.contains(where: \.isWaiting) })
        #expect(states.elements.first(where: \.isWaiting)?.reason
            == .callFailed(function: "gps_open", code: -2, message: "can't get host entry"))
    }
    #endif

    /// gpsd absent: thousands of failed attempts leave no descriptor behind (libgps closes the socket of a failed
    /// gps_open itself), and stop() ends the reader thread. What is counted is the process's sockets attached to
    /// nothing, which a socket left behind by a failed connect is. Other suites run in the same process meanwhile
    /// and hold such sockets for a while too (up to about 900 at once was seen while the whole package's tests ran),
    /// so the bound is half the attempts: a leak per attempt adds every one of them and never gives them back, and
    /// one that ran into the descriptor limit would show as EMFILE in the reasons.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func failedAttemptsLeakNothingAndStopEndsTheReader() async throws {
        let attempts = 4_000
        let before = Descriptors.unattachedSockets
        let source = GPSDSource(configuration: GPSDConfiguration(
            host: "127.0.0.1", port: TCPProbe.freePort(),
            backoff: ReconnectBackoff(initial: .milliseconds(2), maximum: .milliseconds(2))))
        try source.start()
        let states = Recorder(source.connectionStates)
        #expect(await states.wait(timeout: .seconds(300)) { _ in source.statistics.failures >= attempts })
        let during = Descriptors.unattachedSockets
        let failures = source.statistics.failures
        source.stop()
        await source.waitUntilStopped()
        let after = Descriptors.unattachedSockets
        print("absent gpsd: \(failures) failures, unattached sockets \(before) / \(during) / \(after), "
            + "descriptors \(Descriptors.count)")
        #expect(during - before < failures / 2)
        #expect(after - before < failures / 2)
        #expect(!states.elements.contains { "\($0)".contains("Too many open files") }, "\(states.elements.suffix(3))")
        #expect(await states.waitForEnd(timeout: .seconds(10)), "the reader ended its state stream")
        #expect(states.elements.last == .stopped)
    }

    /// Stopping during a long backoff wait does not wait for it to end.
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func stopInterruptsABackoffWait() async throws {
        let source = GPSDSource(configuration: GPSDConfiguration(
            host: "127.0.0.1", port: TCPProbe.freePort(),
            backoff: ReconnectBackoff(initial: .seconds(3600), maximum: .seconds(3600))))
        let states = Recorder(source.connectionStates)
        try source.start()
        #expect(await states.wait(timeout: .seconds(5)) { $0.contains(where: \.isWaiting) })
        source.stop()
        // The reader ends with an hour of its wait left; the deadline only bounds a hang, far below that hour
        // (required: waitUntilStopped would otherwise wait out the hour).
        try #require(await states.waitForEnd(timeout: .seconds(60)))
        await source.waitUntilStopped()
        #expect(states.elements.last == .stopped)
    }
}

/// Counts calls per libgps function, for fault hooks that fail the n-th call.
final class Calls: Sendable {
    private let counts = Mutex<[LibGPSFunction: Int]>([:])

    /// Counts one more call of `function` and returns its number (1 for the first).
    func count(_ function: LibGPSFunction) -> Int {
        counts.withLock { counts in
            counts[function, default: 0] += 1
            return counts[function]!
        }
    }
}
