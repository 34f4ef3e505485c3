// One entry point for every track format, recognised by content, with clear errors for anything else.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("Track files")
struct TrackFileTests {
    /// Writes `data` to a fresh temporary file and returns its path.
    private func temporaryFile(_ data: Data, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("GeofencingInputsTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    private func message(reading data: Data, name: String = "track") throws -> String? {
        let path = try temporaryFile(data, name: name)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        do {
            _ = try TrackFile.read(path: path)
            return nil
        } catch let error as TrackReadError {
            #expect(error.source == path, "the error names the file")
            return error.message
        }
    }

    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func everySharedNMEALogIsRecognised() throws {
        for (name, entry) in SharedNMEALogs.all {
            #expect(try TrackFormat.detect(in: entry.data, source: name) == .nmea, "\(name)")
        }
        let path = TestData.shared("nmea/haicom-305N.log").path
        let track = try TrackFile.read(path: path)
        #expect(track.format == .nmea)
        #expect(track.observations == SharedNMEALogs.all["haicom-305N.log"]?.log.observations)
        #expect(track.badLines == 0)
    }

    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func gpxIsRecognised() throws {
        let track = try TrackFile.read(path: TestData.shared("gpx/around-visnjan-with-car.gpx").path)
        #expect(track.format == .gpx)
        #expect(track.observations.count == 104)
        #expect(track.routes.isEmpty)
    }

    @Test func gpsdJSONIsRecognised() throws {
        let track = try TrackFile.read(path: TestData.fixture("nmealog-gpspipe.json").path)
        #expect(track.format == .gpsdJSON)
        #expect(track.observations.count == 150)
    }

    @Test func inMemoryTracksWithByteOrderMarksAndPrefixes() throws {
        let gpx = Data([0xEF, 0xBB, 0xBF]) + Data("""
            <?xml version="1.0"?>
            <!-- exported -->
            <gpx:gpx xmlns:gpx="http://www.topografix.com/GPX/1/1"><gpx:rte><gpx:rtept lat="1" lon="2"/></gpx:rte></gpx:gpx>
            """.utf8)
        let route = try TrackFile.read(data: gpx, source: "route.gpx")
        #expect(route.format == .gpx)
        #expect(route.routes.first?.points.count == 1)
        #expect(route.observations.isEmpty)
        let nmea = Data("avnav_server 0.6.0\r\n".utf8) + NMEATestText.log(NMEAReaderTests.brisbaneEpoch)
        #expect(try TrackFile.read(data: nmea, source: "log").format == .nmea)
        let json = Data(#"1714557601.123: {"class":"TPV","mode":1,"time":"2024-05-01T10:00:01Z"}"#.utf8)
        #expect(try TrackFile.read(data: json, source: "pipe").format == .gpsdJSON)
    }

    @Test func binaryFilesAreNamedAsSuch() throws {
        var generator = SplitMix64(seed: 42)
        let bytes = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(try message(reading: bytes, name: "firmware.bin")?.hasPrefix("looks like binary data") == true)
        #expect(try message(reading: Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]))?.hasPrefix("looks like binary data") == true)
    }

    @Test func emptyFilesAreNamedAsSuch() throws {
        #expect(try message(reading: Data()) == "the file is empty")
        #expect(try message(reading: Data(" \r\n\n\t".utf8)) == "the file holds only white space")
    }

    @Test func otherTextFormatsAreNamed() throws {
        #expect(try message(reading: Data("<kml xmlns=\"http://www.opengis.net/kml/2.2\"></kml>".utf8))
            == "looks like XML with root element <kml>, not GPX")
        #expect(try message(reading: Data(#"{"type":"FeatureCollection","features":[]}"#.utf8))
            == #"looks like JSON without gpsd reports (no "class" member; GeoJSON?), first line "{"type":"FeatureCollection","features":[…""#)
        #expect(try message(reading: Data("stop_id,stop_name,stop_lat,stop_lon\n1,Home, -27.5, 153.1\n".utf8))
            == #"is text without NMEA sentences (none with a valid checksum), GPX or gpsd JSON reports; first line "stop_id,stop_name,stop_lat,stop_lon""#)
        #expect(try message(reading: Data("$GPRMC,222437.000,A,2734.33926,S*00\n".utf8))?
            .hasPrefix("is text without NMEA sentences (none with a valid checksum)") == true)
    }

    @Test func missingFilesAreNamed() {
        #expect(throws: TrackReadError(source: "/nonexistent/track", message: "no such file")) {
            try TrackFile.read(path: "/nonexistent/track")
        }
    }

    @Test func malformedGPXKeepsItsLine() {
        #expect(throws: TrackReadError(source: "bad.gpx", line: 2, message: "<trkpt> has no lat or lon attribute")) {
            try TrackFile.read(data: Data("<gpx><trk><trkseg>\n<trkpt/></trkseg></trk></gpx>".utf8), source: "bad.gpx")
        }
    }
}
