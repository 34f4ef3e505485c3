import Foundation
import Geofencing

/// The sentences of one epoch (one time of day) merged: what becomes one `Observation`.
///
/// Receivers send several sentences per epoch (RMC, GGA, GLL, GST, VTG, ...), each with part of the picture. The
/// epoch is a fix when any sentence reports a valid position, even if another says there is none (receivers differ
/// in which sentences they update first). Position, speed, course and altitude come from the last sentence that has
/// them, as gpsd merges them: the sentences of a receiver agree, and when they do not, as on an instrument bus whose
/// multiplexer relays sentences from different moments under the same time (the 2016 Markermeer log), no sentence
/// type is reliably the right one, and the latest is the freshest. A fix without a course gets the one gpsd makes
/// from a compass heading (HDG) and the magnetic variation. Accuracy follows the model of
/// `HorizontalAccuracyEstimate`: GST when the epoch has one, else gpsd's `eph`, fixed at the epoch's first sentence
/// with a valid position from the HDOP in force then.
///
/// The observation is the merge up to the epoch's last sentence on which gpsd sends a report (`NMEACycleEnd`), the
/// state the daemon gets from gpsd for that time; sentences after it are merged by gpsd but never reported.
struct NMEAEpoch {
    let timeOfDay: Int64
    private(set) var date: NMEADate?
    /// Everything the epoch's sentences said so far.
    private var merged = Merge()
    /// `merged` as it was when gpsd last sent a report for the epoch (`markReported()`); nil while it sent none.
    private var reported: Merge?

    init(timeOfDay: Int64) {
        self.timeOfDay = timeOfDay
    }

    /// Whether gpsd reported the epoch and that report said if there is a fix; an epoch that gpsd never reported
    /// with such a sentence, or of only GST, ZDA or VTG, yields no observation.
    var reportsFixStatus: Bool { reported?.reportsFixStatus ?? false }

    /// Whether any of the epoch's sentences said if there is a fix, reported by gpsd or not.
    var saysFixStatus: Bool { merged.reportsFixStatus }

    /// Adds one sentence; `hdopInForce` is the latest HDOP of any sentence so far, this one's included.
    mutating func merge(_ report: NMEAReport, hdopInForce: Double?) {
        date = report.date ?? date
        merged.add(report, hdopInForce: hdopInForce)
    }

    /// gpsd starts its cycle for this time of day within the epoch (a sentence registers the time after a ZDA of it
    /// began the epoch): gpsd clears its fix, so the motion that untimed sentences (VTG, HDG) gave in between is
    /// gone. The rest stays: those sentences give no position, and the date and a GST reach the daemon apart from
    /// the fix.
    mutating func gpsdStartsCycle() {
        merged.clearMotion()
    }

    /// gpsd sends a report (TPV) now: the observation is what the sentences merged so far say.
    mutating func markReported() {
        reported = merged
    }

    /// Where the epoch's sentences left the position, reported or not: gpsd's state when the next epoch begins.
    var finalCoordinate: Coordinate? { merged.coordinate }

    /// The observation at `time`: a fix with everything the sentences up to gpsd's last report gave (and the epoch's
    /// GST), or no fix. A fix whose sentences gave no speed gets the one gpsd derives (`NMEADerivedSpeed`).
    func observation(at time: Date, derivedSpeed: NMEADerivedSpeed) -> Observation {
        guard let reported, let coordinate = reported.coordinate else { return .noFix(time) }
        // A GST reaches the daemon as a report of its own, paired with the TPV of its time wherever it comes in the
        // epoch, so the whole epoch's GST counts.
        let accuracy = merged.measuredAccuracy ?? reported.hdopAccuracy
        return .fix(Fix(
            coordinate: coordinate, timestamp: time, horizontalAccuracy: accuracy,
            speed: reported.speed ?? derivedSpeed.speed(at: coordinate, time: time), course: reported.course, altitude: reported.altitude))
    }

    /// The merged content of some of the epoch's sentences.
    private struct Merge {
        var coordinate: Coordinate?
        var reportedNoFix = false
        var altitude: Double?
        var speed: Double?
        var course: Double?
        var magneticTrack: Double?
        var magneticVariation: Double?
        /// gpsd's `eph` for the epoch: set once, by its first sentence with a valid position once an HDOP is known.
        var hdopAccuracy: Double?
        var measuredAccuracy: Double?

        var reportsFixStatus: Bool { coordinate != nil || reportedNoFix }

        mutating func add(_ report: NMEAReport, hdopInForce: Double?) {
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
            magneticTrack = report.magneticTrack ?? magneticTrack
            magneticVariation = report.magneticVariation ?? magneticVariation
            measuredAccuracy = report.measuredAccuracy ?? measuredAccuracy
            completeCourseFromHeading()
        }

        mutating func clearMotion() {
            speed = nil
            course = nil
            magneticTrack = nil
            magneticVariation = nil
        }

        /// gpsd 3.22's error model, which runs after every sentence it merges: where the variation is unknown or at
        /// most 0.09°, it takes its grid's at the position (`MagneticVariation`); a fix with a compass heading and no
        /// course gets the heading minus the variation as its course, in 0..<360°. Both stay in gpsd's state for the
        /// rest of its cycle (a course until a sentence brings its own, the variation until an RMC or HDG gives
        /// one), so the grid is read at the cycle's first position.
        mutating func completeCourseFromHeading() {
            if let coordinate, abs(magneticVariation ?? 0) <= 0.09 {
                magneticVariation = MagneticVariation.degrees(at: coordinate)
            }
            guard course == nil, let magneticTrack, let magneticVariation else { return }
            var track = magneticTrack - magneticVariation
            if track < 0 { track += 360 } else if track >= 360 { track -= 360 }
            course = NMEASentence.courseAsGPSDReportsIt(track)
        }
    }
}
