// SHA-256 against the FIPS 180-4 examples, and the page's policy names the hash of the page's script.
import Foundation
@testable import GeofencingMap
import Testing

@Suite("SHA-256 and the page's script policy")
struct SHA256Tests {
    private func hex(_ text: String) -> String {
        SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("FIPS 180-4 and NIST example digests")
    func vectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 55, 56 and 64 bytes: the padding's edge cases (one block, two blocks, a whole block of padding).
        #expect(hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test("the policy allows exactly the page's two scripts (Leaflet, then its own) and fetches nothing")
    func policyNamesTheScripts() throws {
        let html = MapDocument(title: "t", regions: []).html()
        var hashes: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<script>") {
            let close = try #require(rest.range(of: "</script>", range: open.upperBound..<rest.endIndex))
            hashes.append(Data(SHA256.digest(Array(rest[open.upperBound..<close.lowerBound].utf8))).base64EncodedString())
            rest = rest[close.upperBound...]
        }
        #expect(hashes.count == 2)
        let sources = hashes.map { "'sha256-\($0)'" }.joined(separator: " ")
        #expect(html.contains("content=\"default-src 'none'; script-src \(sources); style-src 'unsafe-inline'; img-src data:\""))
    }
}
