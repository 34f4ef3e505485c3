// Input quoted in a message is cut after 40 Unicode scalars with "…" and has its control characters escaped, in
// every reader: one runaway value cannot flood a message, a log or a terminal.
import Foundation
import Testing
@testable import GeofencingInputs

@Suite("Quoted input in messages")
struct QuotedInputTests {
    private static let digits = String(repeating: "9", count: 5_000)
    private static let cut = String(repeating: "9", count: 40) + "…"

    private func geojson(properties: String) -> String {
        #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","#
            + #""coordinates":[153,-27.5]},"properties":\#(properties)}]}"#
    }

    @Test func aFiveThousandDigitNumberIsCutInFenceFileMessages() throws {
        let unrepresentable = FenceFileTestSupport.error(
            reading: Data(geojson(properties: #"{"radius":\#(Self.digits)}"#).utf8), name: "f.geojson")
        #expect(unrepresentable?.description == "f.geojson:1: invalid JSON at column 145: Number \(Self.cut) is not "
            + "representable in Swift.")
        let csv = FenceFileTestSupport.error(
            reading: Data("id,lat,lon,radius_m\na,1,2,\(Self.digits)x\n".utf8), name: "f.csv")
        #expect(csv?.message == "'\(Self.cut)' is not a number")
    }

    @Test func longValuesAreCutInTrackMessages() throws {
        let gpx = #"<gpx><trk><trkseg><trkpt lat="\#(Self.digits)x" lon="2"/></trkseg></trk></gpx>"#
        #expect(throws: TrackReadError(source: "t.gpx", line: 1, message: "<trkpt lat=\"\(Self.cut)\" lon=\"2\"> is not "
            + "a valid position")) {
            try GPXReader.read(data: Data(gpx.utf8), source: "t.gpx")
        }
        let time = String(repeating: "2", count: 5_000)
        let gpsd = GPSDJSONReader.read(data: Data(#"{"class":"TPV","mode":3,"time":"\#(time)","lat":1,"lon":2}"#.utf8),
                                       source: "t.json")
        #expect(gpsd.statistics.problems.map(\.message)
                == ["not a gpsd report: \"\(String(repeating: "2", count: 40))…\" is not an ISO 8601 time"])
        let control = InputText.doubleQuoted("a\u{1B}[2J\u{9B}b\n")
        #expect(control == #""a\u{1b}[2J\u{9b}b\n""#)
    }
}
