import Foundation

/// Where gpsd is and how hard to try: the settings of a `GPSDSource`.
public struct GPSDConfiguration: Sendable, Hashable {
    /// The host gpsd listens on; a name or a numeric address. Default "localhost".
    public var host: String
    /// gpsd's TCP port. Default 2947 (IANA's, gpsd's default).
    public var port: UInt16
    /// How long to wait before each reconnection attempt.
    public var backoff: ReconnectBackoff
    /// How long gpsd may stay silent before the connection counts as stalled and is reopened. gpsd reports every
    /// receiver cycle (usually 1 s), so silence means a hung gpsd, a half-open TCP connection or an unplugged
    /// receiver. Default 10 s.
    public var stallTimeout: Duration
    /// How many observations wait for a slow consumer before the oldest are dropped (counted in
    /// `GPSDStatistics.droppedObservations`). Default 1024, about 17 minutes of 1 Hz fixes.
    public var bufferLimit: Int

    public init(
        host: String = "localhost", port: UInt16 = 2947, backoff: ReconnectBackoff = ReconnectBackoff(),
        stallTimeout: Duration = .seconds(10), bufferLimit: Int = 1024
    ) {
        self.host = host
        self.port = port
        self.backoff = backoff
        self.stallTimeout = stallTimeout
        self.bufferLimit = bufferLimit
    }
}

/// Exponential backoff between reconnection attempts: `initial`, then times `multiplier` after each failure, never
/// more than `maximum`. The count restarts whenever gpsd answered on the connection that ended, so a gpsd restart
/// costs one short wait, while a gpsd that stays away (or a port where nothing answers) is asked every `maximum`.
public struct ReconnectBackoff: Sendable, Hashable {
    /// The wait after the first failure. Default 0.25 s.
    public var initial: Duration
    /// The longest wait. Default 5 s: a failed connection attempt to a local gpsd costs next to nothing, and a
    /// longer wait is a longer time without fixes after gpsd comes back.
    public var maximum: Duration
    /// The growth per failure, at least 1. Default 2.
    public var multiplier: Double

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5), multiplier: Double = 2) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
    }

    /// The wait after `failures` consecutive failures (1 for the first): `min(maximum, initial · multiplierⁿ⁻¹)`.
    public func delay(afterFailures failures: Int) -> Duration {
        let initialSeconds = max(0, initial.seconds)
        let maximumSeconds = max(initialSeconds, maximum.seconds)
        let exponent = Double(max(0, failures - 1))
        let seconds = min(maximumSeconds, initialSeconds * pow(max(1, multiplier), exponent))
        return .milliseconds(Int64((seconds.isFinite ? seconds : maximumSeconds) * 1000))
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration as a poll(2) timeout: whole milliseconds, rounded up so a wait never ends early, within
    /// 0 ... Int32.max.
    var pollMilliseconds: Int32 {
        let milliseconds = (seconds * 1000).rounded(.up)
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return Int32(min(milliseconds, Double(Int32.max)))
    }
}
