// Draws the simulated receiver's errors epoch by epoch, following a GNSSErrorModel.
import Foundation

/// The random processes of a `GNSSErrorModel`, stepped once per sample. Each part has its own random stream, so
/// for one seed the bias and noise are the same whether outliers are on or off, and vice versa.
struct GNSSErrorProcess: Sendable {
    let model: GNSSErrorModel
    private var biasRandom: SplitMix64
    private var noiseRandom: SplitMix64
    private var outlierRandom: SplitMix64
    private var velocityRandom: SplitMix64
    private var bias: EastNorthOffset?
    private var lastTime = 0.0

    /// Stream numbers within a seed (the motion plan and outages have theirs in `DriveSimulator`).
    enum Stream {
        static let bias: UInt64 = 1, noise: UInt64 = 2, outliers: UInt64 = 3, velocity: UInt64 = 4
    }

    init(model: GNSSErrorModel, seed: UInt64) {
        self.model = model
        biasRandom = SplitMix64(seed: seed, stream: Stream.bias)
        noiseRandom = SplitMix64(seed: seed, stream: Stream.noise)
        outlierRandom = SplitMix64(seed: seed, stream: Stream.outliers)
        velocityRandom = SplitMix64(seed: seed, stream: Stream.velocity)
    }

    /// The position error at `time` (seconds, non-decreasing from call to call).
    ///
    /// The bias is a discretised first-order Gauss-Markov process, exact for any step Δt: b ← φ b + σ sqrt(1 - φ²) w
    /// with φ = exp(-Δt / τ) and w standard normal, so its variance stays σ² and its autocorrelation at lag Δt is φ.
    /// It starts from its stationary distribution, N(0, σ²), rather than from 0, so the first minutes of a drive are
    /// as wrong as the rest.
    mutating func positionError(at time: Double) -> PositionError {
        let sigma = model.biasSigma
        if let previous = bias {
            let phi = exp(-(time - lastTime) / model.biasCorrelationTime)
            let innovation = sigma * (1 - phi * phi).squareRoot()
            bias = EastNorthOffset(east: phi * previous.east + innovation * biasRandom.gaussian(),
                                   north: phi * previous.north + innovation * biasRandom.gaussian())
        } else {
            bias = EastNorthOffset(east: sigma * biasRandom.gaussian(), north: sigma * biasRandom.gaussian())
        }
        lastTime = time
        let noise = EastNorthOffset(east: model.noiseSigma * noiseRandom.gaussian(),
                                    north: model.noiseSigma * noiseRandom.gaussian())
        // Three draws every epoch, outlier or not, so outlier times do not depend on the sizes.
        let isOutlier = outlierRandom.unit() < model.outlierProbability
        let distance = outlierRandom.uniform(in: model.outlierDistance)
        let direction = 2 * Double.pi * outlierRandom.unit()
        let outlier = isOutlier
            ? EastNorthOffset(east: distance * sin(direction), north: distance * cos(direction)) : .zero
        return PositionError(bias: bias!, noise: noise, outlier: outlier, isOutlier: isOutlier)
    }

    /// White noise on the velocity (east, north m/s) for one epoch.
    mutating func velocityNoise() -> EastNorthOffset {
        EastNorthOffset(east: model.velocityNoiseSigma * velocityRandom.gaussian(),
                        north: model.velocityNoiseSigma * velocityRandom.gaussian())
    }
}
