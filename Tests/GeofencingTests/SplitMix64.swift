// Test support: a seeded random generator, so every "random" track is the same on every run and machine.
import Foundation

/// SplitMix64: a tiny generator whose whole state is one integer. The standard library's generator is unseeded, and
/// jittered tracks must be reproducible (a failing track can be rebuilt from its seed).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (all a Double holds).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A point uniformly distributed in a disc of this radius (east, north in metres): receiver jitter whose size
    /// never exceeds `radius` in any direction, so its component across a boundary is bounded by it too.
    mutating func pointInDisc(radius: Double) -> (east: Double, north: Double) {
        let angle = 2 * Double.pi * nextUnit()
        let distance = radius * nextUnit().squareRoot()
        return (distance * sin(angle), distance * cos(angle))
    }
}
