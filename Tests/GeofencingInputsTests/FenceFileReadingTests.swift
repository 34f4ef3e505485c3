// Reading fence files in each format: GeoJSON, CSV, GTFS stops.txt; byte order marks, CRLF, quoted fields spanning
// lines, duplicates, empty files; the real South East Queensland stops.txt.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite("Fence file reading")
struct FenceFileReadingTests {
    private typealias Support = FenceFileTestSupport

    @Test func csvInAnyColumnOrderWithExtraColumnsAndSpaces() throws {
        let fences = try Support.parse("""
            name,radius_m , LON,id,lat
            King George Square,100,153.02397,stop-10,-27.468003
            "Queen St, platform 2" ,  250.5 , 153.025 ,"stop 2, east", -27.47
            ignored, 1 ,-180,"x",85
            """, name: "f.csv")
        #expect(fences.format == .csv)
        #expect(fences.warnings.isEmpty)
        #expect(fences.regions == [
            Region(center: Coordinate(latitude: -27.468003, longitude: 153.02397), radius: 100,
                           identifier: "stop-10"),
            Region(center: Coordinate(latitude: -27.47, longitude: 153.025), radius: 250.5,
                           identifier: "stop 2, east"),
            Region(center: Coordinate(latitude: 85, longitude: -180), radius: 1, identifier: "x"),
        ])
    }

    @Test func csvOptionalColumns() throws {
        let fences = try Support.parse("""
            id,lat,lon,radius_m,notify_on_entry,notify_on_exit,dwell_s,hysteresis_m
            a,1,2,30,FALSE,1,,
            b,1,2,30,,0,120,2.5
            """, name: "f.csv")
        #expect(fences.regions.map(\.notifyOnEntry) == [false, true])
        #expect(fences.regions.map(\.notifyOnExit) == [true, false])
        #expect(fences.regions.map(\.dwellTime) == [nil, 120])
        #expect(fences.regions.map(\.hysteresis) == [nil, 2.5])
    }

    @Test func geojsonPointFeatures() throws {
        let fences = try Support.parse("""
            {"type": "FeatureCollection", "name": "stops", "features": [
              {"type": "Feature", "id": "stop-1",
               "geometry": {"type": "Point", "coordinates": [153.019079, -27.467834]},
               "properties": {"radius": 100, "name": "Herschel Street"}},
              {"type": "Feature", "id": 17, "geometry": {"type": "Point", "coordinates": [-0.1276, 51.5072, 35.0]},
               "properties": {"radius_m": 25.5, "notify_on_entry": false, "dwell_s": 60, "hysteresis_m": 3}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [180, 0]},
               "properties": {"id": "from-properties", "radius": 50000, "notify_on_exit": false, "dwell_s": null}}
            ]}
            """, name: "f.geojson")
        #expect(fences.format == .geojson)
        #expect(fences.warnings.isEmpty)
        #expect(fences.regions == [
            Region(center: Coordinate(latitude: -27.467834, longitude: 153.019079), radius: 100,
                           identifier: "stop-1"),
            Region(center: Coordinate(latitude: 51.5072, longitude: -0.1276), radius: 25.5, identifier: "17",
                           notifyOnEntry: false, dwellTime: 60, hysteresis: 3),
            Region(center: Coordinate(latitude: 0, longitude: 180), radius: 50_000,
                           identifier: "from-properties", notifyOnExit: false),
        ])
    }

    @Test func gtfsStopsWithQuotedNamesSpacesAndNodesWithoutCoordinates() throws {
        let stops = #"""
            stop_id,stop_code,stop_name,stop_desc,stop_lat,stop_lon,zone_id,location_type,parent_station
            1,000001,"Herschel Street Stop 1 near North Quay",, -27.467834, 153.019079,1,0,
            place_ROMST,,"Roma Street station, platform 1, ""main""",, -27.465, 153.0185,1,1,
            node-1,,"Generic node",,,,,3,place_ROMST
            10,000010,"Ann Street Stop 10",, -27.468003, 153.023970,1,0,
            """#
        let fences = try Support.parse(stops, name: "stops.txt", defaultRadius: 80)
        #expect(fences.format == .gtfs)
        #expect(fences.regions.map(\.identifier) == ["1", "place_ROMST", "10"])
        #expect(fences.regions.allSatisfy { $0.radius == 80 })
        #expect(fences.regions[0].center == Coordinate(latitude: -27.467834, longitude: 153.019079))
        #expect(fences.warnings.map(\.description) == [
            "stops.txt:4: skipped a GTFS stop without coordinates (location_type 3 or 4)",
        ])
    }

    @Test func byteOrderMarkAndCRLFLineEndings() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        let gtfs = bom
            + Data("stop_id,stop_name,stop_lat,stop_lon\r\n7,\"A, B\",-27.5,153.1\r\n\r\n8,C,-27.6,153.2\r\n".utf8)
        let stops = try FenceFile.parse(gtfs, name: "stops.txt")
        #expect(stops.format == .gtfs)
        #expect(stops.regions.map(\.identifier) == ["7", "8"])
        #expect(stops.regions.map(\.center.longitude) == [153.1, 153.2])

        let csv = bom + Data("id,lat,lon,radius_m\r\na,1,2,3\r\nb,1,2,3\r\nc,1,2,abc\r\n".utf8)
        let error = Support.error(reading: csv, name: "f.csv")
        #expect(error?.line == 4, "CRLF counts as one line end")
        #expect(error?.field == "radius_m")

        let geojson = bom + Data("{\"type\":\"FeatureCollection\",\r\n\"features\":[]}\r\n".utf8)
        #expect(try FenceFile.parse(geojson, name: "f.geojson").format == .geojson)
        let brokenJSON = bom + Data("{\"type\":\"FeatureCollection\",\r\n\"features\":[\r\n  x]}".utf8)
        #expect(Support.error(reading: brokenJSON, name: "f.geojson")?.description
                == "f.geojson:3: invalid JSON at column 3: Invalid value around character 46.")
    }

    @Test func quotedFieldsSpanningLinesKeepPhysicalLineNumbers() throws {
        let text = "id,lat,lon,radius_m\n\"two\nlines\",1,2,3\n\"three\r\nlines\nhere\",1,2,3\nd,1,2,-5\n"
        #expect(Support.error(reading: Data(text.utf8), name: "f.csv")?.line == 7)
        let good = try Support.parse(text.replacingOccurrences(of: "d,1,2,-5", with: "d,1,2,5"), name: "f.csv")
        #expect(good.regions.map(\.identifier) == ["two\nlines", "three\r\nlines\nhere", "d"])
    }

    @Test func duplicatesReplaceTheEarlierRegionInItsPlaceWithAWarning() throws {
        let fences = try Support.parse("""
            id,lat,lon,radius_m
            a,1,1,10
            b,2,2,20
            a,3,3,30
            c,4,4,40
            a,5,5,50
            """, name: "f.csv")
        #expect(fences.regions.map(\.identifier) == ["a", "b", "c"])
        #expect(fences.regions.map(\.radius) == [50, 20, 40])
        #expect(fences.warnings.map(\.description) == [
            "f.csv:4: duplicate identifier \"a\" replaces line 2",
            "f.csv:6: duplicate identifier \"a\" replaces line 4",
        ])
        #expect(fences.warnings.first?.line == 4)

        let geojson = try Support.parse("""
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[1,1]},"properties":{"radius":10}},
             {"type":"Feature","id":"y","geometry":{"type":"Point","coordinates":[2,2]},"properties":{"radius":20}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[3,3]},"properties":{"id":"x","radius":30}}]}
            """, name: "f.geojson")
        #expect(geojson.regions.map(\.radius) == [30, 20])
        #expect(geojson.warnings.map(\.description)
                == ["f.geojson: feature 3: duplicate identifier \"x\" replaces feature 1"])
    }

    @Test func emptyFilesAndHeadersOnlyGiveNoRegionsAndAWarning() throws {
        let cases: [(text: String, format: FenceFileFormat, warning: String)] = [
            ("", .csv, "e: no fences: the file is empty"),
            ("\u{FEFF} \r\n\t\n", .csv, "e: no fences: the file is empty"),
            ("id,lat,lon,radius_m\n", .csv, "e: no fences: the file holds only a header"),
            ("\n\nstop_id,stop_lat,stop_lon\r\n\r\n", .gtfs, "e: no fences: the file holds only a header"),
            (#"{"type":"FeatureCollection","features":[]}"#, .geojson,
             "e: no fences: the FeatureCollection has no features"),
        ]
        for (text, format, warning) in cases {
            let fences = try Support.parse(text, name: "e")
            #expect(fences.regions.isEmpty)
            #expect(fences.format == format, "\(text.debugDescription)")
            #expect(fences.warnings.map(\.description) == [warning], "\(text.debugDescription)")
        }
    }

    @Test func readingFromPathsNamesThePathAndTheSystemReason() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("fences.csv").path
        try Data("id,lat,lon,radius_m\na,1,2,3\n".utf8).write(to: URL(fileURLWithPath: path))
        let fences = try FenceFile.read(path: path)
        #expect(fences.regions.map(\.identifier) == ["a"])

        let missing = directory.appendingPathComponent("absent.csv").path
        #expect(throws: FenceFileError(file: missing, message: "cannot open: No such file or directory")) {
            try FenceFile.read(path: missing)
        }
        #expect(throws: FenceFileError(file: directory.path, message: "cannot read: Is a directory")) {
            try FenceFile.read(path: directory.path)
        }
    }

    @Test(.enabled(if: SharedData.isAvailable("pois/seq-stops.txt"), SharedData.skipMessage("pois/seq-stops.txt")))
    func realSouthEastQueenslandStops() throws {
        let path = SharedData.url("pois/seq-stops.txt").path
        let fences = try FenceFile.read(path: path, defaultRadius: 60)
        #expect(fences.format == .gtfs)
        #expect(fences.regions.count == 12_866)
        #expect(fences.warnings.isEmpty)
        #expect(fences.regions.first == Region(
            center: Coordinate(latitude: -27.467834, longitude: 153.019079), radius: 60, identifier: "1"))
        #expect(Set(fences.regions.map(\.identifier)).count == 12_866)
        // SOURCES.md: bbox [lon 152.124238..153.543374, lat -28.172196..-26.159292].
        #expect(fences.regions.map(\.center.latitude).min() == -28.172196)
        #expect(fences.regions.map(\.center.latitude).max() == -26.159292)
        #expect(fences.regions.map(\.center.longitude).min() == 152.124238)
        #expect(fences.regions.map(\.center.longitude).max() == 153.543374)
        // Every stop can be monitored as read.
        let monitor = try RegionMonitor()
        for region in fences.regions { try monitor.startMonitoringOrThrow(for: region) }
        #expect(monitor.monitoredRegions.count == 12_866)
    }
}
