// What process(_:) returns: the observation's events, as the delegate and the streams get them, and the records of
// the regions whose state changed (what a store keeps to restore them), which follow the monitor's own rules.
import Foundation
import Geofencing
import Testing

// The time limit guards against a deadlock; it is not a speed test. It counts the time a test waits for a thread
// of the test pool: up to 4 minutes under AddressSanitizer on a 2-core machine, beside the slower suites.
@Suite("What process returns", .timeLimit(.minutes(10)))
struct ObservationOutcomeTests {
    private let plane = LocalPlane(origin: .brisbane)

    private func fix(north: Double, at seconds: Double) -> Fix {
        Fix(coordinate: plane.coordinate(east: 0, north: north), timestamp: TrackBuilder.epoch + seconds,
            horizontalAccuracy: 3)
    }

    @Test("the returned events are the delegate's and every stream's, in the same order, fix by fix")
    func returnedEventsAreTheDelivered() async throws {
        let recorder = EventRecorder()
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.delegate = recorder
        let stream = monitor!.events
        let outcomes = SequenceTests.busyScenario(monitor!)
        monitor = nil  // the stream ends when the monitor goes away
        let fromStream = await collectUntilEnd(stream).compactMap { event -> RegionEvent? in
            if case .region(let regionEvent) = event { regionEvent } else { nil }
        }
        let returned = outcomes.flatMap(\.events)
        #expect(returned.count > 500)
        #expect(returned == recorder.regionEvents)
        #expect(returned == fromStream)
    }

    @Test("a region's record after each observation: the states, the stay and its dwell, as the monitor has them")
    func recordsOfARegionsLife() throws {
        let harness = try MonitorHarness()
        harness.start(.test("r", dwellTime: 30), .test("other", center: plane.coordinate(east: 2_000, north: 0)))
        let outside = RegionStateRecord(state: .outside)
        func inside(since seconds: Double, dwellReported: Bool = false) -> RegionStateRecord {
            RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch + seconds, dwellReported: dwellReported)
        }
        let unknownAfterInside = RegionStateRecord(
            state: .unknown, lastKnownState: .inside, insideSince: TrackBuilder.epoch + 10, dwellReported: true)
        let unknownAfterOutside = RegionStateRecord(state: .unknown, lastKnownState: .outside)
        let steps: [(observation: Observation, kinds: [RegionEvent.Kind], record: RegionStateRecord?)] = [
            // The first fix: determined outside ("other", far away, too).
            (.fix(fix(north: 300, at: 0)), [.determined], outside),
            (.fix(fix(north: 300, at: 5)), [], nil),
            (.fix(fix(north: 0, at: 10)), [.enter], inside(since: 10)),
            (.fix(fix(north: 0, at: 25)), [], nil),
            (.fix(fix(north: 0, at: 40)), [.dwell], inside(since: 10, dwellReported: true)),
            // An outage (reports without a position): the state becomes unknown, the stay and its dwell are kept.
            (.noFix(TrackBuilder.epoch + 90), [], nil),
            (.noFix(TrackBuilder.epoch + 101), [.determined], unknownAfterInside),
            // Fixes again, still inside: the same stay.
            (.fix(fix(north: 0, at: 105)), [.determined], inside(since: 10, dwellReported: true)),
            (.fix(fix(north: 300, at: 110)), [.exit], outside),
            (.noFix(TrackBuilder.epoch + 150), [], nil),
            (.noFix(TrackBuilder.epoch + 171), [.determined], unknownAfterOutside),
            // Back, inside past the threshold: an inferred enter, a new stay from it.
            (.fix(fix(north: 0, at: 180)), [.enter], inside(since: 180)),
        ]
        for (index, step) in steps.enumerated() {
            let outcome = harness.monitor.process(step.observation)
            let own = outcome.events.filter { $0.regionIdentifier == "r" }
            #expect(own.kinds == step.kinds, "step \(index): \(outcome.events.summary)")
            #expect(outcome.changedStates["r"] == step.record, "step \(index)")
        }
        #expect(harness.regionEvents.filter { $0.regionIdentifier == "r" }.last?.inferred == true)
    }

    @Test("returnsChangedStates false: the records listed, read in parts, are the outcomes' and kept until cleared")
    func changedStatesReadInParts() throws {
        let returning = try RegionMonitor()
        var configuration = MonitorConfiguration()
        configuration.returnsChangedStates = false
        let listing = try RegionMonitor(configuration: configuration)
        for index in 0..<60 {
            let region = Region(
                center: plane.coordinate(east: Double(index % 5) * 30 - 60, north: Double(index) * 40), radius: 25,
                identifier: "r\(index)", dwellTime: index % 4 == 0 ? 5 : nil)
            returning.startMonitoring(for: region)
            listing.startMonitoring(for: region)
        }
        var track = TrackBuilder(origin: .brisbane, north: -100)
        track.drive(bearing: 0, speed: 15, count: 180)
        var unstored: [String: RegionStateRecord] = [:]
        var compared = 0
        for (index, fix) in track.fixes.enumerated() {
            let expected = returning.process(fix)
            unstored.merge(expected.changedStates) { _, newer in newer }
            let outcome = listing.process(fix)
            #expect(outcome.events == expected.events, "fix \(index)")
            #expect(outcome.changedStates.isEmpty)
            // Taken every third fix: until then the list keeps the regions of the fixes before.
            guard index % 3 == 2 else { continue }
            var parts: [String: RegionStateRecord] = [:]
            for start in stride(from: 0, to: listing.changedStateCount, by: 7) {
                let part = listing.changedStates(from: start, limit: 7)
                #expect(part.count <= 7)
                parts.merge(part) { first, _ in
                    Issue.record("a region in two parts at fix \(index)")
                    return first
                }
            }
            #expect(parts == unstored, "fix \(index)")
            compared += parts.count
            listing.clearChangedStates()
            #expect(listing.changedStateCount == 0)
            unstored = [:]
        }
        #expect(compared >= 60, "every region's first determination, and the drive's transitions")
    }

    @Test("a transition the notify flags keep quiet changes the record without an event")
    func quietTransitionChangesTheRecord() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", notifyOnExit: false))
        harness.monitor.process(fix(north: 0, at: 0))
        let outcome = harness.monitor.process(fix(north: 300, at: 1))
        #expect(outcome.events.isEmpty, "\(outcome.events.summary)")
        #expect(outcome.changedStates == ["A": RegionStateRecord(state: .outside)])
    }

    @Test("a restored state that the first fix confirms: no event, and no changed record (it is the restored one)")
    func confirmedRestoreChangesNoRecord() throws {
        let harness = try MonitorHarness()
        let since = TrackBuilder.epoch - 50
        try harness.monitor.restoreMonitoring(
            for: .test("A", dwellTime: 600), state: RegionStateRecord(state: .inside, insideSince: since))
        let outcome = harness.monitor.process(fix(north: 10, at: 0))
        #expect(outcome.events.isEmpty, "\(outcome.events.summary)")
        #expect(outcome.changedStates.isEmpty, "\(outcome.changedStates)")
        #expect(harness.monitor.state(for: "A") == .inside)
        // The record still changes when the stay does: leaving is an exit and a new record.
        let exit = harness.monitor.process(fix(north: 300, at: 1))
        #expect(exit.changedStates == ["A": RegionStateRecord(state: .outside)])
    }

    @Test("a fast pass reported by interpolation changes no record: the region stays outside")
    func interpolatedPassChangesNoRecord() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", radius: 20))
        harness.monitor.process(fix(north: -60, at: 0))
        let outcome = harness.monitor.process(fix(north: 60, at: 2))
        #expect(outcome.events.map(\.interpolated) == [true, true], "\(outcome.events.summary)")
        #expect(outcome.changedStates.isEmpty)
        #expect(harness.monitor.state(for: "A") == .outside)
    }

    @Test("an approach changes no record: the region stays outside")
    func approachChangesNoRecord() throws {
        let monitor = try RegionMonitor()
        monitor.startMonitoring(for: .test("A", approach: ApproachAlarm(leadTime: 30)))
        var track = TrackBuilder(origin: .brisbane, north: -2103)
        track.drive(bearing: 0, speed: 15, count: 120)
        let outcomes = track.fixes.map { monitor.process($0) }
        let approach = try #require(outcomes.first { $0.events.contains { $0.kind == .approach } })
        #expect(approach.events.kinds == [.approach])
        #expect(approach.changedStates.isEmpty)
    }

    @Test("a time base adopted backwards moves the dwell clock, and the record says so")
    func adoptedTimeBaseChangesTheRecord() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A", dwellTime: 30))
        // Parked inside: 20 s on a clock a year ahead, then on the right one (as GNSSTimeGuardTests).
        let wrong = TrackBuilder.epoch + 365 * 86_400
        let parked = { (start: Date, count: Int) in
            (0..<count).map { Fix(coordinate: .brisbane, timestamp: start + Double($0), horizontalAccuracy: 5) }
        }
        let outcomes = (parked(wrong, 20) + parked(TrackBuilder.epoch + 20, 20)).map { harness.monitor.process($0) }
        #expect(outcomes[0].changedStates["A"] == RegionStateRecord(state: .inside, insideSince: wrong))
        let moved = outcomes.dropFirst().compactMap { $0.changedStates["A"] }
        // 19 s counted on the first clock, the step taken as no time: inside since 1 s after the new clock's 0.
        #expect(moved.first == RegionStateRecord(state: .inside, insideSince: TrackBuilder.epoch + 1))
        #expect(moved.last?.dwellReported == true)
    }

    @Test("each region's record matches the monitor's state after every fix of the busy scenario")
    func recordsFollowTheMonitor() throws {
        let monitor = try RegionMonitor()
        var latest: [String: RegionStateRecord] = [:]
        let outcomes = SequenceTests.busyScenario(monitor)
        for outcome in outcomes { latest.merge(outcome.changedStates) { _, newer in newer } }
        #expect(latest.count > 300)
        for region in monitor.monitoredRegions {
            let record = latest[region.identifier]
            #expect((record?.state ?? .unknown) == monitor.state(for: region.identifier), "\(region.identifier)")
            if let record, record.state != .unknown { #expect(record.lastKnownState == record.state) }
            if let record, record.lastKnownState != .inside { #expect(record.insideSince == nil && !record.dwellReported) }
        }
    }

    @Test("an outcome is a value: a quiet fix's equals an empty one, a copy changed alone, equal outcomes hash alike")
    func outcomeIsAValue() throws {
        let harness = try MonitorHarness()
        harness.start(.test("r"))
        let first = harness.monitor.process(fix(north: 500, at: 0))  // outside: the first determination
        let next = harness.monitor.process(fix(north: 510, at: 1))
        #expect(next == ObservationOutcome())
        #expect(next.events.isEmpty && next.changedStates.isEmpty)
        #expect(next.hashValue == ObservationOutcome().hashValue)
        #expect(!first.changedStates.isEmpty)

        let entered = harness.monitor.process(fix(north: 0, at: 30))
        #expect(entered.events.map(\.kind) == [.enter])
        var copy = entered
        copy.events = []
        #expect(entered.events.count == 1 && copy.events.isEmpty)  // the original keeps its events
        #expect(copy.changedStates == entered.changedStates && copy != entered)
        copy.changedStates = [:]
        #expect(copy == ObservationOutcome() && copy.hashValue == ObservationOutcome().hashValue)
        let rebuilt = ObservationOutcome(events: entered.events, changedStates: entered.changedStates)
        #expect(rebuilt == entered && rebuilt.hashValue == entered.hashValue)
    }
}
