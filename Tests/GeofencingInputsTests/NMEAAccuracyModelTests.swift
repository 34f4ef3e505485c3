// The accuracy model of HorizontalAccuracyEstimate in the NMEA reader: the rules gpsd 3.22 follows for `eph`, each
// measured with gpsdecode on variants of the Brisbane log (GGA quality and RMC mode rewritten, RMC moved first).
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA accuracy model")
struct NMEAAccuracyModelTests {
    /// Two epochs of the Brisbane log, RMC first, GGA's HDOP differing from GSA's, no GST.
    static func rmcFirst(quality: Int = 1, rmcMode: String = "A") -> [String] {
        [
            "GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,\(rmcMode)",
            "GPGGA,222437.000,2734.33926,S,15305.44310,E,\(quality),07,2.5,50.6,M,39.2,M,,",
            "GPGSA,A,3,16,25,23,20,13,27,11,,,,,,2.3,1.3,1.9",
            "GPRMC,222438.000,A,2734.34821,S,15305.44697,E,33.8,158.3,030308,11.2,W,\(rmcMode)",
            "GPGGA,222438.000,2734.34821,S,15305.44697,E,\(quality),07,3.5,50.8,M,39.2,M,,",
            "GPGSA,A,3,16,25,23,20,13,27,03,,,,,,2.1,1.2,1.7",
        ]
    }

    static func accuracies(_ bodies: [String]) -> [Double?] {
        NMEATestText.read(bodies).observations.map { $0.fix?.horizontalAccuracy }
    }

    /// gpsd fixes `eph` at the epoch's first sentence with a position: with RMC first, from the HDOP in force then,
    /// the previous epoch's GSA (1.3), not this epoch's GGA (3.5) or GSA (1.2). The first epoch had no HDOP yet at
    /// its RMC: its GGA gives it (2.5).
    @Test func rmcBeforeGGAUsesTheHDOPInForceAtRMC() {
        #expect(Self.accuracies(Self.rmcFirst()) == [2.5 * 19, 1.3 * 19])
    }

    /// With GGA first, GGA's own HDOP, even when the epoch's GSA later says otherwise.
    @Test func ggaFirstUsesItsOwnHDOP() {
        let ggaFirst = [
            "GPGGA,222437.000,2734.33926,S,15305.44310,E,1,07,2.5,50.6,M,39.2,M,,",
            "GPGSA,A,3,16,25,23,20,13,27,11,,,,,,2.3,1.3,1.9",
            "GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A",
        ]
        #expect(Self.accuracies(ggaFirst) == [2.5 * 19])
    }

    /// RTK fixes (GGA quality 4 and 5) get the plain factor, 19 m, as in gpsd; only quality 2 or mode D is DGPS
    /// (4.75 m), and only on the sentence that fixes `eph`: with RMC first, RMC's mode decides.
    @Test func onlyDGPSGetsTheDifferentialFactor() {
        #expect(Self.accuracies(Self.rmcFirst(quality: 4)) == [2.5 * 19, 1.3 * 19])
        #expect(Self.accuracies(Self.rmcFirst(quality: 5)) == [2.5 * 19, 1.3 * 19])
        #expect(Self.accuracies(Self.rmcFirst(quality: 2)) == [2.5 * 4.75, 1.3 * 19])
        #expect(Self.accuracies(Self.rmcFirst(quality: 2, rmcMode: "D")) == [2.5 * 4.75, 1.3 * 4.75])
        #expect(Self.accuracies(Self.rmcFirst(quality: 1, rmcMode: "D")) == [2.5 * 19, 1.3 * 4.75])
    }

    /// A GST in the epoch replaces the HDOP rule, wherever it comes in the epoch.
    @Test func gstWins() {
        var bodies = Self.rmcFirst(quality: 4)
        bodies.append("GPGST,222438.000,12.4,6.4,9.3,16.2,6.1,8.3,16.4")
        #expect(Self.accuracies(bodies) == [2.5 * 19, HorizontalAccuracyEstimate.fromSigmas(latitude: 6.1, longitude: 8.3)])
    }

    /// GSA is read for its HDOP; one with a bad HDOP is malformed, one without says nothing.
    @Test func gsaIsReadForItsHDOP() throws {
        #expect(try Self.decode("GPGSA,A,3,16,25,,,,,,,,,,,2.3,1.3,1.9")?.hdop == 1.3)
        #expect(try Self.decode("GPGSA,A,1,,,,,,,,,,,,,,,")?.hdop == nil)
        #expect(throws: NMEAFieldError.self) { try Self.decode("GPGSA,A,3,16,,,,,,,,,,,,2.3,x,1.9") }
    }

    private static func decode(_ body: String) throws -> NMEAReport? {
        guard case .sentence(let sentence) = NMEALine(bytes: Array(NMEATestText.sentence(body).utf8)) else { return nil }
        return try NMEAReport.decode(sentence)
    }
}
