/// What this build of `geofence` is: the version (the repository's VERSION file, the one place it is written), the
/// commit it was built from (nil outside a git checkout) and the traits compiled in. `BuildInfo` is generated at
/// build time by BuildInfoPlugin; nothing here is read at run time.
enum Version {
    static let current = BuildInfo.version
    static let commit = BuildInfo.commit

    /// The package traits this binary was compiled with, in a fixed order.
    static let traits: [String] = {
        var traits: [String] = []
        #if GPSD
        traits.append("GPSD")
        #endif
        #if MQTT
        traits.append("MQTT")
        #endif
        return traits
    }()

    /// `geofence --version`: three lines, each `key: value` after the first.
    ///
    ///     geofence 0.1.0
    ///     commit: 0123456789abcdef0123456789abcdef01234567
    ///     traits: GPSD MQTT
    static var text: String {
        "geofence \(current)\ncommit: \(commit ?? "unknown (not built from a git checkout)")\n"
            + "traits: \(traits.isEmpty ? "none" : traits.joined(separator: " "))"
    }

    /// The daemon's first log line: the same facts on one line.
    static var logLine: String {
        "geofence \(current) (commit \(commit.map { String($0.prefix(12)) } ?? "unknown"), traits: "
            + "\(traits.isEmpty ? "none" : traits.joined(separator: " ")))"
    }
}
