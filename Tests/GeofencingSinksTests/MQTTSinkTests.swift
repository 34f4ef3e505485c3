import Foundation
import GeofencingEvents
import Testing
import GeofencingTestSupport

@testable import GeofencingSinks

/// Without the MQTT trait the sink cannot be made, and says why; a bad URL is still reported as such.
@Test(.enabled(if: !MQTTSink.isAvailable, "built with the MQTT trait"))
func mqttSinkWithoutTheTraitSaysSo() throws {
    let error = try #require(throws: SinkError.self) { try MQTTSink(url: "mqtt://127.0.0.1/t") }
    #expect(error.message.contains("without the MQTT trait"), "\(error)")
    #expect(error.sink == "mqtt:127.0.0.1:1883/t")
    let badURL = try #require(throws: SinkError.self) { try MQTTSink(url: "mqtt://127.0.0.1") }
    #expect(badURL.message.contains("no topic"), "\(badURL)")
}

#if MQTT
/// MQTTSink against a real mosquitto broker on the loopback, started by each test and killed at its end. Serialized:
/// brokers, clients and their threads are cheap, but the suite's timing claims are kinder on 2 cores one at a time.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, "mosquitto (Debian package mosquitto) is not installed"))
struct MQTTSinkTests {
    /// The sink's base topic (the URL's path); the events go to `topic` under it.
    static let base = "vehicle/7"
    static let topic = "vehicle/7/events"

    /// Every event arrives, in order. Also in a process holding more than 1,024 descriptors (FD_SETSIZE), so that
    /// the sink's and the subscriber's sockets are numbered above it: libmosquitto's own loop waits with select(2)
    /// and refuses such a socket ("Invalid function arguments provided", the connection lost at once, every time).
    @Test(arguments: [false, true])
    func publishesEveryEventInOrder(socketsAbove1024: Bool) async throws {
        let held = socketsAbove1024 ? try HeldDescriptors(belowNumber: 1_100) : nil
        defer { held?.close() }
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let subscriber = try TestSubscriber(port: broker.port, topic: Self.topic)
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions == 1 }, "subscribed: \(broker.log)")

        let sink = try MQTTSink(url: "\(broker.url)/\(Self.base)", clientID: "sink-\(UUID().uuidString)",
                                publishTimeout: 5)
        defer { sink.close() }
        #expect(sink.name == "mqtt:127.0.0.1:\(broker.port)/\(Self.base)")
        let events = SampleEvents.burst(50)
        for event in events { try sink.deliver(event) }  // the first waits for the connection

        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.messages.count >= events.count })
        #expect(subscriber.messages == events.map(\.jsonLine))
    }

    /// The broker goes away: deliver fails within the timeout; the broker comes back on the same port: the sink has
    /// reconnected by itself and the event the caller retried arrives, followed by the next, in order.
    @Test func reconnectsWhenTheBrokerComesBack() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let subscriber = try TestSubscriber(port: broker.port, topic: Self.topic)
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions == 1 })
        let publishTimeout = 2.0
        let sink = try MQTTSink(url: "\(broker.url)/\(Self.base)", clientID: "sink-\(UUID().uuidString)",
                                publishTimeout: publishTimeout, reconnectDelay: 1...1)
        defer { sink.close() }
        let events = SampleEvents.burst(3)
        try sink.deliver(events[0])

        broker.stop()
        // deliver returns with the error (bounded by the publish timeout) rather than waiting for the broker.
        let error = try #require(throws: SinkError.self) { try sink.deliver(events[1]) }
        #expect(error.sink == sink.name)
        #expect(error.message.contains("event #2 not delivered"), "\(error)")
        print("MQTT broker stopped: \(error)")

        try await broker.start()
        #expect(await subscriber.wait(timeout: .seconds(15)) { $0.subscriptions == 2 }, "subscribed again")
        // The daemon's retry loop, with a short backoff: the sink reconnects within its 1 s reconnect delay.
        var tries = 0
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            tries += 1
            do throws(SinkError) {
                try sink.deliver(events[1])
                break
            } catch {
                if ContinuousClock.now > deadline { Issue.record("still failing after \(tries) tries: \(error)"); return }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        try sink.deliver(events[2])

        #expect(await subscriber.wait(timeout: .seconds(60)) { Set($0.messages).count >= 3 })
        // At least once: a repeat is allowed (libmosquitto resends what it had in flight), dropped by `seq`.
        var seen = Set<String>()
        let firstArrivals = subscriber.messages.filter { seen.insert($0).inserted }
        #expect(firstArrivals == events.map(\.jsonLine))
        print("MQTT reconnect: delivered after \(tries) tries; \(subscriber.messages.count) messages received")
    }

    /// The daemon starts before the broker: the first deliveries fail, and once the broker is up the sink connects
    /// by itself.
    @Test func connectsWhenTheBrokerStartsLater() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        let sink = try MQTTSink(url: "\(broker.url)/\(Self.base)", clientID: "sink-\(UUID().uuidString)",
                                publishTimeout: 2, reconnectDelay: 1...1)
        defer { sink.close() }
        let event = SampleEvents.event(1)
        #expect(throws: SinkError.self) { try sink.deliver(event) }

        try await broker.start()
        let subscriber = try TestSubscriber(port: broker.port, topic: Self.topic)
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions == 1 })
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do throws(SinkError) {
                try sink.deliver(event)
                break
            } catch {
                if ContinuousClock.now > deadline { Issue.record("still failing: \(error)"); return }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(await subscriber.wait(timeout: .seconds(60)) { !$0.messages.isEmpty })
        #expect(subscriber.messages == [event.jsonLine])
    }

    /// A broker that keeps the connection but stops answering (SIGSTOP): no PUBACK, so deliver fails after the
    /// publish timeout. Once it answers again, the retried event arrives (the first try may arrive too: at least
    /// once).
    @Test func hungBrokerTimesOut() async throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let subscriber = try TestSubscriber(port: broker.port, topic: Self.topic)
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions == 1 })
        let sink = try MQTTSink(url: "\(broker.url)/\(Self.base)", clientID: "sink-\(UUID().uuidString)",
                                publishTimeout: 1)
        defer { sink.close() }
        let events = SampleEvents.burst(2)
        try sink.deliver(events[0])

        broker.pause()
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: SinkError.self) { try sink.deliver(events[1]) }
        let elapsed = clock.now - start
        broker.resume()
        #expect(error.message.contains("no PUBACK within 1.0 s"), "\(error)")
        // The publish timeout was waited out (a lower bound, which a busy machine cannot break).
        #expect(elapsed >= .milliseconds(900), "failed after \(elapsed)")

        try sink.deliver(events[1])
        #expect(await subscriber.wait(timeout: .seconds(60)) { Set($0.messages).count >= 2 })
        var seen = Set<String>()
        #expect(subscriber.messages.filter { seen.insert($0).inserted } == events.map(\.jsonLine))
    }

    /// Nothing listens: deliver fails with the refused connection as the reason, without waiting out the publish timeout.
    @Test func noBrokerIsAnErrorWithTheReason() throws {
        let port = TCPProbe.freePort()
        let sink = try MQTTSink(url: "mqtt://127.0.0.1:\(port)/t", publishTimeout: 5)
        defer { sink.close() }
        // The reason is the refused connection, not the publish timeout: deliver did not wait for a PUBACK.
        let error = try #require(throws: SinkError.self) { try sink.deliver(SampleEvents.event()) }
        #expect(error.message.contains("not connected"), "\(error)")
        #expect(!error.message.contains("PUBACK"), "\(error)")
        #expect(error.message.contains("refused"), "\(error)")
    }

    /// close() is idempotent, ends the network thread even while it waits to reconnect, and deliver
    /// afterwards fails.
    @Test func closeIsIdempotentAndFinal() throws {
        let sink = try MQTTSink(url: "mqtt://127.0.0.1:\(TCPProbe.freePort())/t", reconnectDelay: 30...30)
        // close() returns once the network thread has ended (it waits for it), here during the 30 s reconnect wait.
        sink.close()
        sink.close()
        let error = try #require(throws: SinkError.self) { try sink.deliver(SampleEvents.event()) }
        #expect(error.message.contains("closed"), "\(error)")
    }

    @Test func badArgumentsAreRejected() throws {
        #expect(throws: SinkError.self) { try MQTTSink(url: "mqtt://127.0.0.1/t", publishTimeout: 0) }
        #expect(throws: SinkError.self) { try MQTTSink(url: "mqtt://127.0.0.1/t", reconnectDelay: 0...5) }
        #expect(throws: SinkError.self) { try MQTTSink(url: "mqtt://127.0.0.1/t", keepAlive: 1) }
        #expect(throws: SinkError.self) { try MQTTSink(url: "http://127.0.0.1/t") }
    }
}
/// Every free descriptor below `number` held open on /dev/null, so that the next socket the process makes is
/// numbered `number` or above (unless another thread closes one of its own in between).
private final class HeldDescriptors {
    private var descriptors: [Int32] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(belowNumber number: Int32) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < rlim_t(number) + 100 {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(number) + 100)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        while true {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                close()
                throw Failure(description: "cannot hold \(number) descriptors: \(String(cString: strerror(errno)))")
            }
            guard descriptor < number else {
                Glibc.close(descriptor)
                return
            }
            descriptors.append(descriptor)
        }
    }

    func close() {
        for descriptor in descriptors { Glibc.close(descriptor) }
        descriptors = []
    }
}
#endif
