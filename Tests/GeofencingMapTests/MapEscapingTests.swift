// Region identifiers and titles are data: none of them can add markup or script to the page.
import Foundation
@testable import GeofencingMap
import Testing

@Suite("Map escaping")
struct MapEscapingTests {
    @Test("hostile identifiers and title stay text: no extra elements, same strings after parsing")
    func hostileIdentifiers() throws {
        let identifiers = MapTestData.hostileIdentifiers
        let drive = MapTestData.drive(identifiers: identifiers)
        let title = "</title><script>alert(3)</script>\"<b>"
        let html = MapDocument(title: title, regions: drive.regions, track: drive.track, events: drive.events).html()
        // Exactly the page's own four script elements (data, tiles, Leaflet, the page's script), and none of the
        // payloads' elements or handlers.
        #expect(html.components(separatedBy: "<script").count - 1 == 4)
        #expect(html.components(separatedBy: "</script>").count - 1 == 4)
        for fragment in ["<img", "<svg onload", "<!--", "</title><script>", "<b>", "\u{2028}", "\u{2029}"] {
            #expect(!html.contains(fragment), "the page contains \(fragment)")
        }
        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;\"&lt;b&gt;</title>"))
        #expect(html.contains(#"aria-label="Map: &lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;&quot;&lt;b&gt;""#))
        // The data still says exactly what was given.
        let data = try MapTestData.embeddedData(html)
        #expect((data["fences"] as? [String: Any])?["id"] as? [String] == identifiers)
        let regions = (data["events"] as? [[String: Any]])?.compactMap { $0["region"] as? String }
        #expect(regions == drive.events.map(\.region))
    }

    @Test("script JSON strings escape <, >, &, the line separators, quotes and controls")
    func scriptJSONString() {
        #expect(MapEscaping.scriptJSONString("</script>") == #""\u003c/script\u003e""#)
        #expect(MapEscaping.scriptJSONString("a&b") == #""a\u0026b""#)
        #expect(MapEscaping.scriptJSONString("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(MapEscaping.scriptJSONString("\"\\\n\u{1}") == #""\"\\\n\u0001""#)
        #expect(MapEscaping.scriptJSONString("stop-1 Ä") == "\"stop-1 Ä\"")
        #expect(MapEscaping.scriptJSONString("\u{FEFF}</SCRIPT >") == #""\ufeff\u003c/SCRIPT \u003e""#)
    }

    @Test("U+FEFF in identifiers: escaped in the page, and the data reads back with it where it was")
    func byteOrderMarkInIdentifiers() throws {
        let identifiers = ["\u{FEFF}lead", "a</script>\u{FEFF}", "\u{1}\u{FEFF}after-escape"]
        let drive = MapTestData.drive(identifiers: identifiers)
        let html = MapDocument(title: "t", regions: drive.regions, track: drive.track, events: drive.events).html()
        #expect(!html.unicodeScalars.contains("\u{FEFF}"))
        #expect(html.components(separatedBy: "</script>").count - 1 == 4)
        let data = try MapTestData.embeddedData(html)
        #expect((data["fences"] as? [String: Any])?["id"] as? [String] == identifiers)
    }

    @Test("HTML text and attribute escaping")
    func htmlEscaping() {
        #expect(MapEscaping.htmlText(#"<a href="x">&'"#) == #"&lt;a href="x"&gt;&amp;'"#)
        #expect(MapEscaping.htmlAttribute(#"<a href="x">&'"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }
}
