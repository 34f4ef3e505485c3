/// Where a `GPSDSource` stands with gpsd, for logging and health checks. The states follow each other in this
/// order, the middle three repeating for as long as the source runs:
/// `idle` → `connecting` → `connected` → `waitingToReconnect` → `connecting` → ... → `stopped`.
public enum GPSDConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Created, not started.
    case idle
    /// Opening the connection. `attempt` is 1 for the first attempt after `start()` or after a connection on
    /// which gpsd answered, then 2, 3, ... while attempts fail without a word from gpsd.
    case connecting(attempt: Int)
    /// Connected and watching: gpsd's reports flow.
    case connected
    /// The connection failed or ended for `reason`; the next attempt comes after `delay`.
    case waitingToReconnect(delay: Duration, reason: GPSDError)
    /// Stopped (`stop()`, or the observation stream's consumer went away); the socket is closed and the reader
    /// thread has ended. Final.
    case stopped

    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting(let attempt): "connecting (attempt \(attempt))"
        case .connected: "connected"
        case .waitingToReconnect(let delay, let reason): "\(reason); reconnecting in \(delay)"
        case .stopped: "stopped"
        }
    }
}

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
