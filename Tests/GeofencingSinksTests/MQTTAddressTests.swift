import Testing

@testable import GeofencingSinks

@Suite struct MQTTAddressTests {
    @Test(arguments: [
        ("mqtt://127.0.0.1:1884/vehicle/7/events", "127.0.0.1", 1884, "vehicle/7/events"),
        ("mqtt://broker.local/geofence", "broker.local", 1883, "geofence"),
        ("MQTT://[::1]:8883/a", "::1", 8883, "a"),
        ("mqtt://[fe80::1]/t/", "fe80::1", 1883, "t/"),
        ("mqtt://h//vehicle//7", "h", 1883, "/vehicle//7"),  // empty levels are valid MQTT topics
        ("mqtt://h/Fahrzeug/7/Ereignisse-ü-東京", "h", 1883, "Fahrzeug/7/Ereignisse-ü-東京"),
        ("mqtt://h:1/with space?and=query", "h", 1, "with space?and=query"),
    ] as [(String, String, UInt16, String)])
    func parses(url: String, host: String, port: UInt16, topic: String) throws {
        let address = try MQTTAddress(url: url)
        #expect(address == MQTTAddress(host: host, port: port, topic: topic))
        #expect(!address.usesTLS)
    }

    /// mqtts://: TLS, port 8883 unless given; its own sink name (and delivery cursor).
    @Test func parsesTLS() throws {
        let address = try MQTTAddress(url: "mqtts://broker.example/vehicle/7")
        #expect(address == MQTTAddress(host: "broker.example", port: 8883, topic: "vehicle/7", usesTLS: true))
        #expect(address.sinkName == "mqtts:broker.example:8883/vehicle/7")
        #expect(address.description == "mqtts://broker.example:8883/vehicle/7")
        #expect(try MQTTAddress(url: "MQTTS://[::1]:1883/t").sinkName == "mqtts:[::1]:1883/t")
    }

    @Test func sinkNameIsHostPortAndTopic() throws {
        #expect(try MQTTAddress(url: "mqtt://broker.local/vehicle/7").sinkName == "mqtt:broker.local:1883/vehicle/7")
        #expect(try MQTTAddress(url: "mqtt://[::1]:9/t").sinkName == "mqtt:[::1]:9/t")
        #expect(try MQTTAddress(url: "mqtt://h/t").description == "mqtt://h:1883/t")
    }

    @Test(arguments: [
        ("broker/topic", "no mqtt:// scheme"),
        ("ws://broker/topic", "not mqtt://"),
        ("mqtts://broker", "no topic"),
        ("mqtt://broker", "no topic"),
        ("mqtt://broker/", "no topic"),
        ("mqtt:///topic", "no host"),
        ("mqtt://:1883/topic", "no host"),
        ("mqtt://broker:0/t", "port \"0\""),
        ("mqtt://broker:65536/t", "port \"65536\""),
        ("mqtt://broker:/t", "port \"\""),
        ("mqtt://broker:12a/t", "port \"12a\""),
        ("mqtt://user:secret@broker/t", "user name or password"),
        ("mqtt://[::1/t", "unclosed"),
        ("mqtt://[::1]x/t", "after the IPv6"),
        ("mqtt://broker/vehicle/+/events", "wildcard"),
        ("mqtt://broker/vehicle/#", "wildcard"),
    ])
    func rejects(url: String, problem: String) throws {
        let error = try #require(throws: SinkError.self) { try MQTTAddress(url: url) }
        #expect(error.sink == "mqtt")
        #expect(error.message.contains(problem), "\(error)")
        #expect(error.message.contains(url), "the error quotes the URL: \(error)")
    }

    /// A topic MQTT or the broker would refuse at the first publish is refused at start-up, naming the character
    /// (escaped, so the message itself is safe to print).
    @Test(arguments: [
        ("mqtt://broker/vehicle/7\nevents", "control character U+000A", "vehicle/7\\nevents"),
        ("mqtt://broker/vehicle\r", "control character U+000D", "vehicle\\r"),
        ("mqtt://broker/a\u{0}b", "control character U+0000", "a\\u{0}b"),
        ("mqtt://broker/\u{1B}[2Jevents", "control character U+001B", "\\e[2Jevents"),
        ("mqtt://broker/a\tb", "control character U+0009", "a\\tb"),
        ("mqtt://broker/a\u{7F}", "control character U+007F", "a\\u{7f}"),
        ("mqtt://broker/a\u{9B}1A", "control character U+009B", "a\\u{9b}1A"),
        ("mqtt://broker/a\u{FFFF}", "noncharacter U+FFFF", "a\u{FFFF}"),
        ("mqtt://broker/$SYS/broker/uptime", "reserved for the broker", "$SYS/broker/uptime"),
    ] as [(String, String, String)])
    func rejectsTopicsThatCannotBePublished(url: String, problem: String, shown: String) throws {
        let error = try #require(throws: SinkError.self) { try MQTTAddress(url: url) }
        #expect(error.message.contains(problem), "\(error)")
        #expect(error.message.contains("topic \"\(shown)\""), "\(error)")
        #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }
}
