// The GNSS error model: measured statistics against the configured ones, and reported fixes against the truth.
import Foundation
import Geofencing
@testable import GeofencingInputs
import Testing

@Suite struct SimulatorErrorTests {
    /// 200,000 one-second epochs (55 hours) of the consumer model's bias and noise, without outliers.
    /// With τ = 60 s the bias has about N / 2τ = 1,650 independent values, so its measured σ is good to about
    /// 1.2 % (one standard error) and its mean to 0.05 m; the white noise's σ to 0.16 %.
    private static let longRun: [PositionError] = {
        var model = GNSSErrorModel.consumer
        model.outlierProbability = 0
        var process = GNSSErrorProcess(model: model, seed: 2024)
        return (0..<200_000).map { process.positionError(at: Double($0)) }
    }()

    @Test func measuredSigmasMatchTheConfiguredOnes() {
        let model = GNSSErrorModel.consumer
        let biasEast = SeriesStatistics(values: Self.longRun.map(\.bias.east))
        let biasNorth = SeriesStatistics(values: Self.longRun.map(\.bias.north))
        let noiseEast = SeriesStatistics(values: Self.longRun.map(\.noise.east))
        let noiseNorth = SeriesStatistics(values: Self.longRun.map(\.noise.north))
        for bias in [biasEast, biasNorth] {
            #expect(abs(bias.standardDeviation / model.biasSigma - 1) < 0.05, "bias σ \(bias.standardDeviation)")
            #expect(abs(bias.mean) < 0.25)
        }
        for noise in [noiseEast, noiseNorth] {
            #expect(abs(noise.standardDeviation / model.noiseSigma - 1) < 0.01, "noise σ \(noise.standardDeviation)")
            #expect(abs(noise.mean) < 0.01)
        }
        let total = SeriesStatistics(values: Self.longRun.map(\.total.east))
        #expect(abs(total.standardDeviation / model.horizontalSigma - 1) < 0.05)
        // The axes are independent.
        #expect(abs(biasEast.correlation(with: biasNorth)) < 0.07)
        #expect(abs(noiseEast.correlation(with: noiseNorth)) < 0.01)
    }

    @Test func biasIsAutocorrelatedAndNoiseIsNot() {
        let tau = GNSSErrorModel.consumer.biasCorrelationTime
        let bias = SeriesStatistics(values: Self.longRun.map(\.bias.east))
        let noise = SeriesStatistics(values: Self.longRun.map(\.noise.east))
        // A first-order Gauss-Markov process correlates as exp(-lag / τ).
        #expect(abs(bias.autocorrelation(lag: 1) - exp(-1 / tau)) < 0.005)
        #expect(abs(bias.autocorrelation(lag: Int(tau)) - exp(-1)) < 0.06)
        #expect(abs(bias.autocorrelation(lag: Int(3 * tau)) - exp(-3)) < 0.06)
        // White noise: |r| under 4.5 standard errors (1 / sqrt(N) = 0.0022).
        for lag in [1, 2, 10, 60] {
            #expect(abs(noise.autocorrelation(lag: lag)) < 0.01, "noise autocorrelation at lag \(lag)")
        }
    }

    @Test func biasCorrelationFollowsTimeNotSampleCount() {
        var process = GNSSErrorProcess(
            model: GNSSErrorModel(biasSigma: 2, biasCorrelationTime: 30, noiseSigma: 1), seed: 9)
        let run = (0..<100_000).map { process.positionError(at: Double($0) / 10) }  // 10 Hz
        let bias = SeriesStatistics(values: run.map(\.bias.north))
        #expect(abs(bias.autocorrelation(lag: 10) - exp(-1.0 / 30)) < 0.01)
        #expect(abs(bias.standardDeviation / 2 - 1) < 0.1)
    }

    @Test func outliersComeAtTheConfiguredRateAndSize() {
        let model = GNSSErrorModel(
            biasSigma: 2, biasCorrelationTime: 60, noiseSigma: 1, outlierProbability: 0.05, outlierDistance: 20...60)
        var process = GNSSErrorProcess(model: model, seed: 11)
        let run = (0..<20_000).map { process.positionError(at: Double($0)) }
        let outliers = run.filter(\.isOutlier)
        // Expected 1,000, standard deviation 31.
        #expect(abs(outliers.count - 1000) < 130, "\(outliers.count) outliers")
        #expect(outliers.allSatisfy { (20 - 1e-9...60 + 1e-9).contains($0.outlier.magnitude) })
        #expect(run.filter { !$0.isOutlier }.allSatisfy { $0.outlier == .zero })
    }

    @Test func reportedPositionIsTheTruthDisplacedByTheError() throws {
        let route = try SimulatedRoute(waypoints: SimulatorFixtures.busStops())
        let drive = try DriveSimulator(route: route, profile: .bus, errors: .urban, seed: 4).run()
        for sample in drive.samples {
            guard let fix = sample.observation?.fix else { continue }
            let offset = fix.coordinate.eastNorthOffset(from: sample.truth.coordinate)
            #expect(abs(offset.east - sample.error.total.east) < 0.001)
            #expect(abs(offset.north - sample.error.total.north) < 0.001)
            #expect(fix.timestamp == sample.time)
            #expect(fix.horizontalAccuracy == GNSSErrorModel.urban.reportedAccuracy)
        }
    }

    /// The reported accuracy is a 95 % radius: over a long drive, 95 % of the (non-outlier) fixes lie within it.
    /// 7.4 hours with a 5 s correlation time give about N / 2τ = 2,700 independent bias values, so the measured
    /// fraction is good to about 0.4 % (one standard error).
    @Test func reportedAccuracyHolds95PercentOfTheFixes() throws {
        let errors = GNSSErrorModel(biasSigma: 2, biasCorrelationTime: 5, noiseSigma: 1)
        let drive = try DriveSimulator(
            route: SimulatorFixtures.laps(20), profile: .car.cruising(at: 15), errors: errors, seed: 8
        ).run()
        let fixes = drive.samples.compactMap { sample in sample.observation?.fix.map { (sample, $0) } }
        #expect(fixes.count > 26_000)
        let inside = fixes.filter { sample, fix in
            fix.coordinate.eastNorthOffset(from: sample.truth.coordinate).magnitude <= fix.horizontalAccuracy!
        }
        let fraction = Double(inside.count) / Double(fixes.count)
        #expect(abs(fraction - 0.95) < 0.015, "\(fraction) of the fixes within the reported accuracy")
        #expect(abs(errors.reportedAccuracy - 2.4477 * 5.0.squareRoot()) < 0.001)
    }

    @Test func velocityNoiseGivesAWanderingCourseAtAStandstill() throws {
        let route = try SimulatedRoute(waypoints: SimulatorFixtures.busStops(count: 2, dwell: 120))
        let drive = try DriveSimulator(route: route, profile: .bus, seed: 6).run()
        let standing = drive.samples.filter { $0.truth.speed == 0 }.compactMap { $0.observation?.fix }
        #expect(standing.count > 200)
        let speeds = SeriesStatistics(values: standing.map { $0.speed! })
        // Rayleigh with σ = 0.1 m/s: mean σ sqrt(π / 2) = 0.125 m/s.
        #expect(abs(speeds.mean - 0.1 * (Double.pi / 2).squareRoot()) < 0.02)
        let courses = Set(standing.map { Int($0.course! / 90) })
        #expect(courses.count == 4, "the course points every way while standing")
    }
}
