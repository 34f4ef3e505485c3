// Outages: "no fix" reports or silence at the sample times, scheduled or random.
import Foundation
import Geofencing
@testable import GeofencingInputs
import Testing

@Suite struct SimulatorOutageTests {
    private func drive(outages: OutageModel, seed: UInt64 = 1) throws -> SimulatedDrive {
        var errors = GNSSErrorModel.consumer
        errors.outages = outages
        let route = try SimulatedRoute(waypoints: SimulatorFixtures.busStops())
        return try DriveSimulator(route: route, profile: .bus, errors: errors, seed: seed).run()
    }

    @Test func scheduledOutageReportsNoFixAtEachSampleTime() throws {
        let drive = try drive(outages: OutageModel(scheduled: [60..<90]))
        for sample in drive.samples {
            let offset = sample.time.timeIntervalSince(drive.startTime)
            if (60..<90).contains(offset) {
                #expect(sample.observation == .noFix(sample.time))
            } else {
                #expect(sample.observation?.fix != nil)
            }
        }
        #expect(drive.observations.count == drive.samples.count)
        #expect(drive.observations.filter { $0.fix == nil }.count == 30)
        #expect(drive.outages == [drive.startTime.addingTimeInterval(60)..<drive.startTime.addingTimeInterval(90)])
    }

    @Test func silentOutageLeavesTheSamplesOutOfTheObservations() throws {
        let drive = try drive(outages: OutageModel(scheduled: [60..<90], reporting: .silent))
        let silent = drive.samples.filter { $0.observation == nil }
        #expect(silent.count == 30)
        #expect(silent.allSatisfy { (60..<90).contains($0.time.timeIntervalSince(drive.startTime)) })
        #expect(drive.observations.count == drive.samples.count - 30)
        #expect(drive.observations.allSatisfy { $0.fix != nil })
    }

    @Test func outagesChangeNothingElse() throws {
        let clear = try drive(outages: .none)
        let tunnel = try drive(outages: OutageModel(scheduled: [100..<140], randomPerHour: 20))
        #expect(clear.samples.map(\.truth) == tunnel.samples.map(\.truth))
        #expect(clear.samples.map(\.error) == tunnel.samples.map(\.error))
        for (a, b) in zip(clear.samples, tunnel.samples) where b.observation?.fix != nil {
            #expect(a.observation == b.observation)
        }
    }

    @Test func randomOutagesFollowTheConfiguredRateAndDurations() throws {
        let outages = OutageModel(randomPerHour: 30, duration: 5...20)
        let errors = GNSSErrorModel(biasSigma: 2, biasCorrelationTime: 60, noiseSigma: 1, outages: outages)
        let drive = try DriveSimulator(
            route: SimulatorFixtures.laps(3), profile: .car.cruising(at: 15), errors: errors, seed: 12
        ).run()
        let hours = drive.duration / 3600
        // A Poisson count: mean 30 an hour over about 3 h; allow four standard deviations.
        let expected = 30 * hours
        #expect(abs(Double(drive.outages.count) - expected) < 4 * expected.squareRoot(), "\(drive.outages.count)")
        for outage in drive.outages {
            let length = outage.upperBound.timeIntervalSince(outage.lowerBound)
            #expect(length >= 5 - 1e-6 && length <= 20 + 1e-6)
        }
        for sample in drive.samples {
            let inOutage = drive.outages.contains { $0.contains(sample.time) }
            #expect((sample.observation?.fix == nil) == inOutage)
        }
    }
}
