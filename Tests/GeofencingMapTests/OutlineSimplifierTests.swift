// Thinning polygon rings and corridor paths for drawing: ends and a minimum of vertices kept, every dropped vertex
// within the tolerance of the segment that replaces it.
import Foundation
@testable import GeofencingMap
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite("Outline thinning")
struct OutlineSimplifierTests {
    /// A noisy closed ring of `count` vertices around a circle of `radius` metres (seeded).
    static func noisyRing(count: Int, radius: Double, noise: Double, seed: UInt64) -> (x: [Double], y: [Double]) {
        var random = SplitMix64(seed: seed)
        var x: [Double] = [], y: [Double] = []
        for index in 0..<count {
            let angle = Double(index) / Double(count) * 2 * .pi
            let r = radius + (random.nextUnit() - 0.5) * 2 * noise
            x.append(r * cos(angle))
            y.append(r * sin(angle))
        }
        return (x, y)
    }

    /// Every index between two consecutive kept indices (and, for a ring, after the last one round to the first)
    /// is within `tolerance` of the segment joining them.
    static func droppedWithinTolerance(
        _ x: [Double], _ y: [Double], kept: [Int], tolerance: Double, ring: Bool
    ) -> (worst: Double, holds: Bool) {
        var worst = 0.0
        var spans = zip(kept, kept.dropFirst()).map { ($0, $1) }
        if ring, let first = kept.first, let last = kept.last { spans.append((last, first + x.count)) }
        for (start, end) in spans {
            for index in stride(from: start + 1, to: end, by: 1) {
                let squared = OutlineSimplifier.segmentDistanceSquared(
                    px: x[index % x.count], py: y[index % x.count], ax: x[start], ay: y[start],
                    bx: x[end % x.count], by: y[end % x.count])
                worst = max(worst, squared.squareRoot())
            }
        }
        return (worst, worst <= tolerance + 1e-9)
    }

    @Test("a noisy ring: fewer vertices, every dropped one within the tolerance", arguments: [1, 2, 3])
    func ringInvariants(seed: UInt64) {
        let ring = Self.noisyRing(count: 20_000, radius: 5_000, noise: 20, seed: seed)
        for tolerance in [0.0, 5.0, 40.0, 400.0] {
            let kept = OutlineSimplifier(tolerance: tolerance).keptIndices(ofRing: ring.x, ring.y)
            #expect(kept.count >= 3 && kept.first == 0)
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
            let check = Self.droppedWithinTolerance(ring.x, ring.y, kept: kept, tolerance: tolerance, ring: true)
            #expect(check.holds, "tolerance \(tolerance) m: a dropped vertex \(check.worst) m from the drawn ring")
            if tolerance >= 40 { #expect(kept.count < ring.x.count / 10, "tolerance \(tolerance): \(kept.count)") }
        }
    }

    @Test("a path keeps both ends; a straight run collapses to them")
    func pathInvariants() {
        var random = SplitMix64(seed: 9)
        var x = [0.0], y = [0.0]
        for _ in 1..<5_000 {
            x.append(x.last! + random.nextUnit() * 10)
            y.append(y.last! + (random.nextUnit() - 0.5) * 10)
        }
        let kept = OutlineSimplifier(tolerance: 15).keptIndices(ofPath: x, y)
        #expect(kept.first == 0 && kept.last == x.count - 1)
        let check = Self.droppedWithinTolerance(x, y, kept: kept, tolerance: 15, ring: false)
        #expect(check.holds, "worst \(check.worst) m")
        let line = (0..<100).map(Double.init)
        #expect(OutlineSimplifier(tolerance: 0.01).keptIndices(ofPath: line, line.map { $0 * 2 }) == [0, 99])
    }

    @Test("a ring smaller than the tolerance is still drawn as a triangle")
    func tinyRingKeepsThree() {
        let ring = Self.noisyRing(count: 50, radius: 3, noise: 0.5, seed: 4)
        let kept = OutlineSimplifier(tolerance: 100).keptIndices(ofRing: ring.x, ring.y)
        #expect(kept.count == 3, "\(kept)")
        #expect(Set(kept).count == 3)
    }
}
