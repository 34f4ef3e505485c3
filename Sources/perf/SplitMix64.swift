/// A small seeded random number generator (SplitMix64), so that every run builds the same fences and drives the same
/// route: numbers stay comparable between runs, machines and toolchains. The standard library's generators are either
/// unseeded or may change their algorithm between Swift releases. Not for anything security-related.
struct SplitMix64 {
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

    /// Uniform in [0, 1) from the top 53 bits (all a Double can hold), with no rounding up to 1.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in [lower, upper).
    mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextUnitInterval()
    }
}

extension SplitMix64 {
    /// A seed named by text (FNV-1a), so each fix stream has its own fixed seed without a table of magic numbers.
    init(seedNamed name: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        self.init(seed: hash)
    }
}
