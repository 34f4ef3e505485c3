// Writing the page: the whole file or nothing, and an error that names the path.
import Foundation
import GeofencingMap
import Testing

@Suite("Map file")
struct MapWriteTests {
    @Test("write(to:) writes html() and replaces an older map")
    func writes() throws {
        let directory = try Chromium.temporaryDirectory("map-write")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("map.html").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let drive = MapTestData.drive()
        let document = MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events)
        try document.write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == document.html())
    }

    @Test("a folder that does not exist gives an error naming the path and the reason")
    func errorNamesPath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/map.html"
        let error = try #require(throws: MapWriteError.self) {
            try MapDocument(title: "t", regions: []).write(to: path)
        }
        #expect(error.path == path)
        #expect(error.description.contains(path) && !error.reason.isEmpty, "\(error)")
    }
}
