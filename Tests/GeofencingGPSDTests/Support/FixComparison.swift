import Foundation
import Geofencing

/// gpsd's fixes of a log beside our NMEA reader's, epoch by epoch (by GNSS time).
struct FixComparison {
    /// 1024 GPS weeks. gpsd 3.22 moves dates older than its build by this much (its GPS week-rollover guard), so it
    /// dates the 2008 Brisbane log 2027: same time of week, 7168 days later.
    static let gpsWeekRollover: TimeInterval = 1024 * 7 * 86_400

    /// gpsd's time minus the reader's for the same epoch: 0 or a multiple of 1024 weeks.
    var offset: TimeInterval = 0
    /// Epochs both report, gpsd's last report for the epoch first.
    var matched: [(gpsd: Fix, reader: Fix)] = []
    /// gpsd fixes at a time the reader has no fix for.
    var extra: [Fix] = []
    /// Reader fixes gpsd did not report.
    var missing: [Fix] = []
    /// gpsd fixes with the same time as an earlier gpsd fix (the later one is compared).
    var repeatedTimes = 0
    /// Differences in an epoch both report: position (1e-7°), speed, course, altitude and horizontal accuracy
    /// (1e-3; gpsd's JSON keeps 3 or 4 decimals).
    var mismatches: [String] = []
    /// Largest |gpsd − reader| of the horizontal accuracy, where both have one.
    var accuracyDifferences: [Double] = []

    init(gpsd: [Fix], reader: [Fix]) {
        offset = Self.offset(gpsd: gpsd, reader: reader)
        var readerByTime: [Date: Fix] = [:]
        for fix in reader { readerByTime[fix.timestamp] = fix }
        var gpsdByTime: [Date: Fix] = [:]
        var order: [Date] = []
        for fix in gpsd {
            let time = fix.timestamp.addingTimeInterval(-offset)
            if gpsdByTime.updateValue(fix, forKey: time) != nil { repeatedTimes += 1 } else { order.append(time) }
        }
        for time in order {
            let fix = gpsdByTime[time]!
            guard let readerFix = readerByTime[time] else {
                extra.append(fix)
                continue
            }
            matched.append((fix, readerFix))
            compare(fix, readerFix, at: time)
        }
        missing = reader.filter { gpsdByTime[$0.timestamp] == nil }
    }

    private mutating func compare(_ gpsd: Fix, _ reader: Fix, at time: Date) {
        let label = ISO8601DateFormatter().string(from: time)
        if abs(gpsd.coordinate.latitude - reader.coordinate.latitude) > 1e-7
            || abs(gpsd.coordinate.longitude - reader.coordinate.longitude) > 1e-7
        {
            mismatches.append("\(label): position gpsd \(gpsd.coordinate) reader \(reader.coordinate)")
        }
        for (name, a, b) in [
            ("speed", gpsd.speed, reader.speed), ("course", gpsd.course, reader.course),
            ("altitude", gpsd.altitude, reader.altitude),
            ("accuracy", gpsd.horizontalAccuracy, reader.horizontalAccuracy),
        ] {
            switch (a, b) {
            case (nil, nil): break
            case (let a?, let b?) where abs(a - b) <= 1e-3: break
            default:
                let text = { (value: Double?) in value.map { "\($0)" } ?? "nil" }
                mismatches.append("\(label): \(name) gpsd \(text(a)) reader \(text(b))")
            }
        }
        if let a = gpsd.horizontalAccuracy, let b = reader.horizontalAccuracy { accuracyDifferences.append(abs(a - b)) }
    }

    /// The offset that makes gpsd's first fix fall on a reader fix at the same position: 0 or k·1024 weeks.
    private static func offset(gpsd: [Fix], reader: [Fix]) -> TimeInterval {
        for fix in gpsd {
            for candidate in reader
            where abs(candidate.coordinate.latitude - fix.coordinate.latitude) <= 1e-7
                && abs(candidate.coordinate.longitude - fix.coordinate.longitude) <= 1e-7
            {
                let difference = fix.timestamp.timeIntervalSince(candidate.timestamp)
                let weeks = (difference / gpsWeekRollover).rounded()
                if abs(difference - weeks * gpsWeekRollover) < 0.001 { return weeks * gpsWeekRollover }
            }
        }
        return 0
    }

    var summary: String {
        let times = { (fixes: [Fix]) in
            fixes.map { ISO8601DateFormatter().string(from: $0.timestamp) }.joined(separator: ", ")
        }
        return "offset \(offset / 86_400) days, matched \(matched.count), repeated \(repeatedTimes), "
            + "extra [\(times(extra))], missing [\(times(missing))], mismatches \(mismatches.count), "
            + "accuracy |gpsd - reader| max \(accuracyDifferences.max() ?? 0) m"
    }
}
