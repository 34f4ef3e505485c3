// Bad input: truncated lines, wrong checksums, binary junk, odd line ends, huge lines. Nothing may crash, bad lines
// are counted and skipped, and the good fixes around them are still read.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA malformed input")
struct MalformedInputTests {
    private static let good = NMEAReaderTests.brisbaneEpoch
    private static let nextEpoch = [
        "GPGGA,222438.000,2734.34821,S,15305.44697,E,1,07,1.2,50.8,M,39.2,M,,",
        "GPRMC,222438.000,A,2734.34821,S,15305.44697,E,33.8,158.3,030308,11.2,W,A",
    ]

    /// Good epochs with `junk` between them: both fixes must survive.
    private func readWithJunk(_ junk: [UInt8]) -> NMEALog {
        var data = NMEATestText.log(Self.good)
        data.append(contentsOf: junk)
        data.append(contentsOf: Array("\r\n".utf8))
        data.append(NMEATestText.log(Self.nextEpoch))
        return NMEAReader.read(data: data, source: "junk")
    }

    @Test func truncatedSentences() {
        let full = NMEATestText.sentence("GPRMC,222437.500,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A")
        for length in stride(from: 1, to: full.count - 1, by: 7) {
            let log = readWithJunk(Array(full.prefix(length).utf8))
            #expect(log.observations.compactMap(\.fix).count == 2, "cut at \(length)")
            #expect(log.statistics.malformedLines + log.statistics.ignoredLines == 1, "cut at \(length)")
        }
    }

    @Test func badChecksums() {
        let sentence = NMEATestText.sentence("GPRMC,222437.500,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A")
        let corrupted = sentence.replacingOccurrences(of: "2734.33926", with: "2734.33927")
        let log = readWithJunk(Array(corrupted.utf8))
        #expect(log.statistics.checksumFailures == 1)
        #expect(log.observations.count == 2, "the corrupted epoch 22:24:37.5 is not invented")
        #expect(log.statistics.problems.first?.line == Self.good.count + 1)
        #expect(log.statistics.problems.first?.source == "junk")
    }

    @Test func binaryJunk() {
        var generator = SplitMix64(seed: 0x5eed)  // seeded: the junk is the same in every run
        for _ in 0..<50 {
            let junk = (0..<Int.random(in: 1...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            let log = readWithJunk(junk)
            #expect(log.observations.compactMap(\.fix).count == 2)
        }
        let nul = readWithJunk([0, 0, 0, 0x24, 0x47, 0x50, 0])
        #expect(nul.statistics.malformedLines == 1)
    }

    @Test func fieldsThatDoNotParseAreCountedWithTheirReason() {
        let log = readWithJunk(Array(NMEATestText.sentence("GPGGA,222437.500,27x4.33926,S,15305.44310,E,1,07,1.3,50.6,M,39.2,M,,").utf8))
        #expect(log.statistics.malformedLines == 1)
        #expect(log.statistics.problems.first?.message == "GPGGA field 2 (latitude): \"27x4.33926\" is not ddmm.mmmm")
        #expect(log.observations.compactMap(\.fix).count == 2)
    }

    @Test func missingFieldsAreEmpty() {
        let log = NMEATestText.read(["GPRMC,222437.000,A,2734.33926,S,15305.44310,E", "GPGGA,222437.000,2734.33926,S,15305.44310,E,1"])
        #expect(log.observations.first?.fix?.speed == nil)
        #expect(log.observations.first?.time == NMEATestText.utc(1970, 1, 1, 22, 24, 37),
                "an RMC without its date field leaves the log without a date")
        #expect(log.statistics.badLines == 0)
    }

    @Test func crOnlyAndMixedLineEnds() {
        let sentences = (Self.good + Self.nextEpoch).map(NMEATestText.sentence)
        let mixed = sentences.enumerated().map { $0.element + ["\r", "\n", "\r\n", "\n\r"][$0.offset % 4] }.joined()
        let log = NMEAReader.read(data: Data(mixed.utf8))
        #expect(log.observations.compactMap(\.fix).count == 2)
        #expect(log.statistics.badLines == 0)
    }

    @Test func emptyInput() {
        let log = NMEAReader.read(data: Data())
        #expect(log.observations.isEmpty)
        #expect(log.statistics.lines == 0)
        let blank = NMEAReader.read(data: Data("\r\n\n\r".utf8))
        #expect(blank.statistics.ignoredLines == blank.statistics.lines)
    }

    @Test func hugeLineWithoutEndIsDroppedWithoutHoldingIt() {
        var configuration = NMEAReaderConfiguration()
        configuration.maximumLineLength = 200
        var reader = NMEAReader(source: "huge", configuration: configuration)
        var observations = reader.read(bytes: NMEATestText.log(Self.good))
        let chunk = [UInt8](repeating: UInt8(ascii: "A"), count: 64 * 1024)
        for _ in 0..<64 { observations += reader.read(bytes: chunk) }      // 4 MiB without a line end
        observations += reader.read(bytes: Array("\r\n".utf8) + NMEATestText.log(Self.nextEpoch))
        observations += reader.finish()
        #expect(observations.compactMap(\.fix).count == 2)
        #expect(reader.statistics.malformedLines == 1)
        #expect(reader.statistics.problems.first?.message == "line of 4194304 bytes is longer than 200")
        #expect(NMEAReader.read(data: Data(repeating: UInt8(ascii: "$"), count: 100_000)).statistics.malformedLines == 1)
    }

    @Test func everyCutOfARealLogReadsWithoutCrashing() throws {
        let path = TestData.shared("nmea/bt451.log").path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let whole = NMEAReader.read(data: data)
        for end in stride(from: 0, to: data.count, by: 13) {
            let log = NMEAReader.read(data: data.prefix(end))
            #expect(log.observations.count <= whole.observations.count)
            #expect(log.statistics.badLines <= 1, "only the cut line can be bad")
        }
    }

    @Test func problemsAreRecordedUpToTheConfiguredNumber() {
        let bad = Data(String(repeating: "$GPGGA,1*00\n", count: 50).utf8)
        let log = NMEAReader.read(data: bad)
        #expect(log.statistics.checksumFailures == 50)
        #expect(log.statistics.problems.count == 20)
        #expect(log.statistics.problems.map(\.line) == Array(1...20))
    }
}
