import Foundation
import GeofencingGPSD
import GeofencingTestSupport

/// Where the shared logs and gpsd's tools are, and whether the gpsd tests can run at all.
enum TestEnvironment {
    /// The shared data folder, <root>/../shared/data (never copied into the repository).
    static let dataDirectory = SharedData.directory

    static func nmeaLog(_ name: String) -> String {
        dataDirectory.appendingPathComponent("nmea").appendingPathComponent(name).path
    }

    static let gpsfakePath = executable("gpsfake") ?? "/usr/bin/gpsfake"

    /// The logs the gpsfake tests play.
    static let logs = ["nmealog.txt", "bt451.log"]

    static var hasSharedData: Bool {
        logs.allSatisfy { FileManager.default.isReadableFile(atPath: nmeaLog($0)) }
    }

    static var hasGPSFake: Bool {
        executable("gpsfake") != nil && executable("gpsd") != nil
    }

    /// Whether the gpsfake tests can run; `whyNot` says why not.
    static var canRunGPSFake: Bool { whyNot == nil }

    static var whyNot: String? {
        if !GPSDSource.isAvailable { return "built without the GPSD trait: no libgps" }
        if !hasSharedData {
            return "nmea/\(logs.joined(separator: ", nmea/")) not found under \(dataDirectory.path) "
                + "(the shared data folder is not part of the repository)"
        }
        if !hasGPSFake { return "gpsfake or gpsd not on PATH (Debian: gpsd, gpsd-clients; scripts/install-deps.sh)" }
        return nil
    }

    /// The full path of `name` on PATH (plus /usr/sbin, where Debian puts gpsd), if it is there.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
