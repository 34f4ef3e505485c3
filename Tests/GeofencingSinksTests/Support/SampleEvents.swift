import Foundation
import Geofencing
import GeofencingEvents

/// Events as the daemon would hand them to a sink, around the interface's example line
/// (`{"seq":17,"type":"enter","region":"stop-1234","time":"2008-03-03T22:25:13Z",...}`).
enum SampleEvents {
    /// 2008-03-03T22:25:13Z.
    static let time = Date(timeIntervalSince1970: 1_204_583_113)

    static func event(
        _ sequence: UInt64 = 17, kind: EventRecord.Kind = .enter, region: String = "stop-1234",
        distance: Double? = -3.2, state: RegionState = .inside, inferred: Bool = false, interpolated: Bool = false
    ) -> EventRecord {
        EventRecord(
            sequence: sequence, kind: kind, region: region, time: time.addingTimeInterval(Double(sequence) - 17),
            latitude: -27.5712345, longitude: 153.0912345, distance: distance, state: state, inferred: inferred,
            interpolated: interpolated)
    }

    /// `count` events with consecutive sequence numbers from `first`, alternating enter and exit.
    static func burst(_ count: Int, from first: UInt64 = 1) -> [EventRecord] {
        (0..<count).map { index in
            let enter = index % 2 == 0
            return event(
                first + UInt64(index), kind: enter ? .enter : .exit, region: "stop-\(index / 2)",
                distance: enter ? -1.5 : 2.25, state: enter ? .inside : .outside)
        }
    }

    /// The keys of every event line, as the CLI's interface fixes them.
    static let jsonKeys: Set<String> = [
        "seq", "type", "region", "time", "lat", "lon", "distance_m", "state", "inferred", "interpolated",
    ]
}
