// Adding and restoring many regions in one call (RegionMonitor.startMonitoring(_:), restoreMonitoring(_:)): the
// same regions, states, callbacks and events as one call per region, across more than one chunk.
import Foundation
import Geofencing
import Testing

@Suite("Bulk start and restore")
struct BulkAddTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// 5,000 regions along a line north (more than one bulk chunk), every tenth one with a dwell time (kept out of
    /// line), one invalid (a negative radius), and one identifier given twice (the second replaces the first).
    private func regions() -> [Region] {
        var regions = (0..<5_000).map { index in
            Region.test("r\(index)", radius: 40, center: plane.coordinate(east: 0, north: Double(index) * 100),
                        dwellTime: index % 10 == 0 ? 5 : nil)
        }
        regions[17] = Region.test("bad", radius: -1)
        regions.append(Region.test("r3", radius: 80, center: plane.coordinate(east: 0, north: 300)))
        return regions
    }

    /// A drive north through the first regions, one fix a second, 10 m apart.
    private func drive() -> [Fix] {
        (0..<200).map { second in
            Fix(coordinate: plane.coordinate(east: 0, north: Double(second) * 10),
                timestamp: TrackBuilder.epoch + Double(second), horizontalAccuracy: 3)
        }
    }

    @Test("startMonitoring(_:) reports and monitors as startMonitoring(for:) called for each region")
    func bulkStart() throws {
        let one = try MonitorHarness(), bulk = try MonitorHarness()
        for region in regions() { one.monitor.startMonitoring(for: region) }
        bulk.monitor.startMonitoring(regions())
        #expect(bulk.monitor.monitoredRegionCount == 4_999)
        #expect(bulk.monitor.monitoredRegion(identifier: "r3")?.radius == 80)
        #expect(bulk.monitor.monitoredRegions == one.monitor.monitoredRegions)
        one.feed(drive())
        bulk.feed(drive())
        #expect(bulk.recorder.monitorEvents.map { "\($0)" } == one.recorder.monitorEvents.map { "\($0)" })
        #expect(bulk.regionEvents.contains { $0.kind == .dwell }, "the drive has teeth: a boxed region dwells")
    }

    @Test("restoreMonitoring(_:) restores as restoreMonitoring(for:state:) for each, returning the ones refused")
    func bulkRestore() throws {
        let entries = regions().enumerated().map { index, region in
            (region: region, state: RegionStateRecord(state: index % 2 == 0 ? .inside : .outside))
        }
        let one = try MonitorHarness(), bulk = try MonitorHarness()
        var refusedOne: [String] = []
        for entry in entries {
            do { try one.monitor.restoreMonitoring(for: entry.region, state: entry.state) } catch {
                refusedOne.append("\(entry.region.identifier) \(error)")
            }
        }
        let refused = bulk.monitor.restoreMonitoring(entries).map { "\($0.region.identifier) \($0.error)" }
        #expect(refused == refusedOne)
        #expect(refused.count == 1 && refused[0].hasPrefix("bad "))
        var outcomesOne: [String] = [], outcomesBulk: [String] = []
        for fix in drive() {
            outcomesOne.append(Self.text(one.monitor.process(fix)))
            outcomesBulk.append(Self.text(bulk.monitor.process(fix)))
        }
        #expect(outcomesBulk == outcomesOne)
        #expect(bulk.regionEvents.contains { $0.inferred }, "the drive has teeth: restored states are contradicted")
    }

    /// An outcome's events in order and its changed records by identifier (a dictionary's own order is no fact).
    private static func text(_ outcome: ObservationOutcome) -> String {
        let states = outcome.changedStates.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return (outcome.events.map(\.summary) + states).joined(separator: "; ")
    }
}
