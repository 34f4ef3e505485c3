// An event's crossing time on the map: in the embedded data beside its time, for the tooltip.
import Foundation
import Geofencing
import GeofencingEvents
import GeofencingMap
import Testing

struct MapCrossingTests {
    @Test("an enter's crossing is in the page's data as ISO 8601, null for an event without one; the tooltip says it")
    func crossingInTheData() throws {
        let drive = MapTestData.drive()
        var events = drive.events
        events[0].crossedAt = events[0].time - 1.25
        events[1].crossedAt = nil
        let html = MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: events).html()
        let data = try #require(try MapTestData.embeddedData(html)["events"] as? [[String: Any]])
        #expect(data[0]["crossed"] as? String == ISO8601Time.format(events[0].time - 1.25))
        #expect(data[1]["crossed"] is NSNull)
        #expect(html.contains("\" (crossed at \" + e.crossed"), "the tooltip text")
    }
}
