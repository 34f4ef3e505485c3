// The reader: epochs, merging, statistics, feeding in pieces.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA reader")
struct NMEAReaderTests {
    /// One epoch of the Brisbane car log (nmealog.txt), with checksums recomputed.
    static let brisbaneEpoch = [
        "GPGGA,222437.000,2734.33926,S,15305.44310,E,1,07,1.3,50.6,M,39.2,M,,",
        "GPGLL,2734.33926,S,15305.44310,E,222437.000,A,A",
        "GPGSA,A,3,16,25,23,20,13,27,11,,,,,,2.3,1.3,1.9",
        "GPGST,222437.000,13.3,7.4,6.6,85.1,6.0,6.8,13.7",
        "GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A",
        "GPVTG,157.8,T,169.0,M,33.9,N,62.9,K,A",
    ]

    @Test func sentencesOfOneEpochMergeIntoOneFix() throws {
        let log = NMEATestText.read(Self.brisbaneEpoch)
        #expect(log.observations.count == 1)
        let fix = try #require(log.observations.first?.fix)
        #expect(fix.timestamp == NMEATestText.utc(2008, 3, 3, 22, 24, 37))
        #expect(fix.coordinate.latitude == -27.572321)
        #expect(fix.coordinate.longitude == 153.090718333, "as gpsd reports it, to 9 decimals")
        #expect(fix.altitude == 50.6)
        #expect(fix.course == 157.8)
        #expect(abs((fix.speed ?? 0) - 17.44) < 0.01)
        let gst = HorizontalAccuracyEstimate.fromSigmas(latitude: 6.0, longitude: 6.8)
        #expect(fix.horizontalAccuracy == gst, "GST wins over HDOP")
        #expect(log.statistics.usedSentences == 6, "GSA is read for its HDOP")
        #expect(log.statistics.unsupportedSentences == 0)
    }

    @Test func withoutGSTTheAccuracyComesFromHDOPAsInGPSD() throws {
        let log = NMEATestText.read(Self.brisbaneEpoch.filter { !$0.hasPrefix("GPGST") })
        #expect(log.observations.first?.fix?.horizontalAccuracy == 1.3 * 19)
        let rmcOnly = NMEATestText.read(Self.brisbaneEpoch.filter { $0.hasPrefix("GPRMC") })
        #expect(rmcOnly.observations.first?.fix?.horizontalAccuracy == nil)
    }

    @Test func statusVAndQualityZeroAreNoFix() {
        let log = NMEATestText.read([
            "GPGGA,095257.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,",
            "GPRMC,095257.809,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A",
            "GPGGA,095304.802,2712.6520,S,15303.1397,E,1,00,17.0,3.0,M,42.2,M,,",
            "GPRMC,095304.802,A,2712.6520,S,15303.1397,E,0.00,133.96,080407,,,A",
        ])
        #expect(log.observations.count == 2)
        #expect(log.observations.first == .noFix(NMEATestText.utc(2007, 4, 8, 9, 52, 57.809)))
        #expect(abs(log.observations[0].time.timeIntervalSince1970 - NMEATestText.utc(2007, 4, 8, 9, 52, 57.809)
            .timeIntervalSince1970) < 1e-6)
        #expect(log.observations.last?.fix != nil)
        #expect(log.statistics.fixes == 1)
        #expect(log.statistics.noFixes == 1)
    }

    @Test func aValidSentenceMakesTheEpochAFixEvenIfAnotherSaysNone() {
        let log = NMEATestText.read([
            "GPGGA,120000,5229.6021,N,00517.7879,E,0,00,,,M,,M,,",
            "GPRMC,120000,A,5229.6021,N,00517.7879,E,4.1,90.4,150816,1.0,E,A",
        ])
        #expect(log.observations.first?.fix != nil)
    }

    @Test func untimedPositionSentencesAreCountedNotUsed() {
        let log = NMEATestText.read(["GPRMC,,V,,,,,,,,,,N", "GPGGA,,,,,,0,00,99.99,,,,,,", "GPVTG,,,,,,,,,N"])
        #expect(log.observations.isEmpty)
        #expect(log.statistics.untimedSentences == 3, "a VTG before any epoch cannot be placed either")
    }

    @Test func otherTalkersAreUnsupported() {
        var configuration = NMEAReaderConfiguration()
        #expect(NMEATestText.read(["IIVTG,224.44,T,224.44,M,5.81,N,,,D"]).statistics.unsupportedSentences == 1)
        configuration.talkers.insert("II")
        #expect(NMEATestText.read(["IIVTG,224.44,T,224.44,M,5.81,N,,,D"], configuration: configuration)
            .statistics.untimedSentences == 1)
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD"] {
            let log = NMEATestText.read(["\(talker)GLL,5229.6021,N,00517.7879,E,114941,A,A"])
            #expect(log.observations.count == 1, "\(talker)")
        }
    }

    @Test func anEpochCompletesWhenTheNextOneStarts() {
        var reader = NMEAReader()
        #expect(reader.read(line: NMEATestText.sentence(Self.brisbaneEpoch[0])).isEmpty)
        #expect(reader.read(line: NMEATestText.sentence(Self.brisbaneEpoch[4])).isEmpty)
        let next = reader.read(line: NMEATestText.sentence("GPGGA,222438.000,2734.34821,S,15305.44697,E,1,07,1.2,50.8,M,39.2,M,,"))
        #expect(next.count == 1)
        // gpsd has learnt that RMC ends this receiver's cycle: the next epoch is reported at its RMC.
        #expect(reader.read(line: NMEATestText.sentence(
            "GPRMC,222438.000,A,2734.34821,S,15305.44697,E,33.9,157.8,030308,11.2,W,A")).isEmpty)
        #expect(reader.finish().count == 1)
        #expect(reader.finish().isEmpty)
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func lineEndsDoNotMatter(_ lineEnd: String) {
        let log = NMEAReader.read(data: NMEATestText.log(Self.brisbaneEpoch, lineEnd: lineEnd))
        #expect(log.observations.count == 1)
        #expect(log.statistics.lines == Self.brisbaneEpoch.count)
        #expect(log.statistics.badLines == 0)
    }

    @Test func feedingInPiecesGivesTheSameAsAWhole() {
        let path = TestData.shared("nmea/nmealog.txt").path
        let data = FileManager.default.contents(atPath: path) ?? NMEATestText.log(Self.brisbaneEpoch)
        let whole = NMEAReader.read(data: data)
        var generator = SystemRandomNumberGenerator()
        var reader = NMEAReader()
        var pieces: [Observation] = []
        var offset = 0
        while offset < data.count {
            let length = Int.random(in: 1...97, using: &generator)
            pieces += reader.read(bytes: data[offset..<min(offset + length, data.count)])
            offset += length
        }
        pieces += reader.finish()
        #expect(pieces == whole.observations)
        #expect(reader.statistics == whole.statistics)
    }

    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func eachLineIsCountedOnce() {
        for (name, entry) in SharedNMEALogs.all {
            let statistics = entry.log.statistics
            let sum = statistics.ignoredLines + statistics.badLines + statistics.unsupportedSentences
                + statistics.untimedSentences + statistics.usedSentences
            #expect(sum == statistics.lines, "\(name)")
            #expect(statistics.badLines == 0, "\(name): the shared logs are clean")
        }
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: TrackReadError(source: "/nonexistent/drive.nmea", message: "no such file")) {
            try NMEAReader.read(path: "/nonexistent/drive.nmea")
        }
    }
}
