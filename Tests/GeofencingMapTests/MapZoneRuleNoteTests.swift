// A fence's zone rules in its tooltip: the payload's note says the speed limit and the schedule, is absent for a
// fence without them (and the whole array for a map without any), and stays text whatever it holds.
import Foundation
import Geofencing
@testable import GeofencingMap
import Testing

@Suite("Map zone-rule notes")
struct MapZoneRuleNoteTests {
    /// The drive's three fences: stop-1 with a speed limit, stop-2 plain, stop-3 with a limit and a school-zone
    /// schedule.
    private func zoneDrive() throws -> MapTestData.Drive {
        var drive = MapTestData.drive()
        drive.regions[0].speedLimit = SpeedLimit(kilometresPerHour: 40)
        drive.regions[2].speedLimit = SpeedLimit(kilometresPerHour: 42.5, toleranceKilometresPerHour: 3, duration: 10)
        drive.regions[2].schedule = try Schedule(parsing: "Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00; Sa 08:00-12:00")
        return drive
    }

    private func notes(_ html: String) throws -> [Any]? {
        let fences = try #require(try MapTestData.embeddedData(html)["fences"] as? [String: Any])
        return fences["note"] as? [Any]
    }

    @Test("each fence's note says its speed limit and schedule; a fence without them has null")
    func notesInPayload() throws {
        let drive = try zoneDrive()
        let html = MapDocument(title: "zones", regions: drive.regions, track: drive.track, events: drive.events).html()
        let notes = try #require(try notes(html), "no note array")
        #expect(notes.count == 3)
        #expect(notes[0] as? String == "speed limit 40 km/h (+5 for 5 s)")
        #expect(notes[1] is NSNull)
        #expect(notes[2] as? String == "speed limit 42.5 km/h (+3 for 10 s) \u{00b7} active Mo-Fr "
            + "07:00-09:00,14:30-16:00; Sa 08:00-12:00 Australia/Brisbane")
        // The tooltip puts the note after the fence's kind, as a text node (textBox), never as HTML.
        #expect(html.contains("const note = F.note && F.note[i] ? \" \\u00b7 \" + F.note[i] : \"\";"))
        #expect(html.contains("layer.bindTooltip(() => textBox(fenceText(i))"))
    }

    @Test("a schedule alone is noted; a map without zone rules has no note array at all")
    func scheduleAloneAndAbsence() throws {
        var drive = MapTestData.drive()
        let plain = MapDocument(title: "plain", regions: drive.regions, track: drive.track, events: drive.events)
        #expect(try notes(plain.html()) == nil)
        #expect(!plain.html().contains("\"note\":"))
        drive.regions[1].schedule = try Schedule(parsing: "Europe/Berlin Sa-Mo 22:00-26:00")
        let html = MapDocument(title: "s", regions: drive.regions, track: drive.track, events: drive.events).html()
        let notes = try #require(try notes(html))
        // Days as the schedule's canonical text writes them (a range only when consecutive from Monday).
        #expect(notes.map { $0 as? String } == [nil, "active Mo,Sa,Su 22:00-26:00 Europe/Berlin", nil])
    }

    @Test("a note carrying markup (a zone name no tzdata has, given straight to the payload) stays text")
    func hostileNoteEscaped() throws {
        var drive = MapTestData.drive(identifiers: ["</script><b>id</b>", "stop-2", "stop-3"])
        let hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)>\u{2028}&amp;"
        drive.regions[0].schedule = Schedule(timeZoneIdentifier: hostile, windows: [.init(days: 1, start: 0, end: 60)])
        let html = MapDocument(title: "t", regions: drive.regions, track: drive.track, events: drive.events).html()
        #expect(html.components(separatedBy: "<script").count - 1 == 4, "only the page's own script elements")
        for fragment in ["<img", "<b>", "\u{2028}", "alert(1)</script>"] {
            #expect(!html.contains(fragment), "the page contains \(fragment)")
        }
        let notes = try #require(try notes(html))
        #expect(notes.first as? String == "active Mo 00:00-01:00 " + hostile, "the data says exactly what was given")
    }
}
