import GeofencingEvents

/// Where an `MQTTSink` connects, and the unit's base topic: `mqtt://host[:port]/BASE` or, over TLS,
/// `mqtts://host[:port]/BASE`, parsed. The topics under the base are `MQTTTopics`.
/// Available with or without the MQTT trait, so that a bad `--mqtt` URL is a usage error either way.
///
/// - scheme: mqtt:// (plain TCP: the loopback, a broker on the vehicle) or mqtts:// (TLS 1.2 or later, the broker's
///   certificate verified, its name checked: see `MQTTSecurity`).
/// - host: a name, an IPv4 address, or an IPv6 address in brackets (`mqtt://[::1]/events`).
/// - port: 1...65535; when absent 1883 for mqtt://, 8883 for mqtts://.
/// - topic: the base topic: everything after the first "/" following the host, taken literally (no
///   percent-decoding); required; may contain "/" (and empty levels); no wildcards ("+", "#": a publish topic
///   cannot have them), no control characters (U+0000...U+001F, U+007F...U+009F), no Unicode noncharacters, no
///   leading "$"; at most 65535 bytes of UTF-8 less the longest level appended to it ("/fences/ack")
///   (`problem(topic:)`).
/// No user name or password in the URL (`MQTTSecurity` takes them from files), and no websockets.
public struct MQTTAddress: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort: UInt16 = 1883
    public static let defaultTLSPort: UInt16 = 8883

    public var host: String
    public var port: UInt16
    /// The base topic (BASE); `topics` are under it.
    public var topic: String
    /// mqtts://: the connection is TLS.
    public var usesTLS: Bool

    public init(host: String, port: UInt16? = nil, topic: String, usesTLS: Bool = false) {
        self.host = host
        self.port = port ?? (usesTLS ? Self.defaultTLSPort : Self.defaultPort)
        self.topic = topic
        self.usesTLS = usesTLS
    }

    /// Parses `url`; the error (sink "mqtt") quotes the URL and says what is wrong with it.
    public init(url: String) throws(SinkError) {
        func fail(_ problem: String) -> SinkError {
            SinkError(
                sink: "mqtt",
                message: "bad URL \"\(PrintableText.escaped(url))\": \(problem); expected mqtt://host[:port]/topic "
                    + "or mqtts://host[:port]/topic")
        }
        let usesTLS = url.lowercased().hasPrefix("mqtts://")
        let scheme = usesTLS ? "mqtts://" : "mqtt://"
        guard url.lowercased().hasPrefix(scheme) else {
            throw fail(
                url.contains("://")
                    ? "the scheme is not mqtt:// or mqtts:// (websockets are not supported)"
                    : "no mqtt:// scheme (or mqtts://)")
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

        var port: UInt16?
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                let number = UInt16(portText), number > 0
            else { throw fail("port \(JSONText.quoted(String(portText))) is not a number from 1 to 65535") }
            port = number
        }

        if let problem = Self.problem(topic: topic) { throw fail(problem) }
        self.init(host: String(host), port: port, topic: topic, usesTLS: usesTLS)
    }

    /// Why `topic` cannot be published to, or nil. MQTT (3.1.1 sections 1.5.3, 4.7) and brokers refuse, for a
    /// publish: an empty topic; the wildcards "+" and "#"; U+0000; and mosquitto closes the connection of a client
    /// that sends the other control characters (U+0001...U+001F, U+007F...U+009F) or a Unicode noncharacter. A
    /// topic beginning with "$" is the broker's own ($SYS). Empty levels ("a//b", "/a") are valid topics and kept.
    static func problem(topic: String) -> String? {
        if topic.isEmpty { return "no topic" }
        let quoted = "\"" + PrintableText.escaped(topic) + "\""
        if topic.contains("+") || topic.contains("#") {
            return "topic \(quoted) has a wildcard (+ or #), which a published message cannot have"
        }
        if let scalar = topic.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "topic \(quoted) contains the control character U+\(hex(scalar)), which a topic cannot have"
        }
        if let scalar = topic.unicodeScalars.first(where: {
            (0xFDD0...0xFDEF).contains($0.value) || $0.value & 0xFFFE == 0xFFFE
        }) {
            return "topic \(quoted) contains the noncharacter U+\(hex(scalar)), which a topic cannot have"
        }
        if topic.hasPrefix("$") { return "topic \(quoted) begins with \"$\", which is reserved for the broker" }
        if topic.utf8.count > 65535 - MQTTTopics.longestSuffix {
            return "the topic is longer than \(65535 - MQTTTopics.longestSuffix) bytes (65535 with \"/fences/ack\")"
        }
        return nil
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The sink's name and delivery-cursor key: "mqtt:host:port/topic" ("mqtt:[::1]:1883/t" for IPv6), "mqtts:..."
    /// over TLS.
    public var sinkName: String {
        "\(scheme):\(host.contains(":") ? "[\(host)]" : host):\(port)/\(topic)"
    }

    /// The unit's topics under the base topic.
    public var topics: MQTTTopics { MQTTTopics(base: topic) }

    /// "mqtt" or "mqtts".
    public var scheme: String { usesTLS ? "mqtts" : "mqtt" }

    /// The URL again, with the port written out.
    public var description: String { "\(scheme)://" + sinkName.dropFirst(scheme.count + 1) }
}
