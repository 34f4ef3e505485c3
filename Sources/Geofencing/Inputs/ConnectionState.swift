/// Where a reconnecting source stands with its input. The states follow each other in this order, the middle
/// three repeating for as long as the source runs:
/// `idle` → `connecting` → `connected` → `waitingToReconnect` → `connecting` → ... → `stopped`.
public enum ConnectionState<Failure: Error & Hashable>: Sendable, Hashable, CustomStringConvertible {
    /// Created, not started.
    case idle
    /// Opening the connection. `attempt` is 1 for the first attempt after the start or after a connection on
    /// which the input answered, then 2, 3, ... while attempts fail without a word from it.
    case connecting(attempt: Int)
    /// Connected: the input's reports flow.
    case connected
    /// The connection failed or ended for `reason`; the next attempt comes after `delay`.
    case waitingToReconnect(delay: Duration, reason: Failure)
    /// Stopped (asked to, or the observations' consumer went away); the connection is closed and the source reads
    /// no more. Final.
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
