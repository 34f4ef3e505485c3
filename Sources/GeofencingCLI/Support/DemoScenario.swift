import Foundation
import Geofencing
import GeofencingInputs

/// The demo's world, made from nothing: a bus line through a made-up suburb (placed near Brisbane, where the
/// project's real test logs were recorded), its stops as fences, and a simulated drive along it with a consumer
/// receiver's errors. Deterministic for a seed, so the demo prints the same events every time.
///
/// What it shows: the bus starts inside its depot (a 400 m fence: a `state` event, not a false enter); it enters,
/// dwells at and leaves each stop it serves (60 m fences, a 20 s dwell time); it drives through one stop without
/// stopping (enter and exit within seconds); stops 250 m or more off the line never fire despite GNSS noise; and
/// the two shapes phone APIs lack: a bus lane (a corridor 25 m either side of 1.5 km of the line, round a corner,
/// entered and left once) and a school zone (a pentagon the line crosses).
struct DemoScenario {
    let regions: [Region]
    let drive: SimulatedDrive

    /// The line's origin: a suburb south of Brisbane (no real stop is implied).
    static let origin = Coordinate(latitude: -27.5301, longitude: 153.0102)

    /// The line, as (metres east, metres north) of the origin; `served` stops get a 30 s halt.
    private static let line: [(east: Double, north: Double, stop: String?, served: Bool)] = [
        (0, 0, "depot", true),
        (600, 0, "stop-101 Creek Rd", true),
        (1_300, 0, nil, false),
        (1_300, 700, "stop-102 Market St", true),
        (1_300, 1_500, "stop-103 School (express: passes through)", false),
        (2_000, 1_500, nil, false),
        (2_500, 2_100, "stop-104 Hospital", true),
        (3_400, 2_100, "stop-105 Station", true),
    ]

    /// Stops near the line that the bus never reaches: (east, north, name).
    private static let offLine: [(east: Double, north: Double, stop: String)] = [
        (600, 300, "stop-201 Park (300 m off the line)"),
        (1_600, 1_100, "stop-202 Library (300 m off the line)"),
        (3_000, 2_350, "stop-203 Mall (250 m off the line)"),
    ]

    /// The bus lane's path (east, north) and half-width: along Creek Rd from 200 m past the depot, round the corner
    /// and 400 m north.
    private static let busLane: [(east: Double, north: Double)] = [(200, 0), (1_300, 0), (1_300, 400)]
    private static let busLaneHalfWidth = 25.0
    /// The school zone round the express stop (east, north): the line enters it going north and leaves it east.
    private static let schoolZone: [(east: Double, north: Double)] = [
        (1_150, 1_300), (1_450, 1_300), (1_450, 1_650), (1_300, 1_750), (1_150, 1_650),
    ]

    init(seed: UInt64 = 1) throws {
        var waypoints: [RouteWaypoint] = []
        var regions: [Region] = []
        for (index, point) in Self.line.enumerated() {
            let coordinate = Self.offset(east: point.east, north: point.north)
            let halts = point.served && index > 0
            waypoints.append(RouteWaypoint(coordinate, dwell: halts ? 30 : nil, name: point.stop))
            guard let name = point.stop else { continue }
            regions.append(
                index == 0
                    ? Region(center: coordinate, radius: 400, identifier: name)
                    : Region(center: coordinate, radius: 60, identifier: name, dwellTime: 20))
        }
        for point in Self.offLine {
            regions.append(
                Region(center: Self.offset(east: point.east, north: point.north), radius: 60,
                               identifier: point.stop))
        }
        regions.append(Region(
            shape: .corridor(path: Self.busLane.map { Self.offset(east: $0.east, north: $0.north) },
                             halfWidth: Self.busLaneHalfWidth),
            identifier: "bus lane Creek Rd (corridor)"))
        regions.append(Region(
            shape: .polygon(rings: [Self.schoolZone.map { Self.offset(east: $0.east, north: $0.north) }]),
            identifier: "school zone (polygon)"))
        self.regions = regions
        let route = try SimulatedRoute(waypoints: waypoints)
        self.drive = try DriveSimulator(route: route, profile: .bus, errors: .consumer, sampleRate: 1, seed: seed).run()
    }

    /// A point `east` and `north` metres from the origin (local flat approximation: exact enough for a made-up
    /// line a few kilometres long; the fences are placed at these points, so nothing depends on its error).
    static func offset(east: Double, north: Double) -> Coordinate {
        let metresPerDegreeLatitude = 110_574.0  // WGS-84 meridian degree at 27.5 degrees
        let metresPerDegreeLongitude = 111_320.0 * cos(origin.latitude * .pi / 180)
        return Coordinate(
            latitude: origin.latitude + north / metresPerDegreeLatitude,
            longitude: origin.longitude + east / metresPerDegreeLongitude)
    }
}
