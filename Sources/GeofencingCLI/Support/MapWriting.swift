import GeofencingMap

/// Writes a map for a command and says where it is.
enum MapWriting {
    static func write(_ document: MapDocument, to path: String) throws {
        do {
            try document.write(to: path)
        } catch {
            throw CLIError.failure("cannot write the map \(path): \(error)")
        }
        Console.error("map: \(path)")
    }
}
