import Foundation
import Geofencing

/// The sentences of one epoch (one time of day) merged: what becomes one `Observation`.
///
/// Receivers send several sentences per epoch (RMC, GGA, GLL, GST, VTG, ...), each with part of the picture. The
/// epoch is a fix when any sentence reports a valid position, even if another says there is none (receivers differ
/// in which sentences they update first). Position, speed, course and altitude come from the last sentence that has
/// them, as gpsd merges them: the sentences of a receiver agree, and when they do not, as on an instrument bus whose
/// multiplexer relays sentences from different moments under the same time (the 2016 Markermeer log), no sentence
/// type is reliably the right one, and the latest is the freshest. Accuracy follows the model of
/// `HorizontalAccuracyEstimate`: GST when the epoch has one, else gpsd's `eph`, fixed at the epoch's first sentence
/// with a valid position from the HDOP in force then.
struct NMEAEpoch {
    let timeOfDay: Int64
    private(set) var date: NMEADate?
    private(set) var coordinate: Coordinate?
    private(set) var reportedNoFix = false
    private var altitude: Double?
    private var speed: Double?
    private var course: Double?
    /// gpsd's `eph` for the epoch: set once, by its first sentence with a valid position once an HDOP is known.
    private var hdopAccuracy: Double?
    private var measuredAccuracy: Double?

    init(timeOfDay: Int64) {
        self.timeOfDay = timeOfDay
    }

    /// Whether any sentence said if there is a fix; an epoch of only GST, ZDA or VTG says nothing and yields no
    /// observation.
    var reportsFixStatus: Bool { coordinate != nil || reportedNoFix }

    /// Adds one sentence; `hdopInForce` is the latest HDOP of any sentence so far, this one's included.
    mutating func merge(_ report: NMEAReport, hdopInForce: Double?) {
        date = report.date ?? date
        switch report.position {
        case .valid(let position):
            coordinate = position
            if hdopAccuracy == nil, let hdopInForce {
                hdopAccuracy = HorizontalAccuracyEstimate.fromHDOP(hdopInForce, differential: report.differential)
            }
        case .invalid: reportedNoFix = true
        case nil: break
        }
        altitude = report.altitude ?? altitude
        speed = report.speed ?? speed
        course = report.course ?? course
        measuredAccuracy = report.measuredAccuracy ?? measuredAccuracy
    }

    /// The observation at `time`: a fix with everything the sentences gave, or no fix.
    func observation(at time: Date) -> Observation {
        guard let coordinate else { return .noFix(time) }
        let accuracy = measuredAccuracy ?? hdopAccuracy
        return .fix(Fix(
            coordinate: coordinate, timestamp: time, horizontalAccuracy: accuracy,
            speed: speed, course: course, altitude: altitude))
    }
}
