import Foundation
import Geofencing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Live NMEA input: observations from a receiver as they arrive.
///
/// ```swift
/// for try await observation in NMEAStream(from: .device(path: "/dev/ttyUSB0", baudRate: 9600)).observationStream() {
///     monitor.process(observation)
/// }
/// ```
public struct NMEAStream: ObservationSource {
    /// Where the NMEA comes from.
    public let source: NMEAStreamSource
    /// NMEA reader choices; set `referenceDate` to today for a receiver that sends no date.
    public let configuration: NMEAReaderConfiguration
    /// How long, in milliseconds, a read waits before checking whether the consumer went away.
    public let pollInterval: Int32

    /// A stream of `source`'s NMEA; nothing is opened until `observationStream()`.
    public init(
        from source: NMEAStreamSource, configuration: NMEAReaderConfiguration = NMEAReaderConfiguration(),
        pollInterval: Int32 = 200
    ) {
        self.source = source
        self.configuration = configuration
        self.pollInterval = pollInterval
    }

    /// Opens the source and reads it on a background thread, yielding each epoch's observation (one epoch late: an
    /// epoch is complete when the next one starts; see `NMEAReader`). Each call opens the source anew.
    ///
    /// The stream ends at end of input (the last epoch is yielded first), and throws a `TrackReadError` when the
    /// device cannot be opened or configured, or reading fails (a USB receiver unplugged gives EIO). Bad lines never
    /// end it. When the consumer stops iterating or its task is cancelled, the thread notices within
    /// `pollInterval` milliseconds, closes the device and ends.
    public func observationStream() -> AsyncThrowingStream<Observation, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Observation.self, throwing: (any Error).self)
        let stop = StopRequest()
        continuation.onTermination = { _ in stop.request() }
        let (source, configuration, pollInterval) = (source, configuration, pollInterval)
        let thread = Thread {
            do {
                let input = try InputDescriptor(opening: source)
                defer { input.close() }
                try Self.pump(
                    input, into: continuation, configuration: configuration, stop: stop, pollInterval: pollInterval)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "NMEAStream \(source)"
        thread.start()
        return stream
    }

    /// Reads until end of input, an error or a stop request, feeding an `NMEAReader`.
    private static func pump(
        _ input: InputDescriptor, into continuation: AsyncThrowingStream<Observation, any Error>.Continuation,
        configuration: NMEAReaderConfiguration, stop: StopRequest, pollInterval: Int32
    ) throws {
        var reader = NMEAReader(source: input.name, configuration: configuration)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stop.isRequested {
            var request = pollfd(fd: input.descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, pollInterval)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw SerialPort.systemError(input.name, "poll") }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(input.descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw SerialPort.systemError(input.name, "read")
            }
            if count == 0 { break }                                  // end of file or pipe closed
            for observation in reader.read(bytes: buffer[..<count]) { continuation.yield(observation) }
        }
        guard !stop.isRequested else { return }
        for observation in reader.finish() { continuation.yield(observation) }
    }
}

/// Set by the stream's termination handler, read by the reading thread.
private final class StopRequest: Sendable {
    private let requested = Locked(false)

    var isRequested: Bool { requested.withLock { $0 } }

    func request() { requested.withLock { $0 = true } }
}

/// An open input: a descriptor of its own, closed by `close()`, and the input's name for errors.
///
/// A caller's descriptor (stdin, `.fileDescriptor`) is duplicated, so that the caller may close its own at any time:
/// the reading thread, which may still be in poll() for up to one interval after a stop request, must never read a
/// descriptor number that has been closed and reused for another file.
private struct InputDescriptor {
    let descriptor: Int32
    let name: String

    init(opening source: NMEAStreamSource) throws {
        name = source.description
        switch source {
        case .standardInput:
            descriptor = try Self.duplicate(STDIN_FILENO, name: name)
        case .fileDescriptor(let given):
            descriptor = try Self.duplicate(given, name: name)
        case .device(let path, let baudRate):
            // O_NOCTTY: a serial port must not become the process's controlling terminal. O_NONBLOCK: opening a
            // tty can otherwise wait for a carrier-detect line that GNSS receivers do not drive.
            let opened = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
            guard opened >= 0 else { throw SerialPort.systemError(path, "open") }
            descriptor = opened
            do {
                try SerialPort.configureIfTerminal(opened, baudRate: baudRate, source: path)
            } catch {
                close()
                throw error
            }
        }
    }

    func close() {
        _ = closeDescriptor(descriptor)
    }

    private static func duplicate(_ descriptor: Int32, name: String) throws -> Int32 {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw SerialPort.systemError(name, "dup") }
        return copy
    }
}

/// `close(2)`, under a name that does not collide with `InputDescriptor.close()`.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #elseif canImport(Musl)
    Musl.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}
