import Foundation

/// A street layer for the map: a tile server's URL template and the attribution its terms ask for. Without one the
/// page fetches nothing; with one it may load images from that one host and nothing else (the page's policy).
///
/// The template is `http://` or `https://`, a host name (letters, digits, dots, hyphens; `{s}.` as the first label
/// for servers with sub-domains "a", "b", "c"), an optional port, and a path holding `{z}`, `{x}` and `{y}`
/// (`{r}` for "@2x" tiles allowed too); no user name, no other placeholder, no quote, space, `<` or `>`.
public struct MapTiles: Sendable, Equatable {
    /// The template as given, e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`.
    public let template: String
    /// Text shown in the map's corner, e.g. "© OpenStreetMap contributors". Data, escaped where it appears.
    public let attribution: String
    /// What the Content-Security-Policy allows images from: `https://tile.openstreetmap.org`,
    /// `https://*.tile.example.org:8443`.
    public let source: String

    /// The attribution for tiles from OpenStreetMap's own servers when none is given.
    public static let openStreetMapAttribution = "\u{00a9} OpenStreetMap contributors"

    /// - Parameters:
    ///   - template: the tile URL template.
    ///   - attribution: the attribution text; nil takes `openStreetMapAttribution` for tile.openstreetmap.org and
    ///     is refused for any other host (each server's terms name their own).
    /// - Throws: `MapTilesError` naming the template and what is wrong with it.
    public init(template: String, attribution: String? = nil) throws(MapTilesError) {
        func refuse(_ problem: String) -> MapTilesError { MapTilesError(template: template, problem: problem) }
        let scheme: String
        if template.hasPrefix("https://") { scheme = "https" } else if template.hasPrefix("http://") { scheme = "http" } else {
            throw refuse("want an http:// or https:// URL")
        }
        let rest = template.dropFirst(scheme.count + 3)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash], path = rest[slash...]
        var host = Substring(authority), port: Substring = ""
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port),
                  (1...65_535).contains(number) else {
                throw refuse("port \"\(port)\" is not a number in 1 ... 65535")
            }
        }
        var wildcard = false
        if host.hasPrefix("{s}.") {
            wildcard = true
            host = host.dropFirst(4)
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, host.count <= 253, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }
        }) else {
            throw refuse("\"\(authority)\" is not a host name (letters, digits, dots and hyphens; {s}. first at most)")
        }
        let allowedInPath = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?=&%+,;:@!$*()")
        var placeholders: [Substring] = []
        var index = path.startIndex
        while index < path.endIndex {
            let character = path[index]
            if character == "{" {
                guard let close = path[index...].firstIndex(of: "}") else { throw refuse("a \"{\" without \"}\"") }
                placeholders.append(path[path.index(after: index)..<close])
                index = path.index(after: close)
                continue
            }
            guard allowedInPath.contains(character) else {
                throw refuse("\"\(character)\" is not allowed in the path (quotes, spaces, <, >, # and \\ are not)")
            }
            index = path.index(after: index)
        }
        for unknown in placeholders where !["z", "x", "y", "r"].contains(unknown) {
            throw refuse("unknown placeholder {\(unknown)}: only {z}, {x}, {y}, {r} and {s}. before the host")
        }
        for needed in ["z", "x", "y"] where !placeholders.contains(Substring(needed)) {
            throw refuse("the path needs {z}, {x} and {y}; {\(needed)} is missing")
        }
        let lowerHost = host.lowercased()
        let text = attribution ?? (lowerHost == "tile.openstreetmap.org" ? Self.openStreetMapAttribution : nil)
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw refuse("tiles from \(lowerHost) need their attribution text (--tiles-attribution)")
        }
        guard text.count <= 500, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw refuse("the attribution must be one line of at most 500 characters")
        }
        self.template = template
        self.attribution = text
        source = "\(scheme)://\(wildcard ? "*." : "")\(lowerHost)\(port.isEmpty ? "" : ":" + port)"
    }
}

/// A tile URL template the map cannot use.
public struct MapTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var template: String
    public var problem: String

    public init(template: String, problem: String) {
        self.template = template
        self.problem = problem
    }

    public var description: String { "tiles \"\(template)\": \(problem)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
