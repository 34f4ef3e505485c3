// Each supported sentence type: what it reports.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA sentence types")
struct NMEASentenceTypeTests {
    private func decode(_ body: String) throws -> NMEAReport? {
        guard case .sentence(let sentence) = NMEALine(bytes: Array(NMEATestText.sentence(body).utf8)) else {
            Issue.record("not a sentence: \(body)")
            return nil
        }
        return try NMEAReport.decode(sentence)
    }

    private func coordinate(_ report: NMEAReport?) -> Coordinate? {
        if case .valid(let coordinate) = report?.position { return coordinate }
        return nil
    }

    @Test func rmc() throws {
        let report = try decode("GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A")
        let expected: Int64 = 80_677 * 1_000_000_000
        #expect(report?.timeOfDay == expected)
        #expect(report?.date == .twoDigitYear(8, month: 3, day: 3))
        #expect(abs((coordinate(report)?.latitude ?? 0) - -27.572321) < 1e-6)
        #expect(report?.speed == 17.44, "33.9 knots, to the millimetre per second as gpsd's TPV has it")
        #expect(report?.course == 157.8)
        #expect(try decode("GPRMC,,V,,,,,,,,,,N")?.position == .invalid)
        let void = try decode("GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A")
        #expect(void?.position == .invalid)
        #expect(void?.speed == nil, "a receiver without a fix repeats stale speeds")
        #expect(try decode("GNRMC,091232.000,A,4813.0535,N,00824.8697,E,0.00,0.00,101015,,,N,V")?.position == .invalid,
                "mode N means not valid")
        #expect(throws: NMEAFieldError.self) { try decode("GPRMC,091232.000,A,,,,,0.00,0.00,101015,,,A") }
        #expect(throws: NMEAFieldError.self) { try decode("GPRMC,091232.000,X,4813.0535,N,00824.8697,E,0,0,101015,,,A") }
    }

    @Test func gga() throws {
        let report = try decode("GPGGA,222437.000,2734.33926,S,15305.44310,E,1,07,1.3,50.6,M,39.2,M,,")
        #expect(coordinate(report) != nil)
        #expect(report?.hdop == 1.3)
        #expect(report?.altitude == 50.6)
        #expect(report?.differential == false)
        #expect(report?.date == nil)
        #expect(try decode("GPGGA,095257.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,")?.position == .invalid)
        #expect(try decode("GPGGA,,,,,,0,00,99.99,,,,,,")?.timeOfDay == nil)
        #expect(try decode("GPGGA,120000,5229.6021,N,00517.7879,E,2,12,0.50,2,M,47.0,M,,")?.differential == true)
        #expect(try decode("GPGGA,120000,5229.6021,N,00517.7879,E,6,12,0.50,2,M,47.0,M,,") != nil, "dead reckoning")
        #expect(throws: NMEAFieldError.self) { try decode("GPGGA,120000,5229.6021,N,00517.7879,E,x,12,0.5,2,M,47,M,,") }
    }

    @Test func gns() throws {
        let report = try decode("GNGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,,V")
        #expect(abs((coordinate(report)?.longitude ?? 0) - -(9 + 8.43828 / 60)) < 1e-12)
        #expect(report?.hdop == 10.5)
        #expect(report?.altitude == nil)
        #expect(try decode("GNGNS,112257.00,,,,,NN,00,,,,,,V")?.position == .invalid)
        #expect(try decode("GNGNS,112257.00,3844.24011,N,00908.43828,W,DR,10,0.8,12.5,48.0,,,S")?.differential == true)
        #expect(throws: NMEAFieldError.self) { try decode("GNGNS,112257.00,3844.24011,N,00908.43828,W,AX,03,1,,,,") }
    }

    @Test func gll() throws {
        let report = try decode("GPGLL,5229.6021,N,00517.7879,E,114941,A,A")
        let expected: Int64 = (11 * 3600 + 49 * 60 + 41) * 1_000_000_000
        #expect(report?.timeOfDay == expected)
        #expect(coordinate(report) != nil)
        #expect(try decode("GPGLL,,,,,,V,N")?.position == .invalid)
        #expect(try decode("GPGLL,5229.6021,N,00517.7879,E,114941,A,N")?.position == .invalid)
        #expect(coordinate(try decode("GPGLL,6005.071,N,02332.346,E,095559,A,D")) != nil)
    }

    @Test func gstGivesAccuracyFromTheLatitudeAndLongitudeSigmas() throws {
        let report = try decode("GPGST,222438.000,12.4,6.4,9.3,16.2,6.1,8.3,16.4")
        let expected = 2.447_746_830_680_816 * ((6.1 * 6.1 + 8.3 * 8.3) / 2).squareRoot()
        #expect(abs((report?.measuredAccuracy ?? 0) - expected) < 1e-9)
        #expect(report?.position == nil, "GST says nothing about the fix")
        #expect(try decode("GPGST,222438.000,,,,,,,")?.measuredAccuracy == nil)
    }

    @Test func vtgInBothForms() throws {
        let modern = try decode("GPVTG,157.8,T,169.0,M,33.9,N,62.9,K,A")
        #expect(modern?.course == 157.8)
        #expect(modern?.speed == 17.44)
        #expect(modern?.expectsTime == false)
        let old = try decode("GPVTG,054.7,034.4,005.5,010.2")
        #expect(old?.course == 54.7)
        #expect(old?.speed == 2.829)
        let kilometresOnly = try decode("GPVTG,054.7,T,,M,,N,36.0,K,A")
        #expect(kilometresOnly?.speed == 10)
        #expect(try decode("GPVTG,,T,,M,,N,,K,N")?.speed == nil)
    }

    @Test func zdaGivesTheFullYear() throws {
        #expect(try decode("GPZDA,114941,15,08,2016,-02,00")?.date == .fullYear(2016, month: 8, day: 15))
        #expect(try decode("GPZDA,095559,,,,00,")?.date == nil, "instruments send ZDA without the date")
        #expect(throws: NMEAFieldError.self) { try decode("GPZDA,114941,31,02,2016,,") }
    }

    @Test func otherTypesAreUnsupported() throws {
        #expect(try decode("GPGSV,3,3,10,11,06,337,30,03,13,055,25") == nil)
        #expect(try decode("SDDBT,034.25,f,010.44,M,005.64,F") == nil)
    }
}
