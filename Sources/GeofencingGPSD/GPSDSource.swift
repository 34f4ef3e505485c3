import Foundation
import Geofencing

/// Fixes from a GNSS receiver behind gpsd, read through libgps: the input of a vehicle unit.
///
/// ```swift
/// let gps = GPSDSource()                                  // localhost:2947
/// try gps.start()
/// for await observation in gps.observations {             // .fix or .noFix, in GNSS time
///     monitor.process(observation)
/// }
/// ```
///
/// The source connects to gpsd, asks for JSON reports (`gps_stream(WATCH_ENABLE | WATCH_JSON)`) and turns each
/// epoch's TPV report into an `Observation`: mode 2 or 3 with a position is a `.fix` (GNSS time, latitude,
/// longitude, speed, track, altitude above mean sea level; what gpsd leaves out stays nil, never 0; accuracy by the
/// model of `HorizontalAccuracyEstimate`: the epoch's GST report, else `eph`, else `epx`/`epy`, as the NMEA reader
/// computes it from the same receiver output); mode 0 or 1 is a `.noFix` at the report's time, so the monitor can
/// tell an outage. One observation per epoch, passed on when the next epoch begins (`TPVEpochAssembler`: the
/// epoch's GST can follow its TPV), so observations lag by one epoch. Reports without a usable
/// GNSS time (none, one libgps could not parse, any before the GPS epoch 1980-01-06) are counted
/// (`GPSDStatistics.untimedReports`) and not passed on; so are reports with a mode outside 0 ... 3
/// (`invalidReports`).
///
/// libgps blocks, so the source reads on a thread of its own and never blocks its caller. It survives the real
/// world: gpsd not running yet, gpsd stopped, restarted or crashed, a connection on which nothing arrives for
/// `stallTimeout` (a hung gpsd, an unplugged receiver, a half-open TCP connection) — each ends the connection,
/// and the source reconnects after a wait that grows exponentially up to `ReconnectBackoff.maximum`.
/// `connectionStates` tells what happens, for logging.
///
/// As a `ReconnectingObservationSource`, its `observationStream()` is `observations`, which flows once `start()` was
/// called and never fails: whatever goes wrong with gpsd is a connection state.
///
/// Lifetime: the source runs from `start()` until `stop()`, or until the task consuming `observations` is cancelled.
/// Then the thread closes gpsd's socket, publishes `.stopped`, ends both streams and exits, within a few
/// milliseconds, except while `gps_open` resolves a host name or waits on a TCP connect to an unreachable remote
/// host (libgps has no timeout there; the thread exits when the system call returns, and `stop()` does not wait).
/// `waitUntilStopped()` returns once the thread is done.
///
/// Built without the package's `GPSD` trait (`swift build --disable-default-traits`), the type still exists but
/// `start()` throws `GPSDError.disabled`.
public final class GPSDSource: Sendable {
    /// Where gpsd is and how the source retries.
    public let configuration: GPSDConfiguration
    /// The observations, in the order gpsd reported them. One consumer; cancelling its task stops the source. Ends
    /// when the source stops. Holds up to `bufferLimit` observations for a slow consumer, then drops the oldest.
    public let observations: AsyncStream<Observation>
    /// Every change of `state`, in order, ending with `.stopped`. One consumer; keeps the latest 64 if nobody reads.
    public let connectionStates: AsyncStream<GPSDConnectionState>

    let core: ReaderCore

    /// Whether this build can talk to gpsd (it was built with the `GPSD` trait, hence with libgps).
    public static var isAvailable: Bool {
        #if GPSD
        true
        #else
        false
        #endif
    }

    /// A source for gpsd as `configuration` says; nothing happens until `start()`.
    public init(configuration: GPSDConfiguration = GPSDConfiguration()) {
        self.configuration = configuration
        let (observations, observationSink) = AsyncStream.makeStream(
            of: Observation.self, bufferingPolicy: .bufferingNewest(max(1, configuration.bufferLimit)))
        let (states, stateSink) = AsyncStream.makeStream(
            of: GPSDConnectionState.self, bufferingPolicy: .bufferingNewest(64))
        let core = ReaderCore(configuration: configuration, observationSink: observationSink, stateSink: stateSink)
        observationSink.onTermination = { [weak core] _ in core?.requestStop() }
        self.observations = observations
        self.connectionStates = states
        self.core = core
    }

    /// A source for gpsd at `host`:`port`, with the default retry settings.
    public convenience init(host: String, port: UInt16 = 2947) {
        self.init(configuration: GPSDConfiguration(host: host, port: port))
    }

    /// Starts the reader thread, which connects and keeps reconnecting until `stop()`. Returns at once; calling it
    /// again, or after `stop()`, does nothing.
    ///
    /// - Throws: `GPSDError.disabled` when built without the `GPSD` trait; `.callFailed` if the process is out of
    ///   descriptors for the thread's wake-up pipe. Never for gpsd being absent: that is retried.
    public func start() throws(GPSDError) {
        #if GPSD
        guard try core.beginRunning() else { return }
        let core = self.core
        let thread = Thread { GPSDReader(core: core).run() }
        thread.name = "GPSDSource \(configuration.host):\(configuration.port)"
        thread.start()
        #else
        throw GPSDError.disabled
        #endif
    }

    /// Stops the source: the reader thread leaves whatever it waits on, closes the connection and ends both
    /// streams. Returns at once without waiting for the thread (see `waitUntilStopped()`); safe to call from any
    /// thread, any number of times.
    public func stop() {
        core.requestStop()
    }

    /// Returns when the source has stopped: its socket is closed and its thread has finished (or was never started
    /// and `stop()` was called).
    public func waitUntilStopped() async {
        await core.waitUntilFinished()
    }

    /// The current connection state.
    public var state: GPSDConnectionState {
        core.shared.withLock { $0.state }
    }

    /// The counters since `start()`.
    public var statistics: GPSDStatistics {
        core.shared.withLock { $0.statistics }
    }

    #if DEBUG
    /// Debug builds only, for tests: makes libgps calls fail. Set before `start()`; see `LibGPSFaultHook`.
    var faultHook: LibGPSFaultHook? {
        get { core.faultHook }
        set { core.faultHook = newValue }
    }
    #endif
}

extension GPSDSource: ReconnectingObservationSource {
    /// `observations`: the one stream of the source, flowing once `start()` was called.
    public func observationStream() -> AsyncStream<Observation> {
        observations
    }
}
