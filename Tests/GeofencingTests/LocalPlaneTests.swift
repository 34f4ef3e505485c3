// The tracks' own geometry (LocalPlane, TrackBuilder) agrees with the core's distance, so the hand-made tests'
// expected distances can be trusted.
import CGeofence
import Foundation
import Geofencing
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Track geometry (test support)")
struct LocalPlaneTests {
    private func coreDistance(_ a: Coordinate, _ b: Coordinate) throws -> Double {
        var pa = gf_point(), pb = gf_point(), millimetres: Int64 = 0
        try #require(gf_point_from_degrees(a.latitude, a.longitude, &pa) == GF_OK)
        try #require(gf_point_from_degrees(b.latitude, b.longitude, &pb) == GF_OK)
        try #require(gf_distance(pa, pb, &millimetres) == GF_OK)
        return Double(millimetres) / 1000
    }

    // An equirectangular plane is not distance-preserving off its axes (a parallel's scale changes with latitude),
    // so the bound grows with the square of the distance: the hand-made tracks stay within 400 m of a centre.
    // Along the axes the bound is the core's own error (<= 9 mm, include/geofence.h) plus a little.
    @Test("plane distances match the core's geodesic: within 2 cm up to 400 m, 12 mm along the axes to 1 km",
          arguments: [Coordinate.brisbane, Coordinate(latitude: 60.17, longitude: 24.94),
                      Coordinate(latitude: -17.5, longitude: 179.9995), Coordinate(latitude: 0, longitude: 0)])
    func planeMatchesCore(origin: Coordinate) throws {
        let plane = LocalPlane(origin: origin)
        var random = SplitMix64(seed: 42)
        var worst = 0.0
        for _ in 0..<200 {
            let angle = 2 * Double.pi * random.nextUnit(), distance = 400 * random.nextUnit()
            let east = distance * sin(angle), north = distance * cos(angle)
            let point = plane.coordinate(east: east, north: north)
            worst = max(worst, abs(try coreDistance(origin, point) - distance))
            let back = plane.offset(of: point)
            #expect(abs(back.east - east) < 1e-6 && abs(back.north - north) < 1e-6)
        }
        #expect(worst < 0.02, "worst difference \(worst) m")
        for (east, north) in [(1000.0, 0.0), (-1000, 0), (0, 1000), (0, -1000)] {
            let point = plane.coordinate(east: east, north: north)
            let difference = try coreDistance(origin, point) - 1000
            #expect(abs(difference) < 0.012, "\(east), \(north): \(difference) m")
        }
    }

    @Test("a drive moves speed x interval per fix along the bearing, one interval apart")
    func driveSteps() {
        var track = TrackBuilder(origin: .brisbane)
        track.interval = 2
        track.fix()
        track.drive(bearing: 90, speed: 5, count: 3)
        let offsets = track.fixes.map { track.plane.offset(of: $0.coordinate) }
        #expect(offsets.map { ($0.east * 1000).rounded() / 1000 } == [0, 10, 20, 30])
        #expect(offsets.allSatisfy { abs($0.north) < 1e-6 })
        #expect(track.fixes.map { $0.timestamp.timeIntervalSince(TrackBuilder.epoch) } == [0, 2, 4, 6])
    }

    @Test("jitter stays within its disc and is the same for the same seed")
    func jitterIsBoundedAndSeeded() {
        func build(seed: UInt64) -> [Fix] {
            var track = TrackBuilder(origin: .brisbane, seed: seed)
            track.jitter = 8
            track.park(count: 500)
            return track.fixes
        }
        let plane = LocalPlane(origin: .brisbane)
        let fixes = build(seed: 9)
        #expect(fixes.allSatisfy { plane.distanceFromOrigin($0.coordinate) <= 8 + 1e-9 })
        #expect(fixes.contains { plane.distanceFromOrigin($0.coordinate) > 7.5 }, "the disc is used up to its edge")
        #expect(build(seed: 9) == fixes)
        #expect(build(seed: 10) != fixes)
    }
}
