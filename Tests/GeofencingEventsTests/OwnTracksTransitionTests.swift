import Foundation
import Geofencing
import GeofencingEvents
import Testing

/// OwnTracks transitions, field by field as a consumer parses them (OwnTracks booklet, `_type=transition`).
struct OwnTracksTransitionTests {
    static func event(_ kind: EventRecord.Kind, region: String = "stop-1234") -> EventRecord {
        EventRecord(
            sequence: 17, kind: kind, region: region, time: Date(timeIntervalSince1970: 1_204_583_113.75),
            latitude: -27.5712345, longitude: 153.0912345, distance: -3.2, state: kind == .exit ? .outside : .inside)
    }

    static func fields(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func enterAndExitAreTransitions() throws {
        for (kind, name) in [(EventRecord.Kind.enter, "enter"), (.exit, "leave")] {
            let json = try #require(OwnTracksTransition.json(for: Self.event(kind), trackerID: "07"))
            let object = try Self.fields(json)
            #expect(object["_type"] as? String == "transition")
            #expect(object["event"] as? String == name)
            #expect(object["desc"] as? String == "stop-1234")
            #expect(object["rid"] as? String == "stop-1234")
            #expect(object["t"] as? String == "c")
            #expect((object["tst"] as? NSNumber)?.int64Value == 1_204_583_113, "whole seconds, rounded down")
            #expect((object["wtst"] as? NSNumber)?.int64Value == 731_198_084)
            #expect((object["lat"] as? NSNumber)?.doubleValue == -27.5712345)
            #expect((object["lon"] as? NSNumber)?.doubleValue == 153.0912345)
            #expect(object["tid"] as? String == "07")
            #expect(object["acc"] == nil, "an event record carries no accuracy")
            #expect(Set(object.keys) == ["_type", "event", "desc", "rid", "t", "tst", "wtst", "lat", "lon", "tid"])
        }
        // The booklet's order of the documented example, byte for byte.
        #expect(OwnTracksTransition.json(for: Self.event(.enter), trackerID: "07")
            == #"{"_type":"transition","event":"enter","desc":"stop-1234","t":"c","tst":1204583113,"wtst":731198084,"#
            + #""lat":-27.5712345,"lon":153.0912345,"tid":"07","rid":"stop-1234"}"#)
    }

    /// `tst` is when the transition happened: the estimated crossing, which the hysteresis makes earlier than the
    /// deciding fix; the event's own time only without one.
    @Test func timestampIsTheCrossing() throws {
        var event = Self.event(.enter)
        event.crossedAt = Date(timeIntervalSince1970: 1_204_583_110.9)
        let object = try Self.fields(try #require(OwnTracksTransition.json(for: event, trackerID: "07")))
        #expect((object["tst"] as? NSNumber)?.int64Value == 1_204_583_110)
    }

    @Test func otherKindsHaveNoTransition() {
        for kind in [EventRecord.Kind.dwell, .approach, .state] {
            #expect(OwnTracksTransition.json(for: Self.event(kind), trackerID: "07") == nil, "\(kind)")
        }
    }

    /// The waypoint time stands for the region: the same for the same identifier, different for others, an epoch
    /// second a signed 32-bit consumer takes.
    @Test func waypointTimestampIsStablePerIdentifier() throws {
        let identifiers = ["stop-1234", "stop-1235", "depot", "", "Zürich HB \"Süd\""]
        let stamps = identifiers.map(OwnTracksTransition.waypointTimestamp(identifier:))
        #expect(Set(stamps).count == identifiers.count)
        #expect(stamps.allSatisfy { $0 <= UInt32(Int32.max) })
        #expect(stamps == identifiers.map(OwnTracksTransition.waypointTimestamp(identifier:)))
        let quoted = try #require(
            OwnTracksTransition.json(for: Self.event(.enter, region: identifiers[4]), trackerID: "x\"y"))
        let object = try Self.fields(quoted)
        #expect(object["desc"] as? String == identifiers[4])
        #expect(object["tid"] as? String == "x\"y")
    }
}
