// Fence files in other datums: centres converted to WGS-84 at read with the source datum kept, per-row and
// per-feature datums over the reader's, exports back in each region's datum, and errors that name the cell.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters
import Testing

@Suite("Fence files with datums")
struct FenceDatumTests {
    /// googollee/eviltransform's Beijing pair (go/transform_test.go): WGS-84 and its GCJ-02 image, ~570 m apart.
    static let beijingWGS84 = Coordinate(latitude: 39.911954, longitude: 116.377817)
    static let beijingGCJ02 = Coordinate(latitude: 39.91334545536069, longitude: 116.38404722455657)
    /// The Japanese datum origin in the Tokyo datum (GSI: 35°39'17.5148" N 139°44'40.5020" E).
    static let originTokyo = Coordinate(latitude: 35.654865222222, longitude: 139.744583888889)

    /// Within this many degrees (≈ 1 mm): the round-trip bounds are 0.2 mm (GCJ-02) and 1e-8 m (Tokyo).
    static let tolerance = 1e-8

    static func close(_ a: Coordinate, _ b: Coordinate) -> Bool {
        abs(a.latitude - b.latitude) <= tolerance && abs(a.longitude - b.longitude) <= tolerance
    }

    /// The error reading `text` with `datum` throws; nil when it reads.
    static func error(reading text: String, name: String, datum: Datum) -> FenceFileError? {
        do {
            _ = try FenceFile.parse(Data(text.utf8), name: name, datum: datum)
            return nil
        } catch {
            return error
        }
    }

    @Test func csvReadWithTheCommandsDatum() throws {
        let text = "id,lat,lon,radius_m\nbeijing,39.91334545536069,116.38404722455657,80\n"
        let contents = try FenceFile.parse(Data(text.utf8), name: "gcj.csv", datum: .gcj02)
        let region = try #require(contents.regions.first)
        #expect(region.sourceDatum == .gcj02)
        #expect(Self.close(region.center, Self.beijingWGS84), "\(region.center)")
        // Without a datum the same file is WGS-84, as before.
        let plain = try FenceFile.parse(Data(text.utf8), name: "gcj.csv")
        #expect(plain.regions.first?.center == Self.beijingGCJ02 && plain.regions.first?.sourceDatum == .wgs84)
    }

    /// Precedence: a row's datum cell wins over the command's; an empty cell takes the command's.
    @Test func csvDatumColumnOverridesPerRow() throws {
        let text = """
            id,lat,lon,radius_m,datum
            a,39.91334545536069,116.38404722455657,80,GCJ-02
            b,39.911954,116.377817,80,wgs84
            c,35.654865222222,139.744583888889,100,
            """
        let regions = try FenceFile.parse(Data(text.utf8), name: "mixed.csv", datum: .tokyo).regions
        #expect(regions.map(\.sourceDatum) == [.gcj02, .wgs84, .tokyo])
        #expect(Self.close(regions[0].center, Self.beijingWGS84))
        #expect(regions[1].center == Self.beijingWGS84)
        #expect(regions[2].center == Datum.tokyo.toWGS84(Self.originTokyo))
    }

    @Test func geojsonFeatureDatumOverridesTheReaders() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[116.38404722455657,39.91334545536069]},
             "properties":{"radius":80,"datum":"gcj02"}},
            {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[139.744583888889,35.654865222222]},
             "properties":{"radius":100,"datum":null}}
            ]}
            """
        let regions = try FenceFile.parse(Data(text.utf8), name: "f.geojson", datum: .tokyo).regions
        #expect(regions.map(\.sourceDatum) == [.gcj02, .tokyo])
        #expect(Self.close(regions[0].center, Self.beijingWGS84))
        #expect(regions[1].center == Datum.tokyo.toWGS84(Self.originTokyo))
    }

    /// GTFS has no datum column; the command's datum applies to every stop.
    @Test func gtfsStopsTakeTheCommandsDatum() throws {
        let text = "stop_id,stop_name,stop_lat,stop_lon\n1,Tiananmen,39.91334545536069,116.38404722455657\n"
        let region = try #require(try FenceFile.parse(Data(text.utf8), name: "stops.txt", defaultRadius: 60,
                                                      datum: .gcj02).regions.first)
        #expect(region.sourceDatum == .gcj02 && Self.close(region.center, Self.beijingWGS84))
    }

    /// Regions from three datums, written and read back: the same regions (centres within the round-trip bound), and
    /// the written coordinates are the ones the regions were given in. Read back with another command datum too:
    /// every row and feature names its datum, so that does not change them.
    @Test(arguments: ["geojson", "csv"])
    func exportsWriteEachRegionInItsSourceDatum(format: String) throws {
        let regions = [
            Region(center: Self.beijingGCJ02, in: .gcj02, radius: 80, identifier: "beijing"),
            Region(center: Self.originTokyo, in: .tokyo, radius: 100, identifier: "origin",
                           dwellTime: 30),
            Region(center: Coordinate(latitude: -27.4698, longitude: 153.0251), radius: 50, identifier: "bne"),
        ]
        let text = format == "csv" ? try FenceFile.csv(regions) : FenceFile.geojson(regions)
        // The GCJ-02 centre as given (to 1e-6°; the WGS-84 centre differs in the third decimal), not the WGS-84 one.
        #expect(text.contains("39.913345") && text.contains("116.384047"), "\(text)")
        #expect(!text.contains("39.911954"), "\(text)")
        #expect(text.contains(format == "csv" ? ",gcj02" : "\"datum\":\"gcj02\""))
        #expect(text.contains(format == "csv" ? ",wgs84" : "\"datum\":\"wgs84\""))
        for readerDatum in [Datum.wgs84, .tokyo] {
            let back = try FenceFile.parse(Data(text.utf8), name: "export.\(format)", datum: readerDatum).regions
            #expect(back.count == regions.count)
            for (read, original) in zip(back, regions) {
                #expect(read.sourceDatum == original.sourceDatum, "\(read.identifier)")
                #expect(Self.close(read.center, original.center), "\(read.identifier): \(read.center)")
                var same = read
                same.shape = original.shape
                #expect(same == original, "\(read.identifier): every other field equal")
            }
        }
    }

    /// WGS-84-only exports are what they were before datums: no datum column or property.
    @Test func wgs84ExportsAreUnchanged() throws {
        let regions = [Region(center: Self.beijingWGS84, radius: 80, identifier: "b")]
        #expect(try FenceFile.csv(regions) == "id,lat,lon,radius_m\nb,39.911954,116.377817,80\n")
        #expect(!FenceFile.geojson(regions).contains("datum"))
    }

    @Test func badDatumsNameTheLineOrFeatureAndField() throws {
        let csv = "id,lat,lon,radius_m,datum\na,39.9,116.4,80,wgs84\nb,39.9,116.4,80,bd09\n"
        let csvError = try #require(FenceFileTestSupport.error(reading: Data(csv.utf8), name: "bad.csv"))
        #expect(csvError.line == 3 && csvError.field == "datum", "\(csvError)")
        #expect(csvError.description == "bad.csv:3: field datum: 'bd09' is not a datum: expected wgs84, gcj02 or tokyo")

        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[116.4,39.9]},
             "properties":{"radius":80,"datum":5}}]}
            """
        let jsonError = try #require(FenceFileTestSupport.error(reading: Data(geojson.utf8), name: "bad.geojson"))
        #expect(jsonError.feature == 1 && jsonError.field == "properties.datum", "\(jsonError)")
        #expect(jsonError.description.contains("is 5, not a string naming a datum"), "\(jsonError)")
    }

    /// A centre at the limit in the Tokyo datum that the shift carries past ±85° is refused, naming both values.
    @Test func shiftPastTheLatitudeLimitIsRefused() throws {
        // Near the pole the Tokyo shift moves latitude by ~0.005° (the ΔZ of 680 m): 84.999° goes past 85°.
        let shifted = Datum.tokyo.toWGS84(Coordinate(latitude: 84.999, longitude: 0))
        #expect(shifted.latitude > 85)
        let text = "id,lat,lon,radius_m\nnorth,84.999,0,100\n"
        let error = try #require(Self.error(reading: text, name: "n.csv", datum: .tokyo))
        #expect(error.line == 2 && error.field == "lat", "\(error)")
        #expect(error.message.contains("in tokyo is") && error.message.contains("in WGS-84, beyond ±85°"), "\(error)")
    }
}
