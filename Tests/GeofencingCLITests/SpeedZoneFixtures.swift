import Foundation
import Geofencing
import GeofencingWriters

/// A drive through a speed zone for the CLI tests of the speed-limit rule: fixes at 1 Hz with the receiver's speed
/// in whole knots (exact in RMC's 3 decimals), so every overspeed figure is known to the second.
///
/// Zone "school": a 2 km circle around 2,500 m east of (-27.5, 153.0), limit 40 km/h (default +5 km/h for 5 s).
/// The drive starts 1,000 m east, inside, at 2026-03-01T21:30:00Z (Monday 07:30 in Australia/Brisbane):
/// - t = 0 ... 9 s: 36 km/h (under the limit);
/// - t = 10 ... 12: 40 kn (74.08 km/h, the episode's maximum), then 30 kn (55.56 km/h) to t = 49: above limit +
///   tolerance from t = 10, so `overspeed` at t = 15 (over 5 s, max 74.1 km/h);
/// - t = 50 ... 79: 36 km/h: under the limit from t = 50, so `overspeed_end` at t = 55, over the limit 40 s.
/// It stays inside to the end (at most 1,800 m driven).
enum SpeedZoneFixtures {
    static let start = Date(timeIntervalSince1970: 1_772_400_600)  // 2026-03-01T21:30:00Z
    static let count = 80
    static let knot = 1852.0 / 3600

    static func speed(at second: Int) -> Double {
        switch second {
        case 10...12: 40 * knot
        case 13...49: 30 * knot
        default: 10
        }
    }

    /// The fixes of seconds `range` (positions follow the speeds from the start), the drive starting at `start`.
    static func fixes(_ range: Range<Int>, start: Date = SpeedZoneFixtures.start) -> [Fix] {
        var east = 1_000.0
        var fixes: [Fix] = []
        for second in 0..<count {
            if range.contains(second) {
                fixes.append(Fix(coordinate: DaemonFixtures.east(east), timestamp: start + Double(second),
                                 horizontalAccuracy: 3, speed: speed(at: second), course: 90))
            }
            east += speed(at: second)
        }
        return fixes
    }

    /// The NMEA sentences of seconds `range`, CRLF-terminated.
    static func nmea(_ range: Range<Int>, start: Date = SpeedZoneFixtures.start) -> String {
        fixes(range, start: start).map { NMEAWriter().sentences(for: .fix($0)).map { $0 + "\r\n" }.joined() }.joined()
    }

    /// A GeoJSON fence file with the zone, its `schedule` property when given.
    static func fenceFile(schedule: String? = nil) -> String {
        let centre = DaemonFixtures.east(2_500)
        let scheduleProperty = schedule.map { ",\"schedule\":\"\($0)\"" } ?? ""
        return """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"school",
            "geometry":{"type":"Point","coordinates":[\(centre.longitude),\(centre.latitude)]},
            "properties":{"radius_m":2000,"speed_limit_kmh":40\(scheduleProperty)}}]}
            """
    }

    /// The JSON objects of `--format jsonl` output lines whose type is overspeed or overspeed_end.
    static func overspeedLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let type = object?["type"] as? String
            return type == "overspeed" || type == "overspeed_end" ? object : nil
        }
    }
}
