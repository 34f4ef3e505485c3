// Test support: compares our NMEA reader's observations of a log with gpsd's reports for it (`gpsdecode -j`) and
// sorts every difference into a category that explains it.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingInputs

/// Why our reader and gpsd differ on an epoch: a short label for the table and the explanation, each category
/// checked against the log by `GPSDecodeComparison`. `unexplained` must never occur.
enum GPSDecodeDifference: String, CaseIterable, Sendable {
    case beforeGPSDStarted = "before gpsd started"
    case notReportedByGPSD = "no gpsd report"
    case reportedWithoutTime = "gpsd: no time"
    case gpsdDayRollover = "gpsd: +1 day"
    case reportWithoutData = "gpsdecode: report without data"
    case unexplained = "UNEXPLAINED"

    var explanation: String {
        switch self {
        case .beforeGPSDStarted:
            "gpsd starts reporting with a time only once it knows the year (gpsd 3.22 takes it from ZDA or from an RMC "
                + "with status A, never from an RMC with status V) and, unlike the daemon, has seen the time change once; we "
                + "date these epochs from their RMC (the daemon reports them: it reports every position until it "
                + "knows a cycle ender). Checked: the epoch comes before, in the "
                + "log, the epoch of gpsd's first timed report."
        case .notReportedByGPSD:
            "gpsdecode prints a TPV only at a cycle end, on a sentence whose type gpsd has learnt ends a cycle "
                + "(NMEACycleEnd), and this epoch has none among the lines gpsd reads: its last sentence is a last "
                + "line without a line end, which gpsd drops (nmealog.txt), or the daemon reported it before it knew "
                + "any ender, as it reports every position then, which gpsdecode does not. Checked by replaying that "
                + "rule on the lines gpsd reads (NMEALogScan)."
        case .reportedWithoutTime:
            "gpsd reported the epoch in a TPV without a time because it had no year yet: gpsd 3.22 takes it only "
                + "from ZDA or an RMC with status A (haicom-305N.log starts with RMC status V), and plaka.log has no "
                + "date at all (we use the reference date 1970-01-01). Checked: an untimed TPV with the same mode "
                + "and position follows, in order."
        case .gpsdDayRollover:
            "gpsd 3.22 advances the day whenever a sentence's hour is smaller than the previous one (merge_hhmmss), "
                + "even when a log steps back by minutes (bt451.log jumps from 15:25 to 14:33): it dates a GGA the "
                + "next day until the next RMC. We roll over only after a step back of more than 12 hours. Checked: "
                + "gpsd's time is ours plus one day and the fixes agree."
        case .reportWithoutData:
            "gpsdecode prints a TPV at every cycle end, the daemon sends one only from a sentence that gave it data, "
                + "and the reader gives what the daemon gets (NMEACycleEnd). bundg_zeus_9.log has GGAs followed by "
                + "nothing but a GLC before the next time: gpsdecode's last TPV has the GGA's position, the daemon's "
                + "that of an earlier sentence. Checked: gpsdecode's position is the epoch's last one up to its last "
                + "cycle end (NMEALogScan)."
        case .unexplained:
            "not explained by any of the above: a bug in our reader or in this comparison."
        }
    }
}

struct GPSDecodeComparison: Sendable {
    var log: String
    var gpsdTPVs = 0
    /// gpsd's epochs with a fix: distinct times with mode ≥ 2, plus runs of untimed fix TPVs at one position.
    var gpsdFixes = 0
    /// Distinct times with mode ≤ 1, plus runs of untimed mode-1 TPVs.
    var gpsdNoFixes = 0
    var ourFixes = 0
    var ourNoFixes = 0
    /// Epochs on which both agree (time, mode, position to 1e-7°).
    var matched = 0
    /// Our times before 2017 that gpsd moved forward by 1024 weeks (see `gpsdTime(forOurs:)`).
    var weekRolloverShifted = 0
    var differences: [GPSDecodeDifference: Int] = [:]
    var unexplainedExamples: [String] = []
    /// Agreeing epochs whose gpsd `eph` our HDOP rule reproduces (to gpsd's printed millimetre), and those where it
    /// does not (with the first few as examples). An epoch with a GST has its accuracy from GST in both paths; the
    /// HDOP rule is checked on a reading of the log without its GST sentences (`hdopObservations`).
    var ephAgreeing = 0
    var ephDiffering = 0
    var ephExamples: [String] = []
    /// Agreeing fix epochs whose course and speed are gpsd's (to its printed 1e-4° and mm/s; none where gpsd has
    /// none), and those where either is not, with the first few as examples.
    var motionAgreeing = 0
    var motionDiffering = 0
    var motionExamples: [String] = []

    static let tolerance = 1e-7

    /// gpsd 3.22's gpsd_utc_resolve() adds 1024 GPS weeks (619 315 200 s) to every NMEA date before 2017-01-01,
    /// because its built-in leap-second count (18, valid from 2017) says such a date must come from a receiver
    /// that lost a GPS week rollover. Recorded logs are older than that, so gpsd dates 2008 as 2027. Our reader
    /// keeps the date the log says; the comparison moves our times the same way.
    static func gpsdTime(forOurs time: Date) -> Date {
        time.timeIntervalSince1970 < 1_483_228_800 ? time.addingTimeInterval(619_315_200) : time
    }

    init(
        log: String, observations: [Observation], hdopObservations: [Observation] = [], tpvs: [GPSDecodeTPV],
        epochs: [ScannedEpoch]
    ) {
        self.log = log
        gpsdTPVs = tpvs.count
        ourFixes = observations.filter { $0.fix != nil }.count
        ourNoFixes = observations.count - ourFixes

        var gpsdByTime: [Int64: GPSDecodeTPV] = [:]          // the last TPV of each time: gpsd's final merge
        var untimed: [GPSDecodeTPV] = []
        for tpv in tpvs {
            if let text = tpv.time, let time = ISO8601Time.parse(text) {
                gpsdByTime[Self.key(time)] = tpv
            } else {
                untimed.append(tpv)
            }
        }
        countGPSDEpochs(timed: gpsdByTime.values, untimed: untimed)

        let firstTimedKey = tpvs.lazy.compactMap { $0.time.flatMap(ISO8601Time.parse).map(Self.key) }.first
        var oursByTime: [Int64: Observation] = [:]
        for observation in observations {
            let time = Self.gpsdTime(forOurs: observation.time)
            if time != observation.time { weekRolloverShifted += 1 }
            oursByTime[Self.key(time)] = observation
        }
        var hdopAccuracyByTime: [Int64: Double?] = [:]
        for observation in hdopObservations {
            hdopAccuracyByTime[Self.key(Self.gpsdTime(forOurs: observation.time))] = observation.fix?.horizontalAccuracy
        }
        let epochByTimeOfDay = Dictionary(epochs.map { ($0.timeOfDay, $0) }, uniquingKeysWith: { first, _ in first })

        var matchedOurs: Set<Int64> = []
        for (key, tpv) in gpsdByTime.sorted(by: { $0.key < $1.key }) {
            if let ours = oursByTime[key] {
                matchedOurs.insert(key)
                if Self.agree(ours, tpv) {
                    matched += 1
                    if tpv.mode >= 2, let ours = hdopAccuracyByTime[key] { compareEPH(tpv, ours) }
                    if tpv.mode >= 2, let fix = ours.fix { compareMotion(tpv, fix) }
                } else if ours.fix != nil, tpv.mode >= 2,
                          let epoch = epochByTimeOfDay[Self.timeOfDay(key)],
                          let position = epoch.positionAtLastCycleEnd, Self.samePosition(position, tpv) {
                    differences[.reportWithoutData, default: 0] += 1
                } else {
                    note(.unexplained, "\(tpv.time ?? "?"): gpsd mode \(tpv.mode) \(tpv.lat ?? .nan),\(tpv.lon ?? .nan), ours \(ours)")
                }
            } else if let ours = oursByTime[key - 86_400_000], Self.agree(ours, tpv) {
                matchedOurs.insert(key - 86_400_000)
                differences[.gpsdDayRollover, default: 0] += 1
            } else {
                note(.unexplained, "\(tpv.time ?? "?"): gpsd mode \(tpv.mode) only in gpsd")
            }
        }

        let reported = Dictionary(epochs.map { ($0.timeOfDay, $0.endsCycle) }, uniquingKeysWith: { $0 && $1 })
        var untimedIndex = untimed.startIndex
        var gpsdStarted = false
        for observation in observations {
            let key = Self.key(Self.gpsdTime(forOurs: observation.time))
            gpsdStarted = gpsdStarted || key == firstTimedKey
            guard !matchedOurs.contains(key) else { continue }
            // A window, not the rest of the log: an unmatched epoch must not cost a scan of 100 000 reports.
            let window = untimed[untimedIndex..<min(untimed.endIndex, untimedIndex + 1000)]
            if let found = window.firstIndex(where: { Self.agree(observation, $0) }) {
                untimedIndex = found + 1
                differences[.reportedWithoutTime, default: 0] += 1
            } else if !gpsdStarted {
                differences[.beforeGPSDStarted, default: 0] += 1
            } else if reported[Self.timeOfDay(key)] == false {
                differences[.notReportedByGPSD, default: 0] += 1
            } else {
                note(.unexplained, "\(observation): only ours")
            }
        }
    }

    var unexplained: Int { differences[.unexplained] ?? 0 }

    /// gpsd prints `eph` with three decimals: ours agrees when it rounds to the same millimetre.
    private mutating func compareEPH(_ tpv: GPSDecodeTPV, _ ours: Double?) {
        switch (tpv.eph, ours) {
        case (nil, nil): ephAgreeing += 1
        case (let gpsd?, let ours?) where abs(gpsd - ours) <= 0.000_5 + 1e-9: ephAgreeing += 1
        default:
            ephDiffering += 1
            if ephExamples.count < 5 {
                ephExamples.append("\(tpv.time ?? "?"): gpsd eph \(tpv.eph.map { "\($0)" } ?? "none"), "
                    + "ours \(ours.map { "\($0)" } ?? "none")")
            }
        }
    }

    /// Course to gpsd's printed 1e-4° and speed to its millimetre per second, both as libgps reads them back.
    private mutating func compareMotion(_ tpv: GPSDecodeTPV, _ fix: Fix) {
        func same(_ gpsd: Double?, _ ours: Double?, within tolerance: Double) -> Bool {
            switch (gpsd, ours) {
            case (nil, nil): true
            case (let gpsd?, let ours?): abs(gpsd - ours) <= tolerance
            default: false
            }
        }
        if same(tpv.track, fix.course, within: 0.000_05 + 1e-9) && same(tpv.speed, fix.speed, within: 0.000_5 + 1e-9) {
            motionAgreeing += 1
            return
        }
        motionDiffering += 1
        if motionExamples.count < 5 {
            motionExamples.append("\(tpv.time ?? "?"): gpsd track \(tpv.track.map { "\($0)" } ?? "none") speed "
                + "\(tpv.speed.map { "\($0)" } ?? "none"), ours \(fix.course.map { "\($0)" } ?? "none") "
                + "\(fix.speed.map { "\($0)" } ?? "none")")
        }
    }

    private mutating func note(_ difference: GPSDecodeDifference, _ example: String) {
        differences[difference, default: 0] += 1
        if unexplainedExamples.count < 5 { unexplainedExamples.append(example) }
    }

    private mutating func countGPSDEpochs(timed: some Sequence<GPSDecodeTPV>, untimed: [GPSDecodeTPV]) {
        for tpv in timed {
            if tpv.mode >= 2 { gpsdFixes += 1 } else { gpsdNoFixes += 1 }
        }
        var previous: GPSDecodeTPV?
        for tpv in untimed {
            defer { previous = tpv }
            if let previous, (previous.mode >= 2) == (tpv.mode >= 2), previous.lat == tpv.lat, previous.lon == tpv.lon {
                continue
            }
            if tpv.mode >= 2 { gpsdFixes += 1 } else { gpsdNoFixes += 1 }
        }
    }

    /// Same mode (fix or not) and, for a fix, the same position to 1e-7°.
    static func agree(_ observation: Observation, _ tpv: GPSDecodeTPV) -> Bool {
        switch observation {
        case .fix(let fix): tpv.mode >= 2 && samePosition(fix.coordinate, tpv)
        case .noFix: tpv.mode <= 1
        }
    }

    static func samePosition(_ coordinate: Coordinate, _ tpv: GPSDecodeTPV) -> Bool {
        guard let lat = tpv.lat, let lon = tpv.lon else { return false }
        // gpsd prints 9 decimals; 1e-7° plus half the printed step covers both roundings.
        return abs(coordinate.latitude - lat) <= tolerance + 5e-10 && abs(coordinate.longitude - lon) <= tolerance + 5e-10
    }

    /// Milliseconds since 1970: gpsd prints times to the millisecond.
    static func key(_ time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 * 1000).rounded())
    }

    static func timeOfDay(_ key: Int64) -> Int64 {
        (key % 86_400_000 + 86_400_000) % 86_400_000 * 1_000_000
    }
}
