/// Why gpsd could not be used: the source was built without gpsd support, a libgps call failed, or the connection
/// ended. The reader never throws these at its caller; it reports them in `GPSDConnectionState.waitingToReconnect`
/// and tries again. Only `GPSDSource.start()` throws: `disabled`, or `callFailed` for `pipe` when the process is out
/// of descriptors.
public enum GPSDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The package was built without its `GPSD` trait (`--disable-default-traits`), so there is no libgps to call.
    case disabled

    /// A libgps call (or the system call beside it) failed.
    ///
    /// - `function`: the C function, e.g. `gps_open`.
    /// - `code`: negative for libgps's own connection errors (as `gps_open` leaves them in errno: -2 no such host,
    ///   -6 nothing listening, ...), positive for an errno value, 0 when the call failed without saying why.
    /// - `message`: `gps_errstr` or `strerror` of the code.
    case callFailed(function: String, code: Int32, message: String)

    /// gpsd closed the connection (gpsd stopped, restarted or crashed).
    case connectionClosed

    /// gpsd sent a line longer than libgps's buffer: libgps cannot read past it, so the connection is given up. Not
    /// a sign of a healthy gpsd: the wait before the next attempt grows as after a refused connection.
    case oversizedMessage

    /// Nothing arrived from gpsd for this long (`GPSDConfiguration.stallTimeout`): a hung gpsd, a half-open TCP
    /// connection, or a receiver that was unplugged.
    case stalled(after: Duration)

    public var description: String {
        switch self {
        case .disabled:
            "gpsd support is disabled: GeofencingGPSD was built without its GPSD trait (libgps); rebuild with the "
                + "default traits (or --traits GPSD) and libgps-dev installed"
        case .callFailed(let function, let code, let message):
            "\(function) failed: \(message) (\(code))"
        case .connectionClosed:
            "gpsd closed the connection"
        case .oversizedMessage:
            "gpsd sent a line longer than libgps's buffer"
        case .stalled(let after):
            "no data from gpsd for \(after)"
        }
    }
}
