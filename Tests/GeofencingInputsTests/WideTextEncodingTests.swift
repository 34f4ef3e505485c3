// UTF-16 and UTF-32 text: one rule for every reader, with or without a byte order mark, and one message.
import Foundation
import GeofencingInputs
import Testing

@Suite("UTF-16 and UTF-32 input")
struct WideTextEncodingTests {
    enum Encoding: String, CaseIterable, Sendable {
        case utf16LE = "UTF-16LE", utf16BE = "UTF-16BE", utf32LE = "UTF-32LE", utf32BE = "UTF-32BE"

        func encode(_ text: String, byteOrderMark: Bool) -> Data {
            let scalars = (byteOrderMark ? "\u{FEFF}" : "") + text
            var bytes: [UInt8] = []
            switch self {
            case .utf16LE, .utf16BE:
                for unit in scalars.utf16 {
                    let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                    bytes += self == .utf16LE ? pair : pair.reversed()
                }
            case .utf32LE, .utf32BE:
                for scalar in scalars.unicodeScalars {
                    let value = scalar.value
                    let quad = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
                    bytes += self == .utf32LE ? quad : quad.reversed()
                }
            }
            return Data(bytes)
        }
    }

    private static let geojson = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","#
        + #""geometry":{"type":"Point","coordinates":[153,-27.5]},"properties":{"radius":30}}]}"#
    private static let csv = "id,lat,lon,radius_m\na,-27.5,153,30\n"
    private static let gpx = #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2">"#
        + "<time>2024-05-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>"
    private static let gpsd = #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z","lat":1,"lon":2}"# + "\n"

    @Test(arguments: Encoding.allCases, [false, true])
    func fenceFilesAreRefusedWithAndWithoutAByteOrderMark(_ encoding: Encoding, byteOrderMark: Bool) {
        let message = "the file is \(encoding.rawValue) text; fence files are read as UTF-8 only (convert it: iconv -f "
            + "\(encoding.rawValue) -t UTF-8)"
        for text in [Self.geojson, Self.csv] {
            let error = FenceFileTestSupport.error(reading: encoding.encode(text, byteOrderMark: byteOrderMark),
                                                   name: "f")
            #expect(error?.description == "f: " + message)
        }
    }

    @Test(arguments: Encoding.allCases, [false, true])
    func tracksAreRefusedWithAndWithoutAByteOrderMark(_ encoding: Encoding, byteOrderMark: Bool) {
        let refusal = TrackReadError(source: "t", message: "the file is \(encoding.rawValue) text; tracks are read as "
            + "UTF-8 only (convert it: iconv -f \(encoding.rawValue) -t UTF-8)")
        for text in [Self.gpx, Self.gpsd] {
            let data = encoding.encode(text, byteOrderMark: byteOrderMark)
            #expect(throws: refusal) { try TrackFile.read(data: data, source: "t") }
        }
        #expect(throws: refusal) { try GPXReader.read(data: encoding.encode(Self.gpx, byteOrderMark: byteOrderMark),
                                                      source: "t") }
    }

    /// Binary data with zero bytes is not taken for wide text: it stays "not a fence file" / "binary data".
    @Test func binaryWithZeroBytesIsNotWideText() {
        let elf = Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00])
        #expect(FenceFileTestSupport.error(reading: elf, name: "f")?.message.hasPrefix("not a fence file") == true)
        let zeros = Data([0x00, 0x01, 0x00, 0x02])
        #expect(FenceFileTestSupport.error(reading: zeros, name: "f")?.message.hasPrefix("not a fence file") == true)
    }
}
