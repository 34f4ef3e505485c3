import GeofencingInputs

/// Reads a track file for a command, reporting skipped lines on standard error.
enum TrackLoading {
    static func read(_ path: String) throws -> TrackFile {
        let track: TrackFile
        do {
            track = try TrackFile.read(path: path)
        } catch {
            throw CLIError.failure("\(error)")
        }
        if track.badLines > 0 {
            let first = track.problems.first.map { " (first: \($0))" } ?? ""
            Console.error("warning: \(path): skipped \(track.badLines) unreadable lines\(first)")
        }
        return track
    }
}
