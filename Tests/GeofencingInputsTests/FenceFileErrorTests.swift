// Bad fence files: each kind of bad input is rejected as a whole, with the file, line or feature, field and reason.
import Foundation
import GeofencingInputs
import Testing

@Suite("Fence file errors")
struct FenceFileErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let file: String
        let data: Data
        let defaultRadius: Double
        let line: Int?
        let field: String?
        let description: String
        var testDescription: String { name }

        init(_ name: String, file: String, data: Data, defaultRadius: Double = 100, line: Int?, field: String?,
             _ description: String) {
            self.name = name
            self.file = file
            self.data = data
            self.defaultRadius = defaultRadius
            self.line = line
            self.field = field
            self.description = description
        }

        init(_ name: String, file: String, text: String, defaultRadius: Double = 100, line: Int?, field: String?,
             _ description: String) {
            self.init(name, file: file, data: Data(text.utf8), defaultRadius: defaultRadius, line: line, field: field,
                      description)
        }
    }

    private static let csvHeader = "id,lat,lon,radius_m\n"
    private static let polar =
        "latitude 86 is beyond ±85°, the limit of the geofence core (no fences nearer the poles)"

    /// A CSV file whose third line is `row`; the expected description is built from the field and message.
    private static func csv(_ name: String, _ row: String, field: String, _ message: String) -> Case {
        Case(name, file: "f.csv", text: csvHeader + "ok,1,2,3\n" + row + "\n", line: 3, field: field,
             "f.csv:3: field \(field): \(message)")
    }

    /// A FeatureCollection whose second feature is built from these parts (JSON text; nil leaves the member out).
    private static func geojson(
        _ name: String, id: String? = #""b""#, type: String = #""Feature""#,
        geometry: String = #"{"type":"Point","coordinates":[1,2]}"#, properties: String = #"{"radius":3}"#,
        field: String, at location: String = #"feature 2 (id "b")"#, _ message: String
    ) -> Case {
        let good = #"{"type":"Feature","id":"ok","geometry":{"type":"Point","coordinates":[1,2]},"#
            + #""properties":{"radius":5}}"#
        let bad = "{\"type\":\(type)," + (id.map { "\"id\":\($0)," } ?? "")
            + "\"geometry\":\(geometry),\"properties\":\(properties)}"
        let collection = #"{"type":"FeatureCollection","features":["# + good + "," + bad + "]}"
        return Case(name, file: "f.geojson", text: collection, line: nil, field: field,
                    "f.geojson: \(location): field \(field): \(message)")
    }

    static let cases: [Case] = [
        csv("latitude out of range", "a,-91,2,3", field: "lat",
            "latitude -91 is beyond ±85°, the limit of the geofence core (no fences nearer the poles)"),
        csv("latitude 86", "a,86,2,3", field: "lat", polar),
        csv("longitude out of range", "a,1,180.5,3", field: "lon", "longitude 180.5 is outside -180 ... 180°"),
        csv("NaN", "a,NaN,2,3", field: "lat", "'NaN' is not a number"),
        csv("infinity", "a,1,inf,3", field: "lon", "'inf' is not a number"),
        csv("overflowing exponent", "a,1e400,2,3", field: "lat", "'1e400' is not a finite number"),
        csv("hex", "a,0x10,2,3", field: "lat", "'0x10' is not a number"),
        csv("trailing junk", "a,12abc,2,3", field: "lat", "'12abc' is not a number"),
        csv("radius 0", "a,1,2,0", field: "radius_m", "radius 0 m is outside 1 ... 50000 m"),
        csv("radius 1e9", "a,1,2,1e9", field: "radius_m", "radius 1000000000 m is outside 1 ... 50000 m"),
        csv("radius abc", "a,1,2,abc", field: "radius_m", "'abc' is not a number"),
        csv("radius empty", "a,1,2,  ", field: "radius_m", "empty: a number is required"),
        csv("empty identifier", "\"\",1,2,3", field: "id", "the identifier is empty"),
        csv("blank identifier", "\"  \",1,2,3", field: "id", "the identifier is blank"),
        csv("unquoted empty identifier", " ,1,2,3", field: "id", "the identifier is empty"),
        csv("identifier with U+0000", "\"stop\u{0}1\",1,2,3", field: "id",
            "the identifier contains U+0000 (NUL) at byte 4, which no identifier may"),
        csv("missing cell", "a,1,2", field: "radius_m",
            "missing: the record has 3 fields, this column is field 4 of the header"),
        csv("unterminated quote", "\"a,1,2,3\nb,1,2,3", field: "id", "the quote opened on line 3 is never closed"),
        csv("text after a closing quote", "\"a\"b,1,2,3", field: "id",
            "text after the closing quote (quotes inside a quoted field are written twice: \"\")"),
        Case("bad boolean", file: "f.csv", text: "id,lat,lon,radius_m,notify_on_exit\nb,1,2,3,yes\n", line: 2,
             field: "notify_on_exit", "f.csv:2: field notify_on_exit: 'yes' is not true or false"),
        Case("missing column", file: "f.csv", text: "id,lat,lon\na,1,2\n", line: 1, field: "radius_m",
             "f.csv:1: field radius_m: missing column: a fence CSV header names id, lat, lon, radius_m"),
        Case("column twice", file: "f.csv", text: "id,lat,lon,radius_m,Lat\n", line: 1, field: "Lat",
             "f.csv:1: field Lat: the column appears twice in the header (fields 2 and 5)"),
        Case("invalid UTF-8 identifier", file: "f.csv",
             data: Data(csvHeader.utf8) + Data([0x61, 0xC3, 0x28]) + Data(",1,2,3\n".utf8), line: 2, field: "id",
             "f.csv:2: field id: not valid UTF-8"),
        Case("GTFS latitude", file: "stops.txt",
             text: "stop_id,stop_name,stop_lat,stop_lon\n1,a,-27.5,153\n2,\"b,\nc\", -27.5x,153\n", line: 3,
             field: "stop_lat", "stops.txt:3: field stop_lat: '-27.5x' is not a number"),
        Case("GTFS missing stop_lon", file: "stops.txt", text: "stop_id,stop_lat\n", line: 1, field: "stop_lon",
             "stops.txt:1: field stop_lon: missing column: a GTFS stops.txt header names stop_id, stop_lat, stop_lon"),
        Case("GTFS radius", file: "stops.txt", text: "stop_id,stop_lat,stop_lon\n1,2,3\n", defaultRadius: 0,
             line: nil, field: "radius",
             "stops.txt: field radius: the radius given for GTFS stops: radius 0 m is outside 1 ... 50000 m"),
        Case("unknown format", file: "f.txt", text: "hello, world\n1,2\n", line: nil, field: nil,
             "f.txt: not a fence file (line 1 is 'hello, world'); expected " + FenceFile.acceptedFormats),
        Case("unknown format after blank lines", file: "f.txt", text: "\r\n \n\"name\",x\nfoo\n", line: nil, field: nil,
             "f.txt: not a fence file (line 3 is '\"name\",x'); expected " + FenceFile.acceptedFormats),
        Case("binary", file: "f.bin", data: Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x0A, 0x00]), line: nil,
             field: nil,
             #"f.bin: not a fence file (line 1 is '\u{7f}ELF\u{2}\u{1}'); expected "# + FenceFile.acceptedFormats),
        Case("truncated JSON", file: "f.geojson", text: #"{"type":"FeatureCollection","features":[{"type":"Fea"#,
             line: 1, field: nil,
             "f.geojson:1: invalid JSON: Unexpected end of file during JSON parse. (is the file cut off?)"),
        Case("JSON syntax", file: "f.geojson", text: "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [},\n}",
             line: 3, field: nil, "f.geojson:3: invalid JSON at column 16: Invalid value around character 48."),
        Case("JSON but not a FeatureCollection", file: "f.json", text: #"{"type":"Feature"}"#, line: nil, field: nil,
             "f.json: not a fence file (JSON, but not a GeoJSON FeatureCollection: its \"type\" is 'Feature'); "
                + "expected " + FenceFile.acceptedFormats),
        Case("JSON array", file: "f.json", text: "[1, 2]", line: nil, field: nil,
             "f.json: not a fence file (a JSON array, not a GeoJSON FeatureCollection); expected "
                + FenceFile.acceptedFormats),
        geojson("MultiLineString feature", id: #""zone""#,
                geometry: #"{"type":"MultiLineString","coordinates":[[[0,0],[1,0]]]}"#, properties: "{}",
                field: "geometry.type", at: #"feature 2 (id "zone")"#,
                "MultiLineString geometries are not read: give each part as a feature of its own (Point with "
                    + "properties.radius, Polygon, MultiPolygon, or LineString with properties.half_width_m)"),
        geojson("Polygon position not a pair", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],7]]}"#,
                field: "geometry.coordinates[0][3]", "is 7, not a [longitude, latitude] pair in degrees"),
        geojson("Polygon position as strings",
                geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],["1","1"],[0,0]]]}"#,
                field: "geometry.coordinates[0][2]", "is an array, not a [longitude, latitude] pair in degrees"),
        geojson("Polygon ring too short", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#,
                field: "geometry.coordinates[0]",
                "is a ring of 3 positions; a ring needs at least 4 (3 corners and the first again at the end)"),
        geojson("Polygon hole too short",
                geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.5,0.5],[0.6,0.5]]]}"#,
                field: "geometry.coordinates[1]",
                "is a ring of 2 positions; a ring needs at least 4 (3 corners and the first again at the end)"),
        geojson("Polygon without rings", geometry: #"{"type":"Polygon","coordinates":[]}"#,
                field: "geometry.coordinates", "is an empty array: a polygon needs at least its outer ring"),
        geojson("Polygon ring not an array", geometry: #"{"type":"Polygon","coordinates":[{"a":1}]}"#,
                field: "geometry.coordinates[0]", "is an object, not an array of [longitude, latitude] positions"),
        geojson("Polygon vertex at latitude 86",
                geometry: #"{"type":"Polygon","coordinates":[[[0,80],[1,80],[1,86],[0,80]]]}"#,
                field: "geometry.coordinates[0][2]", polar),
        geojson("Polygon across the antimeridian",
                geometry: #"{"type":"Polygon","coordinates":[[[179,0],[-179,0],[-179,1],[179,0]]]}"#,
                field: "geometry", "the region shape is invalid: it spans more than 180 degrees of longitude (shapes "
                    + "across +-180 degrees are not supported: split them there)"),
        geojson("MultiPolygon empty", geometry: #"{"type":"MultiPolygon","coordinates":[]}"#,
                field: "geometry.coordinates", "is an empty array: a MultiPolygon needs at least one polygon"),
        geojson("MultiPolygon bad position",
                geometry: #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,0],[3,0],[3,"x"],[2,0]]]]}"#,
                field: "geometry.coordinates[1][0][2]", "is an array, not a [longitude, latitude] pair in degrees"),
        geojson("MultiPolygon part not rings", geometry: #"{"type":"MultiPolygon","coordinates":[[[0,0],[1,0]]]}"#,
                field: "geometry.coordinates[0][0][0]", "is 0, not a [longitude, latitude] pair in degrees"),
        geojson("LineString without half-width", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,
                properties: "{}", field: "properties.half_width_m",
                "missing: a LineString fence needs its half-width in metres (properties.half_width_m, the distance "
                    + "either side of the line, or properties.width_m, the full width)"),
        geojson("LineString with both widths", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,
                properties: #"{"half_width_m":5,"width_m":10}"#, field: "properties.width_m",
                "given together with properties.half_width_m: give one of them (half_width_m is the distance either "
                    + "side of the line, width_m the full width)"),
        geojson("LineString half-width 0.5", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,
                properties: #"{"half_width_m":0.5}"#, field: "properties.half_width_m",
                "half-width 0.5 m is outside 1 ... 50000 m"),
        geojson("LineString width 1", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,
                properties: #"{"width_m":1}"#, field: "properties.width_m",
                "width 1 m: half-width 0.5 m is outside 1 ... 50000 m"),
        geojson("LineString width as a string", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,
                properties: #"{"half_width_m":"5"}"#, field: "properties.half_width_m",
                "is the string '5', not a number of metres"),
        geojson("LineString of one position", geometry: #"{"type":"LineString","coordinates":[[0,0]]}"#,
                properties: #"{"half_width_m":5}"#, field: "geometry.coordinates",
                "has 1 position(s); a LineString needs at least 2"),
        geojson("LineString longitude", geometry: #"{"type":"LineString","coordinates":[[0,0],[181,1]]}"#,
                properties: #"{"half_width_m":5}"#, field: "geometry.coordinates[1]",
                "longitude 181 is outside -180 ... 180°"),
        geojson("GeoJSON latitude 86", geometry: #"{"type":"Point","coordinates":[10,86]}"#,
                field: "geometry.coordinates", polar),
        geojson("GeoJSON longitude", id: "7", geometry: #"{"type":"Point","coordinates":[-181,0]}"#,
                field: "geometry.coordinates", at: #"feature 2 (id "7")"#, "longitude -181 is outside -180 ... 180°"),
        geojson("GeoJSON radius as a string", properties: #"{"radius":"100"}"#, field: "properties.radius",
                "is the string '100', not a number of metres"),
        geojson("GeoJSON radius 1e9", properties: #"{"radius_m":1e9}"#, field: "properties.radius_m",
                "radius 1000000000 m is outside 1 ... 50000 m"),
        geojson("GeoJSON without radius", properties: #"{"radius":null}"#, field: "properties.radius",
                "missing: a Point fence needs its radius in metres (properties.radius or properties.radius_m)"),
        geojson("GeoJSON without identifier", id: nil, field: "id", at: "feature 2",
                "missing: a fence needs an identifier (the feature's \"id\", properties.id or properties.name)"),
        geojson("GeoJSON empty identifier", id: #""""#, field: "id", at: #"feature 2 (id "")"#,
                "the identifier is empty"),
        geojson("GeoJSON boolean identifier", id: "true", field: "id", at: "feature 2",
                "is a boolean; an identifier is a string or a number"),
        geojson("GeoJSON boolean as number", properties: #"{"radius":true}"#, field: "properties.radius",
                "is true, not a number of metres"),
        geojson("GeoJSON notify as number", properties: #"{"radius":3,"notify_on_exit":0}"#,
                field: "properties.notify_on_exit", "is 0, not true or false"),
        geojson("GeoJSON negative dwell", properties: #"{"radius":3,"dwell_s":-1}"#, field: "properties.dwell_s",
                "-1 s is negative or not finite"),
        geojson("GeoJSON null geometry", geometry: "null", field: "geometry",
                "missing: a fence needs a geometry (Point, Polygon, MultiPolygon or LineString)"),
        geojson("GeoJSON one coordinate", geometry: #"{"type":"Point","coordinates":[1]}"#,
                field: "geometry.coordinates", "is an array, not a [longitude, latitude] pair in degrees"),
        geojson("GeoJSON identifier with U+0000", id: #""b\u0000c""#, field: "id", at: "feature 2 (id \"b\\u{0}c\")",
                "the identifier contains U+0000 (NUL) at byte 1, which no identifier may"),
        geojson("GeoJSON not a feature", type: #""Point""#, field: "type", "is the string 'Point', not \"Feature\""),
    ]

    @Test(arguments: cases)
    func badInputIsRejectedWithItsPlace(_ bad: Case) {
        let error = FenceFileTestSupport.error(reading: bad.data, name: bad.file, defaultRadius: bad.defaultRadius)
        guard let error else {
            Issue.record("\(bad.name): read without error")
            return
        }
        #expect(error.description == bad.description)
        #expect(error.file == bad.file)
        #expect(error.line == bad.line)
        #expect(error.field == bad.field)
    }

    @Test func aBadRecordAfterGoodOnesReturnsNothing() {
        var text = Self.csvHeader
        for index in 0..<1000 { text += "stop-\(index),-27.\(index),153.\(index),50\n" }
        text += "late,-27,153,50001\n"
        #expect(throws: FenceFileError.self) { try FenceFileTestSupport.parse(text, name: "f.csv") }
    }

    @Test func longAndControlCharacterValuesAreShownShortAndEscaped() {
        let long = String(repeating: "9", count: 100) + "x"
        let error = FenceFileTestSupport.error(reading: Data((Self.csvHeader + "a,1,2,\"\(long)\"\n").utf8), name: "f")
        #expect(error?.message == "'" + String(repeating: "9", count: 40) + "…' is not a number")
        let control = Data((Self.csvHeader + "a,1,\"2\r\n\u{1}\",3\n").utf8)
        #expect(FenceFileTestSupport.error(reading: control, name: "f")?.message == "'2\\r\\n\\u{1}' is not a number")
    }
}
