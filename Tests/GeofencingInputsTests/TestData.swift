// Test support: where the shared real-world logs and this target's own fixtures are.
import Foundation
import Testing

/// The data folder shared between the project's sessions, `<package root>/../shared/data`, and this test target's
/// fixtures. The shared folder is not part of the repository: tests that need it are skipped, with `skipMessage`,
/// when it is absent.
enum TestData {
    /// The package root is three levels above this file (`<root>/Tests/GeofencingInputsTests/TestData.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let sharedDirectory = packageRoot.appendingPathComponent("../shared/data").standardizedFileURL

    static let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func shared(_ relativePath: String) -> URL {
        sharedDirectory.appendingPathComponent(relativePath)
    }

    static func fixture(_ name: String) -> URL {
        fixturesDirectory.appendingPathComponent(name)
    }

    static var isSharedDataAvailable: Bool {
        FileManager.default.fileExists(atPath: sharedDirectory.path)
    }

    static let skipMessage = Comment(rawValue: "skipped: the shared data folder \(sharedDirectory.path) is absent "
        + "(it is not part of the repository)")

    /// The NMEA logs in the shared folder, by file name; empty when the folder is absent.
    static var sharedNMEALogs: [String] {
        let directory = shared("nmea").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
