import Foundation
import Geofencing

/// The speed gpsd 3.22 reports for a fix whose sentences gave none: the distance from the previous fix over the
/// time between them, as its error model computes it before each report.
///
/// Some receivers send no speed at all (GGA and GST only), and some epochs are reported before the sentence with the
/// speed arrives (an instrument bus whose RMC comes after gpsd's last report of the second). gpsd then fills the
/// TPV's `speed` from the previous fix: the geodesic distance (Vincenty, WGS-84) between the two positions over the
/// difference of their times, when both are fixes (mode 2D or better) and the time went forward; above 9,999.9 m/s
/// it gives none. The previous fix is gpsd's state at the end of the previous dated epoch: everything its sentences
/// said, also those after its last report. The reader derives the same speed, so a replay and the daemon see the same
/// speeds (speed limits inside zones use them).
///
/// gpsd derives no course from positions; it takes a compass heading (HDG) as the course of a fix without one,
/// which `NMEAEpoch` reproduces.
struct NMEADerivedSpeed {
    /// The last dated epoch's fix as gpsd holds it: its time and final position; nil when that epoch had no fix or
    /// gpsd could not time it.
    private var previous: (time: Date, coordinate: Coordinate)?

    /// The speed gpsd derives for a fix at `coordinate` and `time` that has none of its own, in m/s as its TPV
    /// prints it; nil when gpsd derives none.
    func speed(at coordinate: Coordinate, time: Date) -> Double? {
        guard let previous else { return nil }
        let interval = time.timeIntervalSince(previous.time)
        guard interval > 0, let line = VincentyGeodesic.inverse(from: previous.coordinate, to: coordinate) else {
            return nil
        }
        let speed = line.distance / interval
        guard speed <= 9_999.9 else { return nil }
        return NMEASentence.speedAsGPSDReportsIt(speed)
    }

    /// A dated epoch has ended: its final position (nil when it ended without a fix) is the previous fix for the next.
    mutating func epochEnded(at time: Date, finalCoordinate: Coordinate?) {
        previous = finalCoordinate.map { (time, $0) }
    }

    /// gpsd cannot time what follows (epochs dated only by the reader's reference date): it derives nothing from it.
    mutating func forget() {
        previous = nil
    }
}
