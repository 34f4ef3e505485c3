import Foundation

/// Reads a whole file for the track readers, turning Foundation's error into a `TrackReadError` that names the file.
enum TrackFileData {
    static func contents(ofFile path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            throw TrackReadError(source: path, message: "no such file")
        } catch {
            throw TrackReadError(source: path, message: "cannot be read: \(error.localizedDescription)")
        }
    }
}
