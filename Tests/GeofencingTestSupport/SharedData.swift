// Shared test support: where the shared real-world data sets are, and whether they are there at all.
import Foundation
import Testing

/// The shared data folder, beside the repository: `<package root>/../shared/data`. It is not part of the
/// repository, so tests that need it are skipped (with this explanation) when it is absent.
public enum SharedData {
    /// The package root is three levels above this file (`<root>/Tests/GeofencingTestSupport/SharedData.swift`).
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data").standardizedFileURL

    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    public static func isAvailable(_ relativePaths: String...) -> Bool {
        relativePaths.allSatisfy { FileManager.default.isReadableFile(atPath: url($0).path) }
    }

    public static func skipMessage(_ relativePaths: String...) -> Comment {
        Comment(rawValue: "\(relativePaths.joined(separator: " and ")) not found under \(directory.path) "
            + "(the shared data folder is not part of the repository)")
    }
}
