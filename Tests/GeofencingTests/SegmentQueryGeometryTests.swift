// The segment query's geometry from the fixes' integer points (InterpolatedPasses.swift): the length bound that picks
// its margin must never fall below any length the rules take for the segment (or candidates would be missed), and
// must stay tight enough that a 1 Hz drive keeps one margin (the core's cursor keeps its area only for one margin).
import CGeofence
import Foundation
@testable import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite("Segment query geometry")
struct SegmentQueryGeometryTests {
    private static func point(_ coordinate: Coordinate) throws -> gf_point {
        try #require(CoreFenceTable.point(coordinate))
    }

    private static func fix(_ coordinate: Coordinate) throws -> (fix: Fix, point: gf_point) {
        (Fix(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: 0)), try point(coordinate))
    }

    /// Segments of every kind: 0-3e-7 degree (where the points' rounding matters most), metres, kilometres, and
    /// up to half the globe; across the equator and the antimeridian, and up to 85 degrees latitude.
    private static func randomSegment(_ random: inout SplitMix64) -> (Coordinate, Coordinate) {
        let start = Coordinate(latitude: -85 + 170 * random.nextUnit(), longitude: -180 + 360 * random.nextUnit())
        let scale: Double = switch random.next() % 5 {
        case 0: 3e-7
        case 1: 3e-4
        case 2: 0.1
        case 3: 5
        default: 90
        }
        var latitude = start.latitude + scale * (2 * random.nextUnit() - 1)
        latitude = min(85, max(-85, latitude))
        var longitude = start.longitude + scale * (2 * random.nextUnit() - 1)
        if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (start, Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test("the length bound is at least the core's length and the rules' bound, for 200,000 segments of every size")
    func lengthBoundIsAnUpperBound() throws {
        var random = SplitMix64(seed: 0x5E6_4E47)
        var tightest = Double.infinity  // the bound's least ratio to the core's length, segments of 10 m or more
        for _ in 0..<200_000 {
            let (a, b) = Self.randomSegment(&random)
            let start = try Self.fix(a), end = try Self.fix(b)
            let bound = MonitorEngine.lengthBound(start.point, end.point)
            let length = CoreFenceTable.distance(start.point, end.point)
            #expect(bound >= length, "\(a) -> \(b): bound \(bound) m, core's length \(length) m")
            if length >= 10 { tightest = min(tightest, bound / length) }
            if let known = MonitorEngine.segmentLength(from: start, to: end, reachable: .infinity) {
                #expect(bound >= known.longest, "\(a) -> \(b): bound \(bound) m, the rules' \(known.longest) m")
            }
        }
        // The factor on the mean radius (1 %) against the largest radius of curvature (0.45 % above it).
        #expect(tightest >= 1.004, "tightest ratio \(tightest)")
    }

    @Test("the bound's test from its square says 'at most' only where the bound is, and a hair above it already")
    func squaredBoundTestAgreesWithTheRoot() throws {
        var random = SplitMix64(seed: 0x5_0A7E)
        var toldAbove = 0
        for _ in 0..<100_000 {
            let (a, b) = Self.randomSegment(&random)
            let offsets = MonitorEngine.boundOffsetsSquared(try Self.point(a), try Self.point(b))
            let bound = MonitorEngine.lengthBound(ofOffsetsSquared: offsets)
            #expect(bound == MonitorEngine.lengthBound(try Self.point(a), try Self.point(b)))
            // Limits at, just below and just above the bound: none below it may be told "at most".
            for limit in [bound, bound.nextDown, bound * (1 - 1e-12), bound - 1e-9, bound.nextUp,
                          bound * (1 + 1e-12), bound * (1 + 1e-8), 0.02, 0.0200001, .nan, .infinity] {
                let told = MonitorEngine.lengthBound(ofOffsetsSquared: offsets, isAtMost: limit)
                #expect(!told || bound <= limit, "\(a) -> \(b): bound \(bound) m, told at most \(limit) m")
                if limit == bound * (1 + 1e-8), limit > 0.02 {
                    #expect(told, "\(a) -> \(b): bound \(bound) m, not told at most \(limit) m")
                    toldAbove += 1
                }
            }
        }
        #expect(toldAbove > 90_000)
    }

    @Test("a 1 Hz segment up to 30 m below 60 degrees latitude asks the query's smallest margin (2^15 mm)",
          arguments: [0.0, -27.5, 45, -60])
    func shortSegmentsKeepOneMargin(latitude: Double) throws {
        var random = SplitMix64(seed: UInt64(abs(latitude) * 10) + 1)
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        for _ in 0..<2_000 {
            let heading = 2 * Double.pi * random.nextUnit(), metres = 30 * random.nextUnit()
            let a = Coordinate(latitude: latitude, longitude: 150 * (2 * random.nextUnit() - 1))
            let b = Coordinate(latitude: latitude + metres * cos(heading) / metresPerDegree,
                               longitude: a.longitude + metres * sin(heading)
                                   / (metresPerDegree * cos(latitude * .pi / 180)))
            let bound = MonitorEngine.lengthBound(try Self.point(a), try Self.point(b))
            let margin = MonitorEngine.segmentQueryMargin(covering: MonitorEngine.marginMillimetres(longest: bound))
            #expect(margin == 1 << 15, "\(metres) m at \(latitude): bound \(bound) m, margin \(margin) mm")
        }
    }

    @Test("the margin's shortcut for short segments asks what the margin's rule asks, at every length near the edge")
    func shortSegmentsShortcutAgreesWithTheRule() {
        let edge = Double(MonitorEngine.smallestSegmentMargin) / 1000 - 1
        var lengths: [Double] = [0, 1e-9, 1, 15.4, 30, 63, 100, 1_000, 49_999, 50_000, 1e9]
        var above = edge, below = edge
        for _ in 0..<64 {  // the doubles next to the edge, each way
            lengths += [above, below]
            above = above.nextUp
            below = below.nextDown
        }
        var random = SplitMix64(seed: 0x3A26)
        for _ in 0..<20_000 { lengths.append(edge * 2 * random.nextUnit()) }
        for length in lengths {
            let rule = MonitorEngine.segmentQueryMargin(covering: MonitorEngine.marginMillimetres(longest: length))
            #expect(MonitorEngine.segmentQueryMargin(longest: length) == rule, "\(length) m")
        }
    }
}
