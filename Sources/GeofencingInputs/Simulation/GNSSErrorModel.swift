import Geofencing

// What the simulated receiver gets wrong, and what it says about it.

/// The simulated receiver's position error, per horizontal axis (east and north independently):
///
/// - a slowly wandering **bias**, a first-order Gauss-Markov process with standard deviation `biasSigma` and
///   correlation time `biasCorrelationTime` (the combined effect of ionosphere, troposphere, orbit and clock errors
///   and slow multipath, which move a consumer receiver's position by metres over minutes);
/// - **white noise** with standard deviation `noiseSigma`, independent from epoch to epoch (receiver noise, fast
///   multipath);
/// - rare **outliers**: with probability `outlierProbability` per fix, an extra jump of `outlierDistance` metres in
///   a random direction (a reflected signal in a street canyon), which the reported accuracy does not admit;
/// - **outages** (see `OutageModel`): stretches with no fix at all.
///
/// The receiver reports `reportedAccuracy` as each fix's `horizontalAccuracy`: the radius of the 95 % circle of
/// the bias plus noise, 2.4477 × sqrt(biasSigma² + noiseSigma²) (for a circular 2-D normal error with per-axis σ,
/// P(r <= k σ) = 1 - exp(-k²/2) = 0.95 gives k = sqrt(-2 ln 0.05) = 2.4477), times `accuracyScale` to model a
/// receiver that over- or understates its error. Velocity gets white noise of `velocityNoiseSigma` per axis, so
/// at a standstill the reported speed is a few cm/s and the course random, as from a real receiver.
public struct GNSSErrorModel: Sendable, Hashable {
    /// Per-axis standard deviation of the slowly wandering bias, metres.
    public var biasSigma: Double
    /// Correlation time of the bias, seconds (its autocorrelation after this time is 1/e).
    public var biasCorrelationTime: Double
    /// Per-axis standard deviation of the white noise, metres.
    public var noiseSigma: Double
    /// Probability that a fix is an outlier, 0 ... 1.
    public var outlierProbability: Double
    /// Size of an outlier's extra jump, metres, drawn uniformly from this range.
    public var outlierDistance: ClosedRange<Double>
    /// Per-axis standard deviation of the white noise on the velocity, m/s.
    public var velocityNoiseSigma: Double
    /// Factor on the honest 95 % radius in the reported accuracy (1: honest; < 1: an over-confident receiver).
    public var accuracyScale: Double
    /// When the receiver has no fix.
    public var outages: OutageModel

    public init(
        biasSigma: Double, biasCorrelationTime: Double, noiseSigma: Double,
        outlierProbability: Double = 0, outlierDistance: ClosedRange<Double> = 15...50,
        velocityNoiseSigma: Double = 0.1, accuracyScale: Double = 1, outages: OutageModel = .none
    ) {
        self.biasSigma = biasSigma
        self.biasCorrelationTime = biasCorrelationTime
        self.noiseSigma = noiseSigma
        self.outlierProbability = outlierProbability
        self.outlierDistance = outlierDistance
        self.velocityNoiseSigma = velocityNoiseSigma
        self.accuracyScale = accuracyScale
        self.outages = outages
    }

    /// sqrt(-2 ln 0.05): the 95 % radius of a circular 2-D normal error in units of its per-axis σ (the same factor
    /// the readers use to turn reported sigmas into an accuracy, so a simulated accuracy round-trips).
    public static let radius95PerSigma = HorizontalAccuracyEstimate.circular95Factor

    /// Per-axis standard deviation of bias plus noise together, metres.
    public var horizontalSigma: Double { (biasSigma * biasSigma + noiseSigma * noiseSigma).squareRoot() }

    /// The `horizontalAccuracy` every fix reports, metres: `radius95PerSigma` × `horizontalSigma` × `accuracyScale`.
    public var reportedAccuracy: Double { Self.radius95PerSigma * horizontalSigma * accuracyScale }

    /// A consumer receiver (a u-blox M8-class module, or a phone) under open sky without corrections: bias σ 2 m
    /// with a 60 s correlation time and white noise σ 1 m per axis, i.e. 2.24 m per axis, a 50 % circle of 2.6 m
    /// (data sheets say "2.5 m CEP") and a reported 95 % radius of 5.5 m; one outlier of 15–50 m in a thousand fixes;
    /// velocity noise 0.1 m/s (data sheets: 0.05 m/s); no outages.
    public static let consumer = GNSSErrorModel(
        biasSigma: 2, biasCorrelationTime: 60, noiseSigma: 1, outlierProbability: 0.001, outlierDistance: 15...50)

    /// A receiver in a city: a larger, slower bias (σ 5 m, 120 s) and noise (σ 2 m), one outlier of 20–80 m in a
    /// hundred fixes, and about six outages of 5–30 s an hour (tunnels, underpasses) reported as "no fix".
    public static let urban = GNSSErrorModel(
        biasSigma: 5, biasCorrelationTime: 120, noiseSigma: 2, outlierProbability: 0.01, outlierDistance: 20...80,
        velocityNoiseSigma: 0.3, outages: OutageModel(randomPerHour: 6, duration: 5...30))

    /// No error at all: observations equal the truth and report an accuracy of 0 m.
    public static let perfect = GNSSErrorModel(
        biasSigma: 0, biasCorrelationTime: 60, noiseSigma: 0, velocityNoiseSigma: 0)

    func validate() throws {
        try SimulationError.check("biasSigma", biasSigma, ">= 0 m") { $0 >= 0 }
        try SimulationError.check("biasCorrelationTime", biasCorrelationTime, "> 0 s") { $0 > 0 }
        try SimulationError.check("noiseSigma", noiseSigma, ">= 0 m") { $0 >= 0 }
        try SimulationError.check("outlierProbability", outlierProbability, "in 0 ... 1") { (0...1).contains($0) }
        try SimulationError.check("outlierDistance lower bound", outlierDistance.lowerBound, ">= 0 m") { $0 >= 0 }
        try SimulationError.check("outlierDistance upper bound", outlierDistance.upperBound, "finite") { _ in true }
        try SimulationError.check("velocityNoiseSigma", velocityNoiseSigma, ">= 0 m/s") { $0 >= 0 }
        try SimulationError.check("accuracyScale", accuracyScale, "> 0") { $0 > 0 }
        try outages.validate()
    }
}
