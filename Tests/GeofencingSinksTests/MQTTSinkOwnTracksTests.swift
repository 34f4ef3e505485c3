import Foundation
import GeofencingEvents
import GeofencingTestSupport
import Testing

@testable import GeofencingSinks

/// `MQTTFormat.owntracks`: the topic must be OwnTracks' owntracks/USER/DEVICE; the tracker id defaults to the
/// DEVICE level's last two characters.
struct MQTTFormatTests {
    static func address(_ topic: String) -> MQTTAddress { MQTTAddress(host: "127.0.0.1", topic: topic) }

    @Test func owntracksNeedsOwnTracksTopics() throws {
        for topic in ["vehicle/7", "owntracks/fleet", "owntracks/fleet/unit-7/extra", "owntracks//unit-7",
                      "owntracks/fleet/", "OwnTracks/fleet/unit-7"] {
            let error = try #require(throws: SinkError.self, "\(topic)") {
                try MQTTFormat(name: "owntracks", address: Self.address(topic))
            }
            #expect(error.message.contains("owntracks/USER/DEVICE"), "\(error)")
        }
        #expect(try MQTTFormat(name: "owntracks", address: Self.address("owntracks/fleet/unit-07"))
            == .owntracks(trackerID: "07"))
        #expect(try MQTTFormat(name: "owntracks", trackerID: "U7", address: Self.address("owntracks/fleet/unit-07"))
            == .owntracks(trackerID: "U7"))
        #expect(try MQTTFormat(name: "geofence", address: Self.address("vehicle/7")) == .geofence)
        #expect(throws: SinkError.self) { try MQTTFormat(name: "json", address: Self.address("vehicle/7")) }
        #expect(throws: SinkError.self) {
            try MQTTFormat(name: "geofence", trackerID: "U7", address: Self.address("vehicle/7"))
        }
    }
}

#if MQTT
/// OwnTracks transitions through a real mosquitto to a second client subscribed to OwnTracks' event topic.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, "mosquitto (Debian package mosquitto) is not installed"))
struct MQTTSinkOwnTracksTests {
    @Test func enterAndExitArriveAsTransitionsOthersAreCounted() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let base = "owntracks/fleet/unit-07"
        let subscriber = try TestSubscriber(port: broker.port, topic: base + "/event")
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions == 1 }, "subscribed: \(broker.log)")
        let address = try MQTTAddress(url: "\(broker.url)/\(base)")
        let sink = try MQTTSink(
            url: "\(broker.url)/\(base)", format: try MQTTFormat(name: "owntracks", address: address),
            clientID: "sink-\(UUID().uuidString)", publishTimeout: 5)
        defer { sink.close() }

        let events = [
            SampleEvents.event(1, kind: .state, state: .outside), SampleEvents.event(2, kind: .enter),
            SampleEvents.event(3, kind: .dwell), SampleEvents.event(4, kind: .approach, state: .outside),
            SampleEvents.event(5, kind: .exit, distance: 2.5, state: .outside),
        ]
        for event in events { try sink.deliver(event) }
        #expect(sink.unpublishedEvents == 3, "state, dwell, approach")
        // Each deliver returned after its PUBACK, and the broker forwards in order: both are there or on their way.
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.messages.count >= 2 })
        try #require(subscriber.messages.count == 2, "\(subscriber.messages)")

        for (message, (event, name)) in zip(subscriber.messages, [(events[1], "enter"), (events[4], "leave")]) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
            #expect(object["_type"] as? String == "transition")
            #expect(object["event"] as? String == name)
            #expect(object["desc"] as? String == "stop-1234")
            #expect(object["rid"] as? String == "stop-1234")
            #expect(object["t"] as? String == "c")
            #expect((object["tst"] as? NSNumber)?.doubleValue == event.time.timeIntervalSince1970)
            #expect((object["wtst"] as? NSNumber)?.uint32Value
                == OwnTracksTransition.waypointTimestamp(identifier: "stop-1234"))
            #expect((object["lat"] as? NSNumber)?.doubleValue == -27.5712345)
            #expect((object["lon"] as? NSNumber)?.doubleValue == 153.0912345)
            #expect(object["tid"] as? String == "07")
        }
    }
}
#endif
