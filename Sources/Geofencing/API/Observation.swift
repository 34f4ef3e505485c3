import Foundation

/// What an input (gpsd, an NMEA or GPX log, the simulator) reports at one moment: a usable position or the fact that
/// the receiver had none. "No fix" matters: it carries GNSS time forward, so the monitor can notice an outage.
public enum Observation: Sendable, Hashable {
    /// A position (gpsd mode 2 or 3, an NMEA epoch with a valid position).
    case fix(Fix)
    /// The receiver reported at this GNSS time without a position (gpsd mode 0 or 1, NMEA status V).
    case noFix(Date)

    /// The GNSS time of the observation.
    public var time: Date {
        switch self {
        case .fix(let fix): fix.timestamp
        case .noFix(let time): time
        }
    }

    /// The fix, if this is one.
    public var fix: Fix? {
        if case .fix(let fix) = self { return fix }
        return nil
    }
}

extension RegionMonitor {
    /// Feeds one observation: `process(_:)` for a fix, `processNoFix(at:)` otherwise; returns what they return.
    @discardableResult
    public func process(_ observation: Observation) -> ObservationOutcome {
        switch observation {
        case .fix(let fix): process(fix)
        case .noFix(let time): processNoFix(at: time)
        }
    }
}
