// The project's seeded random numbers: the simulator's noise, perf's fences and fixes, the tests' jitter.
import Foundation

/// SplitMix64 (Steele, Lea and Flood, 2014): a generator whose whole state is one integer, good enough for noise
/// and cheap to fork. Seeded, so a simulated drive, a benchmark's fences or a test's track is the same on every run,
/// machine and toolchain (the standard library's generators are unseeded or may change algorithm). Not for anything
/// security-related.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// An independent stream for one part of the model (bias, noise, outliers, ...), so that switching one part on
    /// or off leaves the numbers drawn by the others unchanged. The stream's seed is the first output of a
    /// generator seeded with `seed` mixed with the stream number; SplitMix64's output function decorrelates them.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (all a Double holds).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in the closed range (its lower bound when the range is a single value).
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A standard normal deviate by the Box-Muller transform. It uses two uniforms per call and discards the
    /// second deviate on purpose: caching it would make a stream's output depend on how many draws came before.
    public mutating func gaussian() -> Double {
        let u1 = 1 - unit()  // in (0, 1], so the logarithm is finite
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// An exponential deviate with the given mean (the wait between events of a Poisson process).
    public mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - unit())
    }
}

extension SplitMix64 {
    /// A seed named by text (FNV-1a), so each stream of numbers has its own fixed seed without a table of magic
    /// numbers.
    public init(seedNamed name: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        self.init(seed: hash)
    }
}
