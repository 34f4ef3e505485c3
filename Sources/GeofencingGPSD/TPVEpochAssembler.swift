import Foundation

/// One gpsd GST report: the receiver's error statistics for the epoch at `seconds`.`nanoseconds` (NMEA GST,
/// passed through by gpsd unchanged). Kept apart from libgps so the pairing can be tested without gpsd.
struct GSTReport: Sendable, Hashable {
    /// GNSS time, as in `TPVReport`; 0 when gpsd had none.
    var seconds: Int
    var nanoseconds: Int
    /// Standard deviations of the latitude and longitude errors (m); NaN when not reported.
    var latitudeSigma: Double
    var longitudeSigma: Double
}

/// Turns gpsd's stream of TPV and GST reports into one report per epoch, so that `GPSDSource` gives the fixes the
/// NMEA reader gives for the same receiver output (the model of `HorizontalAccuracyEstimate`):
///
/// - gpsd sends several TPVs for one epoch while it learns the receiver's cycle (and after a step back in time):
///   each is a fuller merge of the epoch, so the last one stands for the epoch, as in `GPSDJSONReader`.
/// - The epoch's GST report carries the epoch's time and comes before its TPV or after it (after it when the
///   receiver sends RMC before GGA: gpsd then reports at GGA or GLL, before the GST). A GST is paired with the TPV
///   of the same time either way.
///
/// So a TPV is held until the epoch is over: until a TPV or a GST with another time arrives, or the connection
/// ends (`flush`). Live fixes therefore lag by one epoch, as `NMEAStream`'s do; a receiver that falls silent has
/// its last fix passed on when the connection ends (at the latest after the stall timeout). Reports without a
/// usable time are not held: they have no epoch.
struct TPVEpochAssembler: Sendable {
    private var pending: TPVReport?
    private var latestGST: GSTReport?

    /// Takes a TPV; returns the previous epoch's report when this one begins a new epoch.
    mutating func add(_ report: TPVReport) -> TPVReport? {
        var report = report
        if let latestGST, Self.sameTime(latestGST, report) { report.gst = latestGST }
        if let pending, Self.sameTime(pending, report) {
            self.pending = report
            return nil
        }
        defer { pending = report }
        return pending
    }

    /// Takes a GST; returns the held epoch's report when the GST belongs to a later epoch.
    mutating func add(_ gst: GSTReport) -> TPVReport? {
        latestGST = gst
        guard var held = pending else { return nil }
        if Self.sameTime(gst, held) {
            held.gst = gst
            pending = held
            return nil
        }
        pending = nil
        return held
    }

    /// Ends the stream (the connection closed): returns the held report, if any.
    mutating func flush() -> TPVReport? {
        defer { pending = nil }
        return pending
    }

    private static func sameTime(_ a: TPVReport, _ b: TPVReport) -> Bool {
        a.seconds == b.seconds && a.nanoseconds == b.nanoseconds
    }

    private static func sameTime(_ gst: GSTReport, _ report: TPVReport) -> Bool {
        gst.seconds == report.seconds && gst.nanoseconds == report.nanoseconds
    }
}
