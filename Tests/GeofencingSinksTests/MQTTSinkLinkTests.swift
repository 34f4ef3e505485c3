#if MQTT
import Foundation
import Geofencing
import GeofencingEvents
import GeofencingTestSupport
import Testing

@testable import GeofencingSinks

/// The unit's link over the sink's connection, against a real mosquitto on the loopback: the status retained on
/// BASE/status (online at each connection and periodically, offline at a clean close), fence sets from BASE/fences
/// to the handler (retained ones at each connection), acks on BASE/fences/ack, and the maximum packet size.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, "mosquitto (Debian package mosquitto) is not installed"))
struct MQTTSinkLinkTests {
    static let base = "vehicle/9"
    static let topics = MQTTTopics(base: base)

    /// A status report whose JSON says online or offline and counts the reports made.
    static func counting() -> (MQTTStatusReporting, Locked<Int>) {
        let made = Locked(0)
        let reporting = MQTTStatusReporting(interval: 1) { online in
            let count = made.withLock { count in
                count += 1
                return count
            }
            return "{\"status\":\"\(online ? "online" : "offline")\",\"report\":\(count)}"
        }
        return (reporting, made)
    }

    static func sink(_ broker: MosquittoBroker, status: MQTTStatusReporting? = nil, maximumFenceSetBytes: Int? = nil)
        throws -> MQTTSink
    {
        try MQTTSink(
            url: "\(broker.url)/\(base)", clientID: "sink-\(UUID().uuidString)", publishTimeout: 5,
            reconnectDelay: 1...1, status: status,
            maximumFenceSetBytes: maximumFenceSetBytes ?? MQTTSink.defaultMaximumFenceSetBytes)
    }

    static func field(_ name: String, of json: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return nil
        }
        return object[name].map { "\($0)" }
    }

    /// Online, retained, at connection (a subscriber that comes later still gets it), again every interval;
    /// offline, retained, once the sink is closed.
    @Test func statusIsRetainedOnlineThenOfflineAtClose() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let (reporting, _) = Self.counting()
        let sink = try Self.sink(broker, status: reporting)
        try sink.deliver(SampleEvents.event(1))  // waits for the connection

        let late = try TestSubscriber(port: broker.port, topic: Self.topics.status)
        #expect(await late.wait(timeout: .seconds(60)) { !$0.messages.isEmpty }, "retained: \(broker.log)")
        #expect(Self.field("status", of: late.messages[0]) == "online", "\(late.messages)")
        // The interval is 1 s: more reports arrive while connected, each online.
        #expect(await late.wait(timeout: .seconds(60)) { $0.messages.count >= 3 }, "periodic: \(late.messages)")
        #expect(late.messages.allSatisfy { Self.field("status", of: $0) == "online" }, "\(late.messages)")

        sink.close()
        let afterClose = try TestSubscriber(port: broker.port, topic: Self.topics.status)
        #expect(await afterClose.wait(timeout: .seconds(60)) { !$0.messages.isEmpty })
        #expect(Self.field("status", of: afterClose.messages[0]) == "offline", "\(afterClose.messages)")
    }

    /// A set published (retained) while the sink was away reaches the handler at its connection; one published
    /// while connected reaches it at once; after the broker restarts, the handler gets the next set (the
    /// subscription is made again at each CONNACK). The acks arrive on BASE/fences/ack.
    @Test func fenceSetsReachTheHandlerAndAcksGoOut() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let backEnd = try TestSubscriber(port: broker.port, topic: Self.topics.fenceAcks)
        #expect(await backEnd.wait(timeout: .seconds(60)) { $0.subscriptions == 1 })
        backEnd.publish(Array("set 1".utf8), to: Self.topics.fences, retain: true)

        let received = Locked<[String]>([])
        let sink = try Self.sink(broker)
        defer { sink.close() }
        sink.onFenceSetMessage = { [weak sink] payload in
            received.withLock { $0.append(String(decoding: payload, as: UTF8.self)) }
            sink?.publishAck("ack of \(String(decoding: payload, as: UTF8.self))")
        }
        func receivedNow() -> [String] { received.withLock { $0 } }
        #expect(await backEnd.wait(timeout: .seconds(60)) { _ in receivedNow() == ["set 1"] }, "\(receivedNow())")

        backEnd.publish(Array("set 2".utf8), to: Self.topics.fences, retain: true)
        #expect(await backEnd.wait(timeout: .seconds(60)) { _ in receivedNow() == ["set 1", "set 2"] })
        #expect(await backEnd.wait(timeout: .seconds(60)) { $0.messages == ["ack of set 1", "ack of set 2"] },
                "\(backEnd.messages)")

        broker.stop()
        try await broker.start()
        #expect(await backEnd.wait(timeout: .seconds(15)) { $0.subscriptions == 2 })
        // Published retained: whether the sink reconnects before or after, the set reaches the handler once.
        backEnd.publish(Array("set 3".utf8), to: Self.topics.fences, retain: true)
        #expect(await backEnd.wait(timeout: .seconds(15)) { _ in receivedNow() == ["set 1", "set 2", "set 3"] },
                "\(receivedNow()) \(broker.log)")
    }

    /// A message larger than the bound plus the packet's headroom is not sent by the broker at all (it logs that it
    /// dropped it); the next, smaller one arrives.
    @Test func oversizedMessagesAreDroppedByTheBroker() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let backEnd = try TestSubscriber(port: broker.port, topic: Self.topics.fenceAcks)
        #expect(await backEnd.wait(timeout: .seconds(60)) { $0.subscriptions == 1 })
        let received = Locked<[Int]>([])
        let sink = try Self.sink(broker, maximumFenceSetBytes: 1000)
        defer { sink.close() }
        sink.onFenceSetMessage = { payload in received.withLock { $0.append(payload.count) } }
        try sink.deliver(SampleEvents.event(1))  // connected

        let oversized = 1000 + MQTTSink.packetHeadroom + 1
        let withinHeadroom = 1000 + MQTTSink.packetHeadroom - 100
        backEnd.publish([UInt8](repeating: 0x20, count: oversized), to: Self.topics.fences, retain: true)
        backEnd.publish([UInt8](repeating: 0x20, count: withinHeadroom), to: Self.topics.fences, retain: false)
        backEnd.publish(Array("small".utf8), to: Self.topics.fences, retain: false)
        #expect(await backEnd.wait(timeout: .seconds(60)) { _ in received.withLock { $0.count } >= 2 })
        #expect(received.withLock { $0 } == [withinHeadroom, 5], "in order, without the oversized one")
        #expect(broker.log.contains("Dropping too large outgoing PUBLISH"), "\(broker.log)")
        print("oversized fence set: \(broker.log.split(separator: "\n").filter { $0.contains("too large") })")
    }
}
#endif
