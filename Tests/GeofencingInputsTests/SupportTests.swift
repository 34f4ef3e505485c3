// Accuracy formulas and line splitting (calendar arithmetic and ISO 8601 times: GeofencingEventsTests).
import Foundation
import Testing
import Geofencing
@testable import GeofencingInputs

@Suite("Support")
struct SupportTests {
    @Test func accuracyEstimates() {
        #expect(abs(HorizontalAccuracyEstimate.fromSigmas(latitude: 1, longitude: 1)! - 2.4477) < 1e-4)
        #expect(HorizontalAccuracyEstimate.fromSigmas(latitude: -1, longitude: 1) == nil)
        #expect(HorizontalAccuracyEstimate.fromHDOP(1.2, differential: false) == 22.8, "gpsdecode's eph for HDOP 1.2")
        #expect(HorizontalAccuracyEstimate.fromHDOP(2, differential: true) == 9.5)
        #expect(HorizontalAccuracyEstimate.fromHDOP(0, differential: false) == nil)
        #expect(abs(HorizontalAccuracyEstimate.fromAxisErrors95(x: 1.959964, y: 1.959964)! - 2.4477) < 1e-4)
    }

    @Test func lineSplitter() {
        var splitter = LineSplitter(maximumLength: 4)
        var lines: [LineSplitter.Line] = []
        splitter.split(Array("ab\r".utf8), into: &lines)
        splitter.split(Array("\ncd\n\nabcdef\rx".utf8), into: &lines)
        splitter.finish(into: &lines)
        #expect(lines == [.text(Array("ab".utf8)), .text(Array("cd".utf8)), .text([]), .overlong(byteCount: 6),
                          .text(Array("x".utf8))])
    }
}
