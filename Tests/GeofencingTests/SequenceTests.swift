// Sequence numbers (from firstSequence, +1 in delivery order, no gaps) and determinism (a replay gives identical
// events, in the same order).
import Foundation
import Geofencing
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Sequence numbers and determinism")
struct SequenceTests {
    /// A busy scenario exercising every rule: 400 seeded regions (5 m ... 300 m, some with dwell times) around a drive
    /// with jitter, slow and fast stretches, an outage and a parked stretch.
    /// Returns what each fix's `process(_:)` returned, in order.
    @discardableResult
    static func busyScenario(_ monitor: RegionMonitor) -> [ObservationOutcome] {
        var random = SplitMix64(seed: 0xB05)
        let plane = LocalPlane(origin: .brisbane)
        for index in 0..<400 {
            let east = (random.nextUnit() - 0.5) * 400, north = random.nextUnit() * 4000 - 200
            let radius = 5 * pow(60, random.nextUnit())
            monitor.startMonitoring(for: Region(
                center: plane.coordinate(east: east, north: north), radius: radius, identifier: "r\(index)",
                dwellTime: index % 5 == 0 ? 20 : nil))
        }
        var track = TrackBuilder(origin: .brisbane, north: -100, seed: 0xD21E)
        track.jitter = 4
        track.accuracy = 6
        track.fix()
        track.drive(bearing: 0, speed: 8, count: 100)
        track.park(count: 40)
        track.jitter = 0
        track.drive(bearing: 0, speed: 35, count: 40)  // fast: interpolated passes through the small regions
        track.gap(seconds: 75, toEast: 60, north: 2600)  // an outage; the vehicle moved meanwhile
        track.jitter = 4
        track.drive(bearing: 10, speed: 10, count: 100)
        track.accuracy = 150
        track.park(count: 5)  // unusable fixes
        return track.fixes.map { monitor.process($0) }
    }

    @Test("sequence numbers start at firstSequence and grow by exactly 1 in delivery order",
          arguments: [UInt64(1), 1_000_000, 1 << 40])
    func sequenceNumbers(firstSequence: UInt64) throws {
        var configuration = MonitorConfiguration()
        configuration.firstSequence = firstSequence
        let harness = try MonitorHarness(configuration: configuration)
        Self.busyScenario(harness.monitor)
        let events = harness.regionEvents
        try #require(events.count > 100)
        #expect(events.first?.sequence == firstSequence)
        #expect(events.map(\.sequence) == Array(firstSequence..<firstSequence + UInt64(events.count)))
    }

    @Test("the busy scenario exercises every kind of event (so the determinism check covers them)")
    func scenarioCoversEveryRule() throws {
        let harness = try MonitorHarness()
        Self.busyScenario(harness.monitor)
        let events = harness.regionEvents
        #expect(events.contains { $0.kind == .enter && !$0.interpolated && !$0.inferred })
        #expect(events.contains { $0.kind == .exit && !$0.interpolated && !$0.inferred })
        #expect(events.contains { $0.kind == .enter && $0.interpolated })
        #expect(events.contains { $0.kind == .dwell })
        #expect(events.contains { $0.state == .unknown })
        #expect(events.contains { $0.inferred })
        #expect(TransitionChecker().problems(in: events) == [])
    }

    @Test("two replays of the same input give identical events, in the same order")
    func replayIsDeterministic() throws {
        // Within one process the hash seed is fixed, so this catches dependence on the wall clock, addresses and
        // timing, not on Set/Dictionary order across processes; the engine iterates arrays and SlotLists only.
        let first = try MonitorHarness(), second = try MonitorHarness()
        Self.busyScenario(first.monitor)
        Self.busyScenario(second.monitor)
        #expect(first.recorder.monitorEvents == second.recorder.monitorEvents)
        #expect(first.regionEvents.count > 100)
    }

    @Test("a pause between fixes (wall-clock time) changes nothing: only fix timestamps count")
    func wallClockDoesNotMatter() async throws {
        let plane = LocalPlane(origin: .brisbane)
        let fixes = [300.0, 150, 50, 50, 200].enumerated().map { index, north in
            Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + Double(index))
        }
        let quick = try MonitorHarness(), slow = try MonitorHarness()
        quick.start(.test("A", dwellTime: 0.5))
        slow.start(.test("A", dwellTime: 0.5))
        quick.feed(fixes)
        for fix in fixes {
            slow.monitor.process(fix)
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(slow.recorder.monitorEvents == quick.recorder.monitorEvents)
        #expect(quick.events(of: "A").kinds == [.determined, .enter, .dwell, .exit])
    }
}
