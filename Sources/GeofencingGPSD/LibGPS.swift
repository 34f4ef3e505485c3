#if GPSD
import CGPS
import Foundation

/// The boundary to libgps. Every C call the reader makes goes through `call`, so failures become a `GPSDError` in
/// one place, and debug builds can make any call fail there (`LibGPSFaultHook`).
struct LibGPS: Sendable {
    #if DEBUG
    let faultHook: LibGPSFaultHook?
    #endif

    /// Calls `body`, a C call that returns a negative value on failure and leaves the reason in errno, and maps a
    /// failure to `GPSDError`. errno is cleared first, so a call that fails without setting it gives code 0; for
    /// `gps_read` that is the end of the connection (libgps returns -1 with errno 0 when recv reads end-of-file).
    ///
    /// - Parameters:
    ///   - function: which C function `body` calls; names the error.
    ///   - body: the call.
    /// - Returns: the call's non-negative result, or the failure.
    func call(_ function: LibGPSFunction, _ body: () -> Int32) -> Result<Int32, GPSDError> {
        #if DEBUG
        if let code = faultHook?(function) {
            if function == .close { _ = body() }  // never leak the descriptor, even when a failure is simulated
            return .failure(Self.error(function, code: code))
        }
        #endif
        errno = 0
        let result = body()
        guard result < 0 else { return .success(result) }
        return .failure(Self.error(function, code: errno))
    }

    static func error(_ function: LibGPSFunction, code: Int32) -> GPSDError {
        if function == .read && code == 0 { return .connectionClosed }
        return .callFailed(function: function.rawValue, code: code, message: message(for: code))
    }

    /// libgps's text for its negative codes (`gps_errstr`), the system's for errno values.
    static func message(for code: Int32) -> String {
        if code < 0 { return String(cString: gps_errstr(code)) }
        if code > 0 { return String(cString: strerror(code)) }
        return "failed without a reason"
    }
}

extension TPVReport {
    /// The report libgps unpacked into `fix`.
    init(_ fix: gps_fix_t) {
        self.init(
            mode: fix.mode, seconds: Int(fix.time.tv_sec), nanoseconds: Int(fix.time.tv_nsec),
            latitude: fix.latitude, longitude: fix.longitude, eph: fix.eph, epx: fix.epx, epy: fix.epy,
            speed: fix.speed, track: fix.track, altitudeMSL: fix.altMSL)
    }
}

extension GSTReport {
    /// The report libgps unpacked into `gst`.
    init(_ gst: gst_t) {
        self.init(
            seconds: Int(gst.utctime.tv_sec), nanoseconds: Int(gst.utctime.tv_nsec),
            latitudeSigma: gst.lat_err_deviation, longitudeSigma: gst.lon_err_deviation)
    }
}
#endif
