// Which calendar day each epoch falls on: dates, two-digit years, logs without dates, midnight.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA dating")
struct NMEADatingTests {
    private func times(_ bodies: [String], _ configuration: NMEAReaderConfiguration = NMEAReaderConfiguration()) -> [Date] {
        NMEATestText.read(bodies, configuration: configuration).observations.map(\.time)
    }

    private func gga(_ time: String) -> String {
        "GPGGA,\(time),5229.6021,N,00517.7879,E,1,12,0.50,2,M,47.0,M,,"
    }

    private func rmc(_ time: String, _ date: String) -> String {
        "GPRMC,\(time),A,5229.6021,N,00517.7879,E,4.1,90.4,\(date),1.0,E,A"
    }

    @Test func aLogWithoutDatesStartsOnTheReferenceDay() {
        #expect(times([gga("095559"), gga("095601")]) == [
            NMEATestText.utc(1970, 1, 1, 9, 55, 59), NMEATestText.utc(1970, 1, 1, 9, 56, 1),
        ])
        var configuration = NMEAReaderConfiguration()
        configuration.referenceDate = NMEATestText.utc(2014, 12, 2, 17, 30)     // the time of day is ignored
        #expect(times([gga("095559")], configuration) == [NMEATestText.utc(2014, 12, 2, 9, 55, 59)])
        #expect(NMEATestText.read([gga("095559"), gga("095601")]).statistics.referenceDatedObservations == 2)
    }

    /// plaka.log (Signal K sample) has positions only in GLL and a ZDA without the date.
    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func aGLLOnlyLogIsAnchoredToTheReferenceDay() throws {
        let entry = try #require(SharedNMEALogs.all["plaka.log"])
        let times = entry.log.observations.map(\.time)
        #expect(times.count == 7250)
        #expect(entry.log.statistics.referenceDatedObservations == 7250)
        #expect(times.first == NMEATestText.utc(1970, 1, 1, 9, 55, 59))
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "one day, in order")
        var configuration = NMEAReaderConfiguration()
        configuration.referenceDate = NMEATestText.utc(2014, 12, 2)
        let dated = NMEAReader.read(data: entry.data.prefix(20_000), configuration: configuration).observations
        #expect(dated.first?.time == NMEATestText.utc(2014, 12, 2, 9, 55, 59))
    }

    @Test func midnightRollsTheDayOver() {
        #expect(times([gga("235959"), gga("000000"), gga("000001")]) == [
            NMEATestText.utc(1970, 1, 1, 23, 59, 59), NMEATestText.utc(1970, 1, 2), NMEATestText.utc(1970, 1, 2, 0, 0, 1),
        ])
    }

    @Test func stepsBackOfLessThanTwelveHoursStayOnTheSameDay() {
        // bt451.log jumps from 15:25 back to 14:33 (a trimmed log); that is not a new day.
        #expect(times([rmc("152508.00", "091209"), gga("152508.00"), gga("143306.00")]) == [
            NMEATestText.utc(2009, 12, 9, 15, 25, 8), NMEATestText.utc(2009, 12, 9, 14, 33, 6),
        ])
    }

    @Test func forwardGapsStayOnTheSameDay() {
        #expect(times([gga("010000"), gga("140000")]) == [
            NMEATestText.utc(1970, 1, 1, 1), NMEATestText.utc(1970, 1, 1, 14),
        ])
    }

    /// gpsd learns the year from the first RMC (or ZDA) and reports the epochs before it without a time, which no
    /// client can place: the reader drops them too, so that the replay gives what the daemon gets.
    @Test func epochsBeforeTheFirstDateAreDropped() {
        let log = NMEATestText.read([gga("235958"), gga("235959"), rmc("000000", "010124"), gga("000000"), gga("000001")])
        #expect(log.observations.map(\.time) == [NMEATestText.utc(2024, 1, 1), NMEATestText.utc(2024, 1, 1, 0, 0, 1)])
        #expect(log.statistics.epochsWithoutReport == 2)
        #expect(log.statistics.referenceDatedObservations == 0)
    }

    @Test func heldEpochsGoToTheReferenceDayWhenNoDateComesInTime() {
        var configuration = NMEAReaderConfiguration()
        configuration.maximumHeldEpochs = 2
        var reader = NMEAReader(configuration: configuration)
        var output: [Observation] = []
        for second in 0..<4 { output += reader.read(line: NMEATestText.sentence(gga(String(format: "1200%02d", second)))) }
        #expect(output.count == 3, "the third complete epoch overflows the hold of 2")
        #expect(output.first?.time == NMEATestText.utc(1970, 1, 1, 12))
        output += reader.read(line: NMEATestText.sentence(rmc("120004", "150816")))
        output += reader.read(line: NMEATestText.sentence(gga("120004")))     // gpsd reports at GGA, the learnt ender
        output += reader.finish()
        #expect(output.map(\.time).suffix(2) == [NMEATestText.utc(1970, 1, 1, 12, 0, 3), NMEATestText.utc(2016, 8, 15, 12, 0, 4)],
                "a date that comes later takes over from then on")
    }

    @Test func twoDigitYearsBelongToTheConfiguredCenturyAsInGPSD() {
        #expect(times([rmc("120000", "010199")]) == [NMEATestText.utc(2099, 1, 1, 12)],
                "gpsd 3.22 makes 99 into 2099: its century comes from the clock, without a pivot year")
        var configuration = NMEAReaderConfiguration()
        configuration.century = 1900
        #expect(times([rmc("120000", "010199")], configuration) == [NMEATestText.utc(1999, 1, 1, 12)])
    }

    @Test func yearNinetyNineToZeroMovesToTheNextCentury() {
        var configuration = NMEAReaderConfiguration()
        configuration.century = 1900
        #expect(times([rmc("235959", "311299"), rmc("000000", "010100")], configuration) == [
            NMEATestText.utc(1999, 12, 31, 23, 59, 59), NMEATestText.utc(2000, 1, 1),
        ])
    }

    @Test func zdaSetsTheCentury() {
        #expect(times([rmc("120000", "010199"), "GPZDA,120000,01,01,1999,00,00", rmc("120001", "010199")]) == [
            NMEATestText.utc(1999, 1, 1, 12), NMEATestText.utc(1999, 1, 1, 12, 0, 1),
        ], "the ZDA of the first epoch, which arrives before the epoch completes, dates it too")
    }

    @Test func zdaDatesAGGAOnlyLog() {
        #expect(times([gga("091232.000"), "GNZDA,091232.000,10,10,2015,,", gga("091233.000")]) == [
            NMEATestText.utc(2015, 10, 10, 9, 12, 32), NMEATestText.utc(2015, 10, 10, 9, 12, 33),
        ])
    }
}
