// Helpers of the fence file tests: parse text as a named file, catch its error, write temporary files.
import Foundation
import GeofencingInputs

enum FenceFileTestSupport {
    static func parse(_ text: String, name: String, defaultRadius: Double = 100) throws -> FenceFileContents {
        try FenceFile.parse(Data(text.utf8), name: name, defaultRadius: defaultRadius)
    }

    /// The error that reading `data` as `name` throws; nil when it reads.
    static func error(reading data: Data, name: String, defaultRadius: Double = 100) -> FenceFileError? {
        do {
            _ = try FenceFile.parse(data, name: name, defaultRadius: defaultRadius)
            return nil
        } catch {
            return error
        }
    }

    /// A fresh directory for files of one test; the caller removes it.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FenceFileTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
