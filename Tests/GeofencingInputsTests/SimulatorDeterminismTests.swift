// A simulated drive depends on its settings and seed only: same seed, same drive; another seed, another drive.
import Foundation
import Geofencing
@testable import GeofencingInputs
import Testing

@Suite struct SimulatorDeterminismTests {
    private func simulator(seed: UInt64, errors: GNSSErrorModel = .urban) throws -> DriveSimulator {
        DriveSimulator(route: try SimulatedRoute(waypoints: SimulatorFixtures.busStops()), profile: .bus,
                       errors: errors, seed: seed)
    }

    @Test func sameSeedGivesTheSameDriveBitForBit() throws {
        let first = try simulator(seed: 77).run()
        let second = try simulator(seed: 77).run()
        #expect(first.samples == second.samples)
        #expect(first.stopVisits == second.stopVisits)
        #expect(first.outages == second.outages)
    }

    @Test func differentSeedGivesADifferentDrive() throws {
        let first = try simulator(seed: 77).run()
        let second = try simulator(seed: 78).run()
        let firstFixes = first.fixes.map(\.coordinate), secondFixes = second.fixes.map(\.coordinate)
        #expect(firstFixes != secondFixes)
        // Not just a shifted copy: almost every fix differs.
        let same = zip(firstFixes, secondFixes).filter { $0 == $1 }.count
        #expect(same == 0)
        // The cruise speeds are drawn from the seed too.
        #expect(first.duration != second.duration)
    }

    @Test func outliersDoNotDisturbTheOtherRandomStreams() throws {
        var calm = GNSSErrorModel.consumer
        calm.outlierProbability = 0
        var wild = calm
        wild.outlierProbability = 0.2
        let a = try simulator(seed: 5, errors: calm).run()
        let b = try simulator(seed: 5, errors: wild).run()
        #expect(a.samples.map(\.error.bias) == b.samples.map(\.error.bias))
        #expect(a.samples.map(\.error.noise) == b.samples.map(\.error.noise))
        #expect(b.samples.contains { $0.error.isOutlier })
    }

    @Test func startTimeIsKeptToTheMillisecondAndNeverTheWallClock() throws {
        #expect(try simulator(seed: 1).run().startTime == DriveSimulator.defaultStartTime)
        var shifted = try simulator(seed: 1)
        shifted.startTime = Date(timeIntervalSince1970: 1_700_000_000.123_4)
        shifted.sampleRate = 5
        let drive = try shifted.run()
        #expect(drive.startTime == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(abs(drive.samples[1].time.timeIntervalSince(drive.samples[0].time) - 0.2) < 1e-6)
    }
}
