// GPX: a real Garmin track, hand-made routes, and malformed files.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingInputs
import Testing

@Suite("GPX reader")
struct GPXReaderTests {
    private func read(_ text: String) throws -> GPXDocument {
        try GPXReader.read(data: Data(text.utf8), source: "test.gpx")
    }

    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func garminCarDriveAroundVisnjan() throws {
        let document = try GPXReader.read(path: TestData.shared("gpx/around-visnjan-with-car.gpx").path)
        #expect(document.tracks.count == 1)
        #expect(document.tracks.first?.name == "2020-12-18 07:24:29")
        #expect(document.tracks.first?.segments.count == 1)
        let fixes = document.observations.compactMap(\.fix)
        #expect(fixes.count == 104)
        #expect(document.untimedTrackPoints == 0)
        #expect(fixes.first?.timestamp == ISO8601Time.parse("2020-12-18T06:15:50Z"))
        #expect(fixes.last?.timestamp == ISO8601Time.parse("2020-12-18T06:24:24Z"))
        #expect(fixes.last.map { $0.timestamp.timeIntervalSince(fixes[0].timestamp) } == 514)
        #expect(fixes.last?.coordinate == Coordinate(latitude: 45.2733349521, longitude: 13.7139970623))
        #expect(fixes.last?.altitude == 210.67)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(fixes.allSatisfy { $0.coordinate.latitude > 45.27 && $0.coordinate.latitude < 45.29 })
        #expect(document.routes.isEmpty)
    }

    @Test func routesAreKeptApartFromFixes() throws {
        let document = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="45.0" lon="13.0"><name>ignored waypoint</name></wpt>
              <rte>
                <name>School run</name>
                <rtept lat="-27.5723" lon="153.0907"><name>Home</name></rtept>
                <rtept lat="-27.5750" lon="153.0950"><ele>40</ele><name>School &amp; gym</name></rtept>
              </rte>
              <trk><name>Recorded</name><trkseg>
                <trkpt lat="-27.5723" lon="153.0907"><ele>50.6</ele><time>2008-03-03T22:24:37Z</time><hdop>1.3</hdop></trkpt>
                <trkpt lat="-27.5724" lon="153.0908"></trkpt>
              </trkseg><trkseg>
                <trkpt lat="-27.5725" lon="153.0909"><time>2008-03-03T23:24:38.5+01:00</time></trkpt>
              </trkseg></trk>
            </gpx>
            """)
        #expect(document.routes.count == 1)
        let route = try #require(document.routes.first)
        #expect(route.name == "School run")
        #expect(route.points.map(\.name) == ["Home", "School & gym"])
        #expect(route.points.last?.elevation == 40)
        #expect(route.points.allSatisfy { $0.time == nil })
        #expect(document.tracks.first?.segments.map(\.count) == [2, 1])
        #expect(document.untimedTrackPoints == 1)
        let fixes = document.observations.compactMap(\.fix)
        #expect(fixes.count == 2, "route points and untimed track points are not fixes")
        #expect(fixes.first?.horizontalAccuracy == 1.3 * 19)
        #expect(fixes.last?.timestamp == ISO8601Time.parse("2008-03-03T22:24:38.5Z"))
    }

    @Test func gpx10WithoutNamespaceReadsToo() throws {
        let document = try read("""
            <gpx version="1.0"><trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>
            """)
        #expect(document.observations.count == 1)
    }

    @Test func malformedXMLNamesTheLine() {
        let text = "<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</trkseg>\n</trk>\n</gpx>\n"
        #expect {
            try read(text)
        } throws: { error in
            guard let error = error as? TrackReadError else { return false }
            return error.source == "test.gpx" && error.line == 5
                && error.message.hasPrefix("malformed XML: a closing tag does not match the open element")
        }
    }

    @Test func cutOffFileIsMalformed() {
        #expect {
            try read("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2001-01-01T00:00:00Z</time>")
        } throws: { error in
            (error as? TrackReadError)?.message.contains("ends early") == true
        }
    }

    @Test func wrongContentIsNamed() {
        #expect(throws: TrackReadError(source: "test.gpx", line: 1, message: "the root element is <kml>, not <gpx>")) {
            try read("<kml><Document/></kml>")
        }
        #expect(throws: TrackReadError(source: "test.gpx", line: 2, message: "<trkpt> has no lat or lon attribute")) {
            try read("<gpx><trk><trkseg>\n<trkpt lat=\"1\"/></trkseg></trk></gpx>")
        }
        #expect(throws: TrackReadError(source: "test.gpx", line: 1,
                                       message: "<trkpt lat=\"91\" lon=\"2\"> is not a valid position")) {
            try read("<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"2\"/></trkseg></trk></gpx>")
        }
        #expect(throws: TrackReadError(source: "test.gpx", line: 3,
                                       message: "<time> \"yesterday\" is not an ISO 8601 time")) {
            try read("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n\n<time>yesterday</time></trkpt></trkseg></trk></gpx>")
        }
        #expect(throws: TrackReadError(source: "test.gpx", message: "no <gpx> element")) { try read("") }
    }
}

/// An element with a runaway number of attributes is refused before XMLParser sees it (libxml2's duplicate check is
/// quadratic in an element's attributes); up to the limit, attributes are read past as before.
@Suite("GPX attribute limit")
struct GPXAttributeLimitTests {
    private func point(attributes: Int) -> Data {
        var text = "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\""
        for index in 0..<attributes { text += " a\(index)='\(index)'" }
        text += "><time>2024-05-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>\n"
        return Data(text.utf8)
    }

    @Test func manyAttributesOnOnePointAreRefusedWithTheLine() {
        let limit = 256
        #expect(throws: TrackReadError(source: "t.gpx", line: 3, message: "the element <trkpt> has more than \(limit) "
            + "attributes (a GPX element has a handful)")) {
            try GPXReader.read(data: point(attributes: 20_000), source: "t.gpx")
        }
        // lat and lon count too: 256 more attributes make 258, refused through TrackFile as well.
        #expect(throws: TrackReadError.self) { try TrackFile.read(data: point(attributes: limit), source: "t.gpx") }
    }

    @Test func attributesUpToTheLimitAndLookalikesInCommentsRead() throws {
        #expect(try GPXReader.read(data: point(attributes: 254), source: "t.gpx").observations.count == 1)
        let equalsInText = "<gpx><!-- " + String(repeating: "a=1 ", count: 1_000) + "--><![CDATA["
            + String(repeating: "b=2 ", count: 1_000) + "]]><trk><trkseg><trkpt lat=\"1\" lon=\"2\" x=\""
            + String(repeating: "=", count: 1_000) + "\"><time>2024-05-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>"
        #expect(try GPXReader.read(data: Data(equalsInText.utf8), source: "t.gpx").observations.count == 1)
    }
}
