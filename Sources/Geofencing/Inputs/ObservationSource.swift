/// Where observations come from: gpsd, a receiver's NMEA stream, a recorded track. Whatever the source, the
/// monitor takes its observations as they come:
///
/// ```swift
/// func follow(_ source: some ObservationSource, with monitor: RegionMonitor) async throws {
///     for try await observation in source.observationStream() { monitor.process(observation) }
/// }
/// ```
///
/// The stream ends when the input does (the end of a track, of a pipe). A source that cannot go on ends it with the
/// error that stopped it (`Failure`: a serial device unplugged); one that cannot fail has `Failure` `Never`. A
/// source that keeps a connection and makes a new one when it is lost never fails for it: it tells its connection's
/// ups and downs separately (`ReconnectingObservationSource`). When the consumer stops iterating or its task is
/// cancelled, the source stops reading.
public protocol ObservationSource: Sendable {
    /// The observations, in the order the input gave them.
    associatedtype Observations: AsyncSequence<Observation, Failure>
    /// What ends the observations early; `Never` when nothing can.
    associatedtype Failure: Error

    /// The source's observations. A source read from the start (a file, a device) begins anew at each call; a live
    /// source that runs on its own (gpsd) has one stream for its lifetime, for one consumer.
    func observationStream() -> Observations
}

/// An observation source that holds a connection to its input and reconnects by itself when it fails: gpsd, which
/// may be absent, restart or go silent. Its observations pause while it reconnects and end only when it stops.
public protocol ReconnectingObservationSource: ObservationSource {
    /// Why a connection failed or ended.
    associatedtype ConnectionFailure: Error & Hashable

    /// Every change of the connection's state, in order, ending with `.stopped`, for logging and health checks.
    var connectionStates: AsyncStream<ConnectionState<ConnectionFailure>> { get }
}
