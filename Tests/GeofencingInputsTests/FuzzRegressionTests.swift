// Inputs that crashed a reader under libFuzzer (scripts/fuzz-inputs.sh), reduced by hand to what triggers the crash.
// Before the fix each one trapped the process; now each reads, or throws TrackReadError naming the file and line.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs
import GeofencingWriters

@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    private func gpx(_ bytes: [UInt8]) throws -> GPXDocument {
        try GPXReader.read(data: Data(bytes), source: "fuzz.gpx")
    }

    private func gpx(_ text: String) throws -> GPXDocument {
        try gpx(Array(text.utf8))
    }

    /// fuzz-gpx crash-23879d5b: a byte 0xFF in a tag name (`<rtept` became `<\xFFtept`) made FoundationXML's
    /// XMLParser trap on the name's UTF-8 decoding.
    @Test func invalidUTF8InAnElementNameIsAnErrorWithItsLine() {
        let bytes = Array("<gpx>\n<rte>\n<".utf8) + [0xFF] + Array("tept lat=\"1\" lon=\"2\"/></rte></gpx>\n".utf8)
        #expect(throws: TrackReadError(source: "fuzz.gpx", line: 3,
                                       message: "byte 0xFF is not valid UTF-8 (GPX is read as UTF-8 only)")) {
            try gpx(bytes)
        }
    }

    @Test func invalidUTF8InAnAttributeNameIsAnError() {
        let bytes = Array("<gpx a".utf8) + [0xC3, 0x28] + Array("=\"1\"/>".utf8)      // 0xC3 lacks its continuation
        #expect(throws: TrackReadError.self) { try gpx(bytes) }
    }

    /// fuzz-gpx crash-042ed246: a declared encoding is no safe exemption. Junk in the XML declaration's version made
    /// libxml2 ignore its `encoding="ISO-8859-1"` and read the file as UTF-8, so the tag name `<rtept\u{D8}` trapped
    /// XMLParser as above; a UTF-16 declaration without a byte order mark is read as UTF-8 too.
    @Test func aDeclaredEncodingDoesNotExemptInvalidUTF8() {
        let brokenDeclaration = Array("<?xml version=\"1.0".utf8) + [0x7F, 0x80, 0x80, 0xF0]
            + Array("\" encoding=\"ISO-8859-1\"?>\n<gpx><rte><rtept".utf8) + [0xD8]
            + Array(" lat=\"48.2\" lon=\"8.4\"/></rte></gpx>\n".utf8)
        #expect(throws: TrackReadError(source: "fuzz.gpx", line: 1,
                                       message: "byte 0x80 is not valid UTF-8 (GPX is read as UTF-8 only)")) {
            try gpx(brokenDeclaration)
        }
        let utf16Declared = Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><gpx><a".utf8) + [0xFF]
            + Array("/></gpx>".utf8)
        #expect(throws: TrackReadError.self) { try gpx(utf16Declared) }
    }

    /// Latin-1 files are refused with the place of the first offending byte, UTF-16 ones as such (see
    /// WideTextEncodingTests), not read.
    @Test func latin1AndUTF16AreRefusedWithTheLine() {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx><rte>".utf8)
            + Array("<rtept lat=\"48.2\" lon=\"8.4\">\n<name>M".utf8) + [0xFC]
            + Array("hle</name></rtept></rte></gpx>".utf8)
        #expect(throws: TrackReadError(source: "fuzz.gpx", line: 3,
                                       message: "byte 0xFC is not valid UTF-8 (GPX is read as UTF-8 only)")) {
            try gpx(latin1)
        }
        let utf16: [UInt8] = [0xFF, 0xFE] + "<gpx/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: TrackReadError(source: "fuzz.gpx", message: "the file is UTF-16LE text; tracks are read as "
                                           + "UTF-8 only (convert it: iconv -f UTF-16LE -t UTF-8)")) {
            try gpx(utf16)
        }
    }

    /// fuzz-gpx crash-d9da64a1: a processing instruction without data (the fuzzer made `<?oUTF-?>` of the XML
    /// declaration) made XMLParser take the length of a null pointer: a segmentation fault.
    @Test func aProcessingInstructionWithoutDataIsAnErrorWithItsLine() throws {
        #expect(throws: TrackReadError(source: "fuzz.gpx", line: 1, message: "the processing instruction <?oUTF-?> "
            + "has no data, which XMLParser cannot take (write <?oUTF- ?> or remove it)")) {
            try gpx("<?oUTF-?>8\"\n<gpx version=\"1.1\"/>\n")
        }
        #expect(throws: TrackReadError.self) { try gpx("<?xml?><gpx/>") }
        #expect(throws: TrackReadError(source: "fuzz.gpx", line: 2, message: "the processing instruction <?pi?> has no "
            + "data, which XMLParser cannot take (write <?pi ?> or remove it)")) {
            try gpx("<gpx>\n<?pi?></gpx>")
        }
        // With data, or with only white space after the target, a processing instruction is read past as before.
        #expect(try gpx("<?xml version=\"1.0\"?><?pi ?><gpx><?x-stylesheet href=\"a.xsl\"?></gpx>").tracks.isEmpty)
    }

    /// fuzz-track-file crash-ec37303d: an unclosed `<rte>` put the following `<trk>` inside it, where no track is
    /// started, and the track's `<name>` then indexed the last of no tracks.
    @Test func aTrackInsideARouteIsSkippedNotIndexed() throws {
        let document = try gpx("""
            <gpx><rte><name>School run</name>
            <trk><name>Morning</name>
            <trkseg><trkpt lat="1" lon="2"><time>2008-03-03T22:24:37Z</time></trkpt></trkseg></trk>
            <rtept lat="3" lon="4"/></rte></gpx>
            """)
        #expect(document.tracks.isEmpty)
        let routePoint = GPXPoint(coordinate: Coordinate(latitude: 3, longitude: 4))
        #expect(document.routes == [GPXDocument.Route(name: "School run", points: [routePoint])])
        #expect(document.observations.isEmpty)
    }

    /// The same through TrackFile, as the fuzzer found it: format detection sends the file to the GPX reader.
    @Test func aTrackInsideARouteThroughTrackFile() throws {
        let text = "<gpx><rte><trk><name>Morning</name></trk></rte></gpx>\n"
        let track = try TrackFile.read(data: Data(text.utf8), source: "fuzz.track")
        #expect(track.format == .gpx)
        #expect(track.observations.isEmpty)
    }

    /// Structural elements out of place elsewhere: inside an extension (namespaces are ignored, so `<x:trk>` is a
    /// `trk`), a route inside a route, a segment inside a point. Only the points in their GPX places are read.
    @Test func structuralElementsOutOfPlaceAreSkippedWithTheirContent() throws {
        let document = try gpx("""
            <gpx xmlns:x="urn:x"><trk><name>real</name><extensions><x:trk><x:name>fake</x:name><x:trkseg>
            <x:trkpt lat="9" lon="9"><x:time>2001-01-01T00:00:09Z</x:time></x:trkpt></x:trkseg></x:trk></extensions>
            <trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time><trkseg/></trkpt></trkseg></trk>
            <rte><rte><rtept lat="5" lon="5"/></rte><rtept lat="6" lon="6"/></rte></gpx>
            """)
        #expect(document.tracks.map(\.name) == ["real"])
        #expect(document.tracks.first?.segments.map(\.count) == [1])
        #expect(document.observations.compactMap(\.fix?.coordinate) == [Coordinate(latitude: 1, longitude: 2)])
        #expect(document.routes.map { $0.points.map(\.coordinate) } == [[Coordinate(latitude: 6, longitude: 6)]])
    }

    /// fuzz-fence-file crash-fe6c881e and crash-cfcfdcd6: identifiers read from CSV (a GTFS stop_id starting with
    /// U+FEFF, where `cat a.txt b.txt` left a byte order mark; a quoted id with U+FEFF after NUL characters) changed
    /// when written as GeoJSON and read back: Foundation's JSONSerialization drops a raw U+FEFF that starts a string or
    /// follows an escape. The GeoJSON writer now escapes U+FEFF, which JSONSerialization keeps.
    @Test func identifiersWithByteOrderMarksSurviveAGeoJSONExport() throws {
        let stops = Data("stop_id,stop_name,stop_lat,stop_lon\r\n".utf8) + Data([0xEF, 0xBB, 0xBF])
            + Data("1,\"Herschel Street\", -27.467834, 153.019079\r\n".utf8)
        let read = try FenceFile.parse(stops, name: "stops.txt", defaultRadius: 100).regions
        #expect(read.map(\.identifier) == ["\u{FEFF}1"])

        let center = Coordinate(latitude: -27.575, longitude: 153.095)
        // The fuzzer's identifier had NULs where these have U+0001 (an identifier may not hold a NUL); both are
        // escaped in JSON, so a U+FEFF after them follows an escape all the same.
        let identifiers = ["sate \"\u{1}\u{1}\u{FEFF}id,id,\n\u{1}A\"", "a\n\u{FEFF}b", "\u{FEFF}\u{FEFF}", "x\u{FEFF}"]
        let regions = read + identifiers.map { Region(center: center, radius: 40.5, identifier: $0) }
        let geojson = FenceFile.geojson(regions)
        #expect(!geojson.unicodeScalars.contains("\u{FEFF}"), "written escaped, as \\ufeff")
        #expect(try FenceFile.parse(Data(geojson.utf8), name: "f.geojson").regions == regions)
        #expect(try FenceFile.parse(Data(try FenceFile.csv(regions).utf8), name: "f.csv").regions == regions)
    }

    /// fuzz-fence-file crash-54300c95: the identifier `school, gate "\u{06E4}A"` (a quote followed by a combining
    /// mark) was written to CSV with that quote single, so the CSV did not read back: the writer doubled quotes with a
    /// String replacement, which compares Characters, and a quote with a combining mark is one Character.
    @Test func aQuoteFollowedByACombiningMarkIsDoubledInCSV() throws {
        let center = Coordinate(latitude: -27.575, longitude: 157.095)
        let region = Region(center: center, radius: 40.5, identifier: "school, gate \"\u{06E4}A\"")
        let csv = try FenceFile.csv([region])
        #expect(csv == "id,lat,lon,radius_m\n\"school, gate \"\"\u{06E4}A\"\"\",-27.575,157.095,40.5\n")
        #expect(try FenceFile.parse(Data(csv.utf8), name: "f.csv").regions == [region])
    }
}
