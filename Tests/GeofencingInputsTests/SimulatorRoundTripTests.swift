// A simulated drive written by NMEAWriter and read back by the project's NMEA reader: the same observations.
import Foundation
import Geofencing
@testable import GeofencingInputs
import GeofencingWriters
import Testing

@Suite struct SimulatorRoundTripTests {
    static let cases: [(name: String, errors: GNSSErrorModel, sampleRate: Double, writer: NMEAWriter)] = {
        var tunnels = GNSSErrorModel.consumer
        tunnels.outages = OutageModel(scheduled: [40..<55, 120..<121])
        return [
            ("consumer", .consumer, 1, NMEAWriter()),
            ("urban with outages and VTG", .urban, 1, NMEAWriter(talker: "GN", includesVTG: true)),
            ("scheduled outages at 5 Hz", tunnels, 5, NMEAWriter()),
            ("perfect at 3 Hz", .perfect, 3, NMEAWriter()),
        ]
    }()

    @Test(arguments: cases.indices)
    func readerGetsBackWhatTheWriterWrote(caseIndex: Int) throws {
        let (name, errors, sampleRate, writer) = Self.cases[caseIndex]
        let simulator = DriveSimulator(
            route: try SimulatedRoute(waypoints: SimulatorFixtures.busStops()), profile: .bus, errors: errors,
            sampleRate: sampleRate, startTime: Date(timeIntervalSince1970: 1_718_452_800.37), seed: 31)
        let written = try simulator.run().observations
        let log = writer.log(written, comments: ["round trip: \(name)"])
        let read = NMEAReader.read(data: Data(log.utf8), source: name)

        #expect(read.statistics.badLines == 0, "\(read.statistics.problems)")
        try #require(read.observations.count == written.count, "\(name)")
        for (original, copy) in zip(written, read.observations) {
            // Both build a time from whole seconds plus milliseconds: the same Double.
            #expect(copy.time == original.time)
            switch (original, copy) {
            case (.noFix, .noFix): continue
            case (.fix(let a), .fix(let b)):
                #expect(abs(a.coordinate.latitude - b.coordinate.latitude) < 1e-8)
                #expect(abs(a.coordinate.longitude - b.coordinate.longitude) < 1e-8)
                // GST sigmas with 3 decimals: 2.4477 × 0.0005 m.
                #expect(abs(try #require(b.horizontalAccuracy) - a.horizontalAccuracy!) < 0.0013)
                // 0.0005 knot, and the reader's millimetre per second (gpsd's TPV precision).
                #expect(abs(try #require(b.speed) - a.speed!) < 0.0008)
                #expect(abs(SimulationMath.normalizedLongitude(try #require(b.course) - a.course!)) < 0.0051)
                #expect(b.altitude == nil)
            default:
                Issue.record("\(name): \(original) read back as \(copy)")
            }
        }
    }
}
