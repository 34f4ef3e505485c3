import GeofencingStore

/// Where an `MQTTSink` publishes: `mqtt://host[:port]/topic`, parsed. Available with or without the MQTT trait, so
/// that a bad `--mqtt` URL is a usage error either way.
///
/// - host: a name, an IPv4 address, or an IPv6 address in brackets (`mqtt://[::1]/events`).
/// - port: 1...65535, 1883 when absent.
/// - topic: everything after the first "/" following the host, taken literally (no percent-decoding); required; may
///   contain "/"; no wildcards ("+", "#": a publish topic cannot have them); at most 65535 bytes of UTF-8.
/// No user name or password in the URL, and no TLS (`mqtts://`).
public struct MQTTAddress: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort: UInt16 = 1883

    public var host: String
    public var port: UInt16
    public var topic: String

    public init(host: String, port: UInt16 = MQTTAddress.defaultPort, topic: String) {
        self.host = host
        self.port = port
        self.topic = topic
    }

    /// Parses `url`; the error (sink "mqtt") quotes the URL and says what is wrong with it.
    public init(url: String) throws(SinkError) {
        func fail(_ problem: String) -> SinkError {
            SinkError(
                sink: "mqtt",
                message: "bad URL \(JSONText.quoted(url)): \(problem); expected mqtt://host[:port]/topic")
        }
        let scheme = "mqtt://"
        guard url.lowercased().hasPrefix(scheme) else {
            throw fail(
                url.contains("://")
                    ? "the scheme is not mqtt:// (TLS and websockets are not supported)" : "no mqtt:// scheme")
        }
        let rest = url.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { throw fail("no topic") }
        let authority = rest[..<slash]
        let topic = String(rest[rest.index(after: slash)...])

        if authority.contains("@") { throw fail("a user name or password in the URL is not supported") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("an unclosed \"[\" in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        if host.isEmpty { throw fail("no host") }

        var port = Self.defaultPort
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                let number = UInt16(portText), number > 0
            else { throw fail("port \(JSONText.quoted(String(portText))) is not a number from 1 to 65535") }
            port = number
        }

        if topic.isEmpty { throw fail("no topic") }
        if topic.contains("+") || topic.contains("#") {
            throw fail("topic \(JSONText.quoted(topic)) has a wildcard (+ or #), which a published message cannot have")
        }
        if topic.utf8.contains(0) { throw fail("the topic contains a NUL character") }
        if topic.utf8.count > 65535 { throw fail("the topic is longer than 65535 bytes") }
        self.init(host: String(host), port: port, topic: topic)
    }

    /// The sink's name and delivery-cursor key: "mqtt:host:port/topic" ("mqtt:[::1]:1883/t" for IPv6).
    public var sinkName: String {
        "mqtt:\(host.contains(":") ? "[\(host)]" : host):\(port)/\(topic)"
    }

    /// The URL again, with the port written out.
    public var description: String { "mqtt://" + sinkName.dropFirst("mqtt:".count) }
}
