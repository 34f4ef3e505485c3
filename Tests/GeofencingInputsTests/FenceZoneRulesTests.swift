// Zone rules in fence files: speed limits and schedules read from GeoJSON properties and CSV columns, written back
// to equal regions, and bad values refused with the fence and the field named.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters
import Testing

@Suite("Fence files: zone rules")
struct FenceZoneRulesTests {
    private static func zoned() throws -> [Region] {
        var school = Region(center: Coordinate(latitude: -27.4698, longitude: 153.0251), radius: 150,
                            identifier: "school, Brisbane")
        school.speedLimit = SpeedLimit(kilometresPerHour: 40)
        school.schedule = try Schedule(parsing: "Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00")
        var highway = Region(center: Coordinate(latitude: -27.5, longitude: 153.1), radius: 2000, identifier: "M1")
        highway.speedLimit = SpeedLimit(kilometresPerHour: 110, toleranceKilometresPerHour: 8.5, duration: 12)
        var market = Region(center: Coordinate(latitude: 52.52, longitude: 13.405), radius: 80, identifier: "market")
        market.schedule = try Schedule(parsing: "Europe/Berlin Sa 22:00-26:00")
        let plain = Region(center: Coordinate(latitude: 0, longitude: 0), radius: 10, identifier: "plain")
        return [school, highway, market, plain]
    }

    @Test("GeoJSON and CSV round trips keep the speed limits and schedules")
    func roundTrips() throws {
        let regions = try Self.zoned()
        let geojson = FenceFile.geojson(regions)
        #expect(geojson.contains("\"speed_limit_kmh\":40,\"speed_tolerance_kmh\":5,\"speed_duration_s\":5"))
        #expect(geojson.contains("\"schedule\":\"Australia/Brisbane Mo-Fr 07:00-09:00; Mo-Fr 14:30-16:00\""))
        #expect(try FenceFile.parse(Data(geojson.utf8), name: "zones.geojson").regions == regions)
        let csv = try FenceFile.csv(regions)
        #expect(csv.hasPrefix("id,lat,lon,radius_m,speed_limit_kmh,speed_tolerance_kmh,speed_duration_s,schedule\n"))
        #expect(try FenceFile.parse(Data(csv.utf8), name: "zones.csv").regions == regions)
    }

    @Test("defaults: a limit alone gets 5 km/h for 5 s; the properties are optional and null is absent")
    func defaults() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[153,-27]},
             "properties":{"id":"a","radius":50,"speed_limit_kmh":30,"schedule":null}}]}
            """
        let region = try #require(try FenceFile.parse(Data(text.utf8), name: "a.geojson").regions.first)
        #expect(region.speedLimit == SpeedLimit(kilometresPerHour: 30, toleranceKilometresPerHour: 5, duration: 5))
        #expect(region.schedule == nil)
        let csv = "id,lat,lon,radius_m,speed_limit_kmh,schedule\nb,-27,153,50,,\n"
        let plain = try #require(try FenceFile.parse(Data(csv.utf8), name: "b.csv").regions.first)
        #expect(plain.speedLimit == nil && plain.schedule == nil)
    }

    private func geojsonError(_ properties: String) -> FenceFileError? {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[153,-27]},
             "properties":{"id":"zone-7","radius":50,\(properties)}}]}
            """
        return #expect(throws: FenceFileError.self) { try FenceFile.parse(Data(text.utf8), name: "bad.geojson") }
    }

    @Test("bad zone rules are refused with the fence and the field named", arguments: [
        ("\"speed_limit_kmh\":-30", "properties.speed_limit_kmh", "outside 0 km/h < limit <= 400 km/h"),
        ("\"speed_limit_kmh\":5000", "properties.speed_limit_kmh", "outside"),
        ("\"speed_limit_kmh\":\"50\"", "properties.speed_limit_kmh", "not a number"),
        ("\"speed_limit_kmh\":50,\"speed_tolerance_kmh\":-2", "properties.speed_tolerance_kmh", "outside 0 ... 100"),
        ("\"speed_limit_kmh\":50,\"speed_duration_s\":99999", "properties.speed_duration_s", "outside 0 ... 3600 s"),
        ("\"speed_duration_s\":3", "properties.speed_duration_s", "given without speed_limit_kmh"),
        ("\"schedule\":\"Mars/Base Mo 07:00-09:00\"", "properties.schedule", "unknown time zone \"Mars/Base\""),
        ("\"schedule\":\"Europe/Berlin Mo 09:00-07:00\"", "properties.schedule", "ends before it starts"),
        ("\"schedule\":7", "properties.schedule", "not a string"),
    ])
    func badGeoJSON(properties: String, field: String, message: String) throws {
        let error = try #require(geojsonError(properties))
        #expect(error.field == field, "\(error)")
        #expect(error.featureIdentifier == "zone-7")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("bad zone rules in CSV name the line and the column")
    func badCSV() throws {
        for (row, field, message) in [
            ("a,-27,153,50,-1,", "speed_limit_kmh", "outside"),
            ("a,-27,153,50,abc,", "speed_limit_kmh", "not a number"),
            ("a,-27,153,50,,Nowhere/Land Mo 07:00-08:00", "schedule", "unknown time zone"),
            ("a,-27,153,50,50,Europe/Berlin Mo 23:00-01:00", "schedule", "ends before it starts"),
        ] {
            let text = "id,lat,lon,radius_m,speed_limit_kmh,schedule\nok,-27,153,50,50,\n\(row)\n"
            let error = try #require(#expect(throws: FenceFileError.self) {
                try FenceFile.parse(Data(text.utf8), name: "bad.csv")
            })
            #expect(error.line == 3 && error.field == field, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
