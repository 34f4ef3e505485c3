// Thinning the track keeps its ends, both fixes of every state change, and every dropped fix near a kept one.
import Foundation
@testable import GeofencingMap
import GeofencingTestSupport
import GeofencingInputs
import Testing

@Suite("Track thinning")
struct TrackSimplifierTests {
    @Test("invariants on seeded random walks", arguments: [1, 2, 3, 4])
    func invariants(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = 100_000
        var x = [Double](repeating: 0, count: count), y = x, inside = [Bool](repeating: false, count: count)
        for index in 1..<count {
            x[index] = x[index - 1] + (random.nextUnit() - 0.5) * 8
            y[index] = y[index - 1] + (random.nextUnit() - 0.3) * 8
            inside[index] = random.nextUnit() < 0.002 ? !inside[index - 1] : inside[index - 1]
        }
        let tolerance = 10.0
        let kept = TrackSimplifier(tolerance: tolerance).keptIndices(x: x, y: y, inside: inside)
        #expect(kept.first == 0 && kept.last == count - 1)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        #expect(kept.count < count / 2, "kept \(kept.count) of \(count)")
        let keptSet = Set(kept)
        var changes = 0
        for index in 1..<count where inside[index] != inside[index - 1] {
            changes += 1
            #expect(keptSet.contains(index - 1) && keptSet.contains(index), "change at \(index)")
        }
        #expect(changes > 50)
        // Each dropped fix is within the tolerance of the last kept fix before it.
        var lastKept = 0
        for index in 0..<count {
            if keptSet.contains(index) { lastKept = index; continue }
            let dx = x[index] - x[lastKept], dy = y[index] - y[lastKept]
            #expect((dx * dx + dy * dy).squareRoot() < tolerance, "fix \(index)")
        }
    }

    @Test("zero tolerance keeps everything; empty and single-fix tracks")
    func edges() {
        let x = [0.0, 0, 0, 1], y = [0.0, 0, 0, 0], inside = [false, false, true, true]
        #expect(TrackSimplifier(tolerance: 0).keptIndices(x: x, y: y, inside: inside) == [0, 1, 2, 3])
        #expect(TrackSimplifier(tolerance: 5).keptIndices(x: x, y: y, inside: inside) == [0, 1, 2, 3])
        #expect(TrackSimplifier(tolerance: 5).keptIndices(x: [], y: [], inside: []) == [])
        #expect(TrackSimplifier(tolerance: 5).keptIndices(x: [1], y: [1], inside: [true]) == [0])
    }
}
