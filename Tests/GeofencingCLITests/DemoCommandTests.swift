import Foundation
import GeofencingTestSupport
import Testing

/// `geofence demo`, the README's first command: on its own, the same events every time, the right ones, and a map.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DemoCommandTests {
    @Test func demoReportsTheBusLineAndWritesAMap() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try GeofenceExecutable.run(["demo", "--format", "jsonl"], in: directory)
        let second = try GeofenceExecutable.run(["demo", "--format", "jsonl"], in: directory)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput, "the same seed gives the same events")

        let events = try EventLine.parse(first.standardOutput)
        let regions = Set(events.map(\.region))
        #expect(events.map(\.seq) == Array(1...UInt64(events.count)))
        // Every fence is determined at the first fix; only the depot starts inside.
        #expect(events.prefix(regions.count).allSatisfy { $0.type == "state" })
        #expect(events.prefix(regions.count).filter { $0.state == "inside" }.map(\.region) == ["depot"])
        // The stops the bus serves: entered and dwelt at; the express stop: entered and left within seconds.
        for stop in ["stop-101 Creek Rd", "stop-102 Market St", "stop-104 Hospital", "stop-105 Station"] {
            #expect(events.contains { $0.type == "enter" && $0.region == stop }, "\(stop)")
            #expect(events.contains { $0.type == "dwell" && $0.region == stop }, "\(stop)")
        }
        let express = events.filter { $0.region.hasPrefix("stop-103") }.map(\.type)
        #expect(express == ["state", "enter", "exit"])
        // The stops off the line never fire, despite the receiver's noise.
        #expect(events.filter { $0.region.hasPrefix("stop-20") }.allSatisfy { $0.type == "state" })
        #expect(events.contains { $0.type == "exit" && $0.region == "depot" })
        // The corridor and the polygon: determined outside at the first fix, entered and left once.
        for shape in ["bus lane Creek Rd (corridor)", "school zone (polygon)"] {
            #expect(events.filter { $0.region == shape }.map(\.type) == ["state", "enter", "exit"], "\(shape)")
        }

        let map = try String(contentsOf: directory.appendingPathComponent("demo-map.html"), encoding: .utf8)
        #expect(map.contains("stop-105 Station") && map.contains("<svg"))
        #expect(first.standardError.contains("demo: 11 fences"))
        #expect(map.contains("\"type\":\"corridor\"") && map.contains("\"type\":\"polygon\""))
    }
}
