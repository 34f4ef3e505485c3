// Shared test support: the seeded generator, so every "random" track, fence set and fix is the same on every run
// and machine, and a failure can be replayed from its seed.
import Foundation
import GeofencingInputs

// The generator itself is GeofencingInputs.SplitMix64; these are the tests' additions to it.
extension SplitMix64 {
    /// Uniform in [0, 1).
    public mutating func nextUnit() -> Double {
        unit()
    }

    /// A point uniformly distributed in a disc of this radius (east, north in metres): receiver jitter whose size
    /// never exceeds `radius` in any direction, so its component across a boundary is bounded by it too.
    public mutating func pointInDisc(radius: Double) -> (east: Double, north: Double) {
        let angle = 2 * Double.pi * nextUnit()
        let distance = radius * nextUnit().squareRoot()
        return (distance * sin(angle), distance * cos(angle))
    }
}

extension RandomNumberGenerator {
    /// A value whose logarithm is uniform, so every scale between the bounds is equally represented
    /// (1 m fences as often as 10 km ones).
    public mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(Double.random(in: log(range.lowerBound)...log(range.upperBound), using: &self))
    }

    /// A normally distributed value (Box-Muller), for clustered layouts.
    public mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne...1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
