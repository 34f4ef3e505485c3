// Live NMEA: pipes, files and a pseudo-terminal standing in for a serial receiver.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs
#if canImport(Glibc)
import Glibc
#endif

@Suite("NMEA live stream")
struct NMEAStreamTests {
    private static let epochs = NMEAReaderTests.brisbaneEpoch + [
        "GPGGA,222438.000,2734.34821,S,15305.44697,E,1,07,1.2,50.8,M,39.2,M,,",
        "GPRMC,222438.000,A,2734.34821,S,15305.44697,E,33.8,158.3,030308,11.2,W,A",
    ]

    private func collect(_ stream: AsyncThrowingStream<Observation, any Error>) async throws -> [Observation] {
        var observations: [Observation] = []
        for try await observation in stream { observations.append(observation) }
        return observations
    }

    @Test func aPipeIsReadUntilItCloses() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let data = NMEATestText.log(Self.epochs)
        let stream = NMEAStream(from: .fileDescriptor(descriptors[0])).observationStream()
        // Written in small pieces, as a serial line delivers them.
        for start in stride(from: 0, to: data.count, by: 50) {
            let piece = [UInt8](data[start..<min(start + 50, data.count)])
            #expect(write(descriptors[1], piece, piece.count) == piece.count)
        }
        close(descriptors[1])
        let observations = try await collect(stream)
        close(descriptors[0])
        #expect(observations == NMEAReader.read(data: data).observations)
        #expect(observations.count == 2)
    }

    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func aRegularFileReadsLikeTheFileReader() async throws {
        let path = TestData.shared("nmea/nmealog.txt").path
        let observations = try await collect(NMEAStream(from: .device(path: path)).observationStream())
        #expect(observations == (try NMEAReader.read(path: path)).observations)
    }

    @Test func aMissingDeviceThrows() async {
        await #expect(throws: TrackReadError(source: "/dev/nonexistent-gnss", message: "open failed: No such file or directory")) {
            try await collect(
                NMEAStream(from: .device(path: "/dev/nonexistent-gnss", baudRate: 9600)).observationStream())
        }
    }

    /// A pseudo-terminal is a terminal like /dev/ttyUSB0: the stream switches it to raw mode at the given speed
    /// (without raw mode, the line discipline would turn CR into LF and echo), then reads what the "receiver" (the
    /// master side) writes.
    @Test func aTerminalIsSwitchedToRawModeAndRead() async throws {
        let terminal = try #require(PseudoTerminal())
        let devicePath = terminal.devicePath
        let stream = NMEAStream(from: .device(path: devicePath, baudRate: 9600)).observationStream()
        // Bytes written before the reader has configured the port would pass the cooked line discipline (CR to LF,
        // echo): write only once the terminal is raw at 9600 baud.
        try #require(try await Self.waitUntilRaw(devicePath, speed: speed_t(B9600), timeout: .seconds(120)))
        let data = [UInt8](NMEATestText.log(Self.epochs + [Self.epochs[0].replacingOccurrences(of: "222437", with: "222439")]))
        #expect(write(terminal.master, data, data.count) == data.count)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        let second = try await iterator.next()
        #expect(first?.fix?.timestamp == NMEATestText.utc(2008, 3, 3, 22, 24, 37))
        #expect(second?.fix?.timestamp == NMEATestText.utc(2008, 3, 3, 22, 24, 38))
        var settings = termios()
        let slave = open(devicePath, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        defer { close(slave) }
        #expect(tcgetattr(slave, &settings) == 0)
        #expect(cfgetispeed(&settings) == speed_t(B9600))
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0, "raw mode: no line editing, no echo")
    }

    /// Polls the terminal's settings until they are raw (no line editing, no echo) at `speed`; false at `timeout`.
    ///
    /// The reader configures the port on a thread of its own, but this task resumes on the shared pool of test
    /// threads, which other suites can hold for a long time (the sanitizer builds run them several times slower):
    /// the settings are checked after every wake-up, the deadline's included, so a late wake-up finds the port
    /// raw instead of timing out. The deadline only bounds a reader that never configures the port.
    private static func waitUntilRaw(_ devicePath: String, speed: speed_t, timeout: Duration) async throws -> Bool {
        let terminal = open(devicePath, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        guard terminal >= 0 else { return false }
        defer { close(terminal) }
        let deadline = ContinuousClock.now + timeout
        while true {
            var settings = termios()
            if tcgetattr(terminal, &settings) == 0, cfgetispeed(&settings) == speed,
               settings.c_lflag & tcflag_t(ICANON | ECHO) == 0 {
                return true
            }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func anUnsupportedSpeedIsRejected() async throws {
        let terminal = try #require(PseudoTerminal())
        let devicePath = terminal.devicePath
        await #expect {
            try await collect(NMEAStream(from: .device(path: devicePath, baudRate: 1234)).observationStream())
        } throws: { error in
            (error as? TrackReadError)?.message.hasPrefix("baud rate 1234 is not one of 1200, 2400, 4800") == true
        }
    }

    @Test func cancellingTheConsumerStopsTheReader() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]); close(descriptors[1]) }
        let stream = NMEAStream(from: .fileDescriptor(descriptors[0]), pollInterval: 20).observationStream()
        let consumer = Task { try await collect(stream) }
        try await Task.sleep(for: .milliseconds(100))
        consumer.cancel()
        let observations = try await consumer.value
        #expect(observations.isEmpty, "the pipe never closed: only cancellation ends the stream")
    }
}
