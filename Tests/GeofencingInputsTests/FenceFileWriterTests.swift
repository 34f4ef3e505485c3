// Writing fence files: exact GeoJSON and CSV text, and round trips through the readers with identifiers that need
// quoting or escaping and numbers at every scale.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters
import Testing

@Suite("Fence file writing")
struct FenceFileWriterTests {
    private static let awkwardIdentifiers = [
        "plain", "with,comma", "with \"quotes\"", "\"quoted\"", "ünïcödé 🚏 站", "line\nbreak", "crlf\r\nbreak",
        " leading space", "trailing tab\t", "back\\slash", "control\u{1}\u{1F}", "stop_id", "id", "0x10", "-0",
        "\u{2028}separator", "'single'",
    ]

    /// Regions from a fixed seed: awkward identifiers, centres to the limits, radii on a log scale, optional fields.
    private static func regions(count: Int, seed: UInt64) -> [Region] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let identifier = index < awkwardIdentifiers.count ? awkwardIdentifiers[index] : "region-\(index)"
            let latitude = [85, -85, 0, 1e-7][safe: index - awkwardIdentifiers.count]
                ?? Double.random(in: -85...85, using: &generator)
            let longitude = [180, -180, -0.0, 179.9999999][safe: index - awkwardIdentifiers.count]
                ?? Double.random(in: -180...180, using: &generator)
            let radius = [1, 50_000][safe: index % 40] ?? exp(Double.random(in: 0...log(50_000), using: &generator))
            var region = Region(center: Coordinate(latitude: latitude, longitude: longitude),
                                        radius: min(max(radius, 1), 50_000), identifier: identifier)
            if index % 7 == 3 { region.notifyOnEntry = false }
            if index % 11 == 5 { region.notifyOnExit = false }
            if index % 5 == 2 { region.dwellTime = Double.random(in: 0...3600, using: &generator) }
            if index % 13 == 1 { region.hysteresis = [0, 2.5, 1e-3][index % 3] }
            return region
        }
    }

    @Test func csvText() throws {
        let regions = [
            Region(center: Coordinate(latitude: -27.467834, longitude: 153.019079), radius: 100,
                           identifier: "stop-1"),
            Region(center: Coordinate(latitude: 1e-7, longitude: -0.5), radius: 12.25, identifier: "a,\"b\""),
        ]
        #expect(try FenceFile.csv(regions) == #"""
            id,lat,lon,radius_m
            stop-1,-27.467834,153.019079,100
            "a,""b""",1e-07,-0.5,12.25

            """#)
        var extended = regions
        extended[1].notifyOnExit = false
        extended[1].dwellTime = 30
        #expect(try FenceFile.csv(extended) == #"""
            id,lat,lon,radius_m,notify_on_entry,notify_on_exit,dwell_s,hysteresis_m
            stop-1,-27.467834,153.019079,100,,,,
            "a,""b""",1e-07,-0.5,12.25,,false,30,

            """#)
        #expect(try FenceFile.csv([]) == "id,lat,lon,radius_m\n")
    }

    @Test func geojsonText() throws {
        let regions = [
            Region(center: Coordinate(latitude: -27.467834, longitude: 153.019079), radius: 100,
                           identifier: "stop-1"),
            Region(center: Coordinate(latitude: 52, longitude: 5.5), radius: 20, identifier: "q\"\n",
                           notifyOnEntry: false, hysteresis: 2),
        ]
        #expect(FenceFile.geojson(regions) == #"{"type":"FeatureCollection","features":["# + "\n"
            + #"{"type":"Feature","id":"stop-1","geometry":{"type":"Point","coordinates":[153.019079,-27.467834]},"#
            + #""properties":{"id":"stop-1","radius":100}},"# + "\n"
            + #"{"type":"Feature","id":"q\"\n","geometry":{"type":"Point","coordinates":[5.5,52]},"#
            + #""properties":{"id":"q\"\n","radius":20,"notify_on_entry":false,"hysteresis_m":2}}"# + "\n"
            + "]}\n")
        #expect(FenceFile.geojson([]) == "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        // Standard JSON that other tools read: Foundation finds the same members.
        let json = try JSONSerialization.jsonObject(with: Data(FenceFile.geojson(regions).utf8)) as? [String: Any]
        let features = json?["features"] as? [[String: Any]]
        #expect(features?.compactMap { $0["id"] as? String } == ["stop-1", "q\"\n"])
    }

    /// Exact equality: 17-digit doubles included, which JSONSerialization alone reads up to 6 ulps off (the reason
    /// for FenceGeoJSONExactNumbers; this test failed for 45 % of the regions without it).
    @Test(arguments: [FenceFileFormat.csv, .geojson])
    func roundTrip(_ format: FenceFileFormat) throws {
        let regions = Self.regions(count: 400, seed: 0xFE4CE)
        let text = format == .csv ? try FenceFile.csv(regions) : FenceFile.geojson(regions)
        let read = try FenceFile.parse(Data(text.utf8), name: "export")
        #expect(read.format == format)
        #expect(read.warnings.isEmpty)
        #expect(read.regions.count == regions.count)
        for (written, back) in zip(regions, read.regions) {
            #expect(written == back, "\(written.identifier.debugDescription)")
        }
        // Through a file and with CRLF line ends (as after a trip through a Windows editor), the same.
        let directory = try FenceFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("export").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try FenceFile.read(path: path).regions == regions)
        if format == .geojson {
            let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")  // only between features: strings are escaped
            #expect(try FenceFile.parse(Data(crlf.utf8), name: "crlf").regions == regions)
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
