import Foundation
import GeofencingEvents

/// Reads a file of the JSON Lines that `--format jsonl` writes back into events (for `geofence map --events`),
/// line by line with `EventRecord.parse(jsonLine:)`: error lines and blank lines are skipped; anything else
/// malformed is an error naming the file and line.
enum EventLines {
    static func read(path: String) throws -> [EventRecord] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failure("cannot read events \(path): \(String(cString: strerror(errno)))")
        }
        var events: [EventRecord] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
            do {
                if let event = try EventRecord.parse(jsonLine: line) { events.append(event) }
            } catch {
                throw CLIError.failure("\(path):\(index + 1): \(error)")
            }
        }
        return events
    }
}
