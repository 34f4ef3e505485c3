// Where gpsd 3.22 reports an epoch, and what the reader makes of it (NMEACycleEnd; measured with gpsdecode and gpsd).
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("gpsd's end of cycle")
struct NMEACycleEndTests {
    private static func decisions(_ bodies: [String]) -> [NMEACycleEnd.Decision] {
        var cycleEnd = NMEACycleEnd()
        return bodies.map { body in
            guard case .sentence(let sentence) = NMEALine(bytes: Array(NMEATestText.sentence(body).utf8)) else {
                Issue.record("not a sentence: \(body)")
                return NMEACycleEnd.Decision(endsCycle: false, sendsReport: false)
            }
            return cycleEnd.take(sentence)
        }
    }

    private static func gga(_ time: String, _ latitude: String = "5251.0094") -> String {
        "GPGGA,\(time),\(latitude),N,00518.8172,E,1,12,0.60,-4,M,46.8,M,,"
    }

    private static func gll(_ time: String, _ latitude: String = "5251.0094") -> String {
        "GPGLL,\(latitude),N,00518.8172,E,\(time),A,A"
    }

    private static func rmc(_ time: String, _ latitude: String = "5251.0094") -> String {
        "GPRMC,\(time),A,\(latitude),N,00518.8172,E,5.6,230.5,200818,1.4,E,A"
    }

    private static let depth = "SDDBT,18.0,f,5.4,M,3.0,F"
    private static let heading = "SDHDG,231.5,,,1.3,E"
    private static let glc = "GPGLC,9960,,,,,,,,,,,,"

    @Test func theLastTimedTypeBeforeATimeChangeBecomesTheEnder() {
        let sent = Self.decisions([Self.gga("094736"), Self.rmc("094736"), "GPVTG,230.5,T,229.1,M,5.6,N,10.4,K,A",
                                   Self.gga("094737"), Self.rmc("094737"), "GPVTG,230.5,T,229.1,M,5.6,N,10.4,K,A"])
        #expect(sent.map(\.endsCycle) == [false, false, false, false, true, false],
                "VTG has no time, so RMC is learnt; from the second epoch on only RMC ends it")
        #expect(sent.map(\.sendsReport) == [true, true, false, false, true, false],
                "until an ender is known the daemon reports every position")
    }

    @Test func aDepthSentenceMakesEverySentenceWithoutATimeEndTheCycle() {
        let sent = Self.decisions([Self.gga("094736"), Self.depth, Self.heading, Self.glc, Self.gga("094737"),
                                   Self.heading])
        #expect(sent.map(\.endsCycle) == [false, true, true, true, false, true])
        #expect(sent.map(\.sendsReport) == [true, true, true, false, false, true],
                "GLC ends the cycle, but gives gpsd no data: no TPV")
    }

    @Test func aPositionThatOnlyADatalessSentenceFollowsNeverReachesTheClient() {
        // bundg_zeus_9.log: GLL and RMC relayed a second late, then the epoch's own GGA, then only a GLC.
        let log = NMEATestText.read([
            Self.rmc("094736", "5251.0000"), Self.depth, Self.heading,
            Self.gll("094737", "5251.0010"), Self.rmc("094737", "5251.0010"), Self.heading,
            Self.gga("094737", "5251.0020"), Self.glc,
            Self.gll("094738", "5251.0020"), Self.heading,
        ])
        let latitudes = log.observations.compactMap { $0.fix?.coordinate.latitude }
        #expect(latitudes.count == 3)
        #expect(abs(latitudes[1] - (52 + 51.001 / 60)) < 1e-9, "09:47:37 as the daemon has it: the relayed RMC's")
    }

    @Test func anEpochWithoutAReportGivesNoObservation() {
        let log = NMEATestText.read([Self.gga("120000"), Self.rmc("120000"), Self.gga("120001"), Self.gga("120002"),
                                     Self.rmc("120002")])
        #expect(log.observations.map(\.time) == [
            NMEATestText.utc(2018, 8, 20, 12), NMEATestText.utc(2018, 8, 20, 12, 0, 2),
        ], "12:00:01 has no RMC, the ender gpsd learnt")
        #expect(log.statistics.epochsWithoutReport == 1)
    }
}
