// The streaming GeoJSON reader's JSON: syntax errors worded and placed as Foundation's JSONSerialization (the parser
// the reader replaced) words them, numeric identifiers shown as it showed them, duplicate keys and member order as a
// parser of the whole document reads them, and RFC 8259 strictness.
import Foundation
import Testing
@testable import GeofencingInputs

@Suite("Fence file JSON")
struct FenceJSONReaderTests {
    private static let point = #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[153,-27.5]},"#
        + #""properties":{"radius":30}}"#

    private func collection(_ features: String) -> Data {
        Data((#"{"type":"FeatureCollection","features":["# + features + "]}").utf8)
    }

    private func foundationReason(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
    }

    @Test(arguments: ["01", "-", "1.", "1e", "1e+", ".5", "+1", "-a", "0.5.5", #""a\x""#, #""\u12""#, #""\u00zz""#,
                      #""\udc00""#, "\"a\u{1}\"", #""\ud800""#, #""\ud800\u0041""#, "1 2", "[1,,2]", "nx", "trux",
                      "truex", "1e400", "-1.5e309", "{\"a\" 1}", "{1:2}", "{\"a\":1 \"b\"}", "\"abc"])
    func syntaxErrorsAreWordedAsFoundationWordsThem(_ value: String) throws {
        let data = collection(value)
        let reason = try #require(foundationReason(data))
        let error = try #require(FenceFileTestSupport.error(reading: data, name: "f.geojson"))
        #expect(error.message.hasSuffix(reason) || error.message.contains(reason + " (is the file cut off?)"),
                "\(error.message) / \(reason)")
    }

    @Test func invalidUTF8InAStringIsPlacedAsFoundationPlacesIt() throws {
        let data = Data(#"{"type":"FeatureCollection","features":["ab\u0041c"#.utf8) + Data([0xFF])
            + Data(#"d"]}"#.utf8)
        let reason = try #require(foundationReason(data))
        #expect(FenceFileTestSupport.error(reading: data, name: "f")?.message.hasSuffix(reason) == true)
    }

    @Test func nestingDeeperThan512IsRefused() throws {
        let deep = String(repeating: "[", count: 600)
        let error = try #require(FenceFileTestSupport.error(reading: collection(deep), name: "f"))
        #expect(error.message.contains("Too many nested arrays or dictionaries around character"))
    }

    @Test(arguments: ["17", "-0", "1.5", "1e2", "1e21", "1.25e-5", "12345678901234567890", "0.30000000000000004",
                      "1.7976931348623157e308", "100.0000000000000000001", "-9223372036854775809"])
    func numericIdentifiersReadAsFoundationShowedThem(_ number: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data("[\(number)]".utf8)) as? [Any])
        let expected = try #require(object.first as? NSNumber).stringValue
        let feature = Self.point.replacingOccurrences(of: #""id":"a""#, with: #""id":\#(number)"#)
        #expect(try FenceFile.parse(collection(feature), name: "f").regions.map(\.identifier) == [expected])
    }

    @Test func membersInAnyOrderAndTheLastOfADuplicateKeyCount() throws {
        let featuresFirst = #"{"features":["# + Self.point + #"],"type":"FeatureCollection"}"#
        #expect(try FenceFile.parse(Data(featuresFirst.utf8), name: "f").regions.map(\.identifier) == ["a"])
        let twice = Self.point.replacingOccurrences(of: #""radius":30"#, with: #""radius":30,"radius":40"#)
        #expect(try FenceFile.parse(collection(twice), name: "f").regions.map(\.radius) == [40])
        let retyped = #"{"type":"FeatureCollection","features":[],"type":"Feature"}"#
        #expect(FenceFileTestSupport.error(reading: Data(retyped.utf8), name: "f")?.message.contains(
            "its \"type\" is 'Feature'") == true)
        let refeatured = #"{"type":"FeatureCollection","features":[{"bad":1}],"features":["# + Self.point + "]}"
        #expect(try FenceFile.parse(Data(refeatured.utf8), name: "f").regions.map(\.identifier) == ["a"])
    }

    /// RFC 8259 has no trailing commas (Foundation took them); a syntax error after a bad feature wins over it, as a
    /// parser of the whole document reports it.
    @Test func strictnessAndTheOrderOfErrors() {
        #expect(FenceFileTestSupport.error(reading: collection(Self.point + ","), name: "f")?.message
                == "invalid JSON at column \(42 + Self.point.count): Invalid value around character "
                    + "\(41 + Self.point.count).")
        let badThenBroken = collection(#"{"type":"Feature"},"# + Self.point + ",x")
        #expect(FenceFileTestSupport.error(reading: badThenBroken, name: "f")?.message.hasPrefix("invalid JSON") == true)
    }
}
