// The parts of one simulated fix's position error, so tests can check each against the model.

/// How far the simulated receiver's position is from the truth at one sample, split by cause (metres, in the
/// east/north plane of the true position). Present for every sample, outages included, so the error processes
/// can be studied without gaps.
public struct PositionError: Sendable, Hashable {
    /// The slowly wandering bias (Gauss-Markov).
    public var bias: EastNorthOffset
    /// The white noise of this epoch.
    public var noise: EastNorthOffset
    /// The outlier's extra jump, `.zero` for a normal fix.
    public var outlier: EastNorthOffset
    /// Whether this fix is an outlier.
    public var isOutlier: Bool

    public init(bias: EastNorthOffset, noise: EastNorthOffset, outlier: EastNorthOffset, isOutlier: Bool) {
        self.bias = bias
        self.noise = noise
        self.outlier = outlier
        self.isOutlier = isOutlier
    }

    /// The whole error: the reported position is the true one displaced by this.
    public var total: EastNorthOffset { bias + noise + outlier }
}
