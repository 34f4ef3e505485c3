import Geofencing

/// Where a `GPSDSource` stands with gpsd, for logging and health checks: `connecting(attempt:)` counts attempts that
/// fail without a word from gpsd; `waitingToReconnect` says why the connection failed or ended; `stopped` follows
/// `stop()` or the end of the observations' consumer, once the socket is closed and the reader thread has ended.
public typealias GPSDConnectionState = ConnectionState<GPSDError>

/// Counters of a `GPSDSource` since it started.
public struct GPSDStatistics: Sendable, Hashable {
    /// Connections opened and watching.
    public var connections = 0
    /// Connection attempts or connections that failed (each followed by a wait).
    public var failures = 0
    /// TPV (time-position-velocity) reports read.
    public var reports = 0
    /// Reports passed on as `.fix`.
    public var fixes = 0
    /// Reports passed on as `.noFix`.
    public var noFixes = 0
    /// Reports dropped for lack of a usable GNSS time: gpsd cannot date a GGA sentence before an RMC (or ZDA) has
    /// given it the date, so the first positions of a log or of a cold receiver come without one; a time libgps
    /// cannot parse (it makes it a date in 1899) or any before the GPS epoch, 1980-01-06, counts here too.
    public var untimedReports = 0
    /// Reports dropped because their position was out of range or their mode is not one gpsd defines (0 ... 3).
    public var invalidReports = 0
    /// Observations dropped because the consumer fell `bufferLimit` behind.
    public var droppedObservations = 0

    public init() {}
}
