// The GNSS time guard in front of the rules: one bogus time costs only its own observation, a real change of time
// base is adopted after `timeBaseConfirmation` observations with none lost, and each case is counted.
import Foundation
import Geofencing
import Testing

@Suite("GNSS time guard")
struct GNSSTimeGuardTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// A drive north through region "A" (r 100 m at the origin): 1 Hz, 10 m/s, from 305 m south to 295 m north;
    /// enter at 22 s (85 m south, 15 m inside), exit at 42 s.
    private func drive(from start: Date = TrackBuilder.epoch, count: Int = 61) -> [Fix] {
        (0..<count).map { second in
            Fix(coordinate: plane.coordinate(east: 0, north: -305 + 10 * Double(second)),
                timestamp: start + Double(second), horizontalAccuracy: 5)
        }
    }

    private func events(_ fixes: [Fix], configuration: MonitorConfiguration = MonitorConfiguration(),
                        regions: [Region] = [.test("A")]) throws -> (events: [RegionEvent], time: GNSSTimeStatistics) {
        let harness = try MonitorHarness(configuration: configuration)
        for region in regions { harness.start(region) }
        harness.feed(fixes)
        return (harness.regionEvents, harness.monitor.timeStatistics)
    }

    private func summaries(_ events: [RegionEvent]) -> [String] { events.map(\.summary) }

    @Test("one fix dated 2099 costs only itself: every later fix is used, the enter and exit come on time")
    func futureDateCostsItsFix() throws {
        var fixes = drive()
        let clean = try events(fixes)
        fixes[5].timestamp = Date(timeIntervalSince1970: 4_085_000_000)  // 2099-06-13, on the same road
        let guarded = try events(fixes)
        #expect(summaries(guarded.events) == summaries(clean.events))
        #expect(guarded.events.map(\.kind) == [.determined, .enter, .exit], "\(summaries(guarded.events))")
        #expect(guarded.time.forwardJumpsDropped == 1 && guarded.time.timeBasesAdopted == 0)
        #expect(guarded.time.firstForwardJump?.time == fixes[5].timestamp)
        #expect(guarded.time.firstForwardJump?.after == fixes[4].timestamp)
    }

    @Test("two bogus epochs in a row, one ahead and one behind, are both dropped")
    func twoBogusEpochs() throws {
        var fixes = drive()
        let clean = try events(fixes)
        fixes[10].timestamp = TrackBuilder.epoch + 86_400 * 365
        fixes[11].timestamp = TrackBuilder.epoch - 7 * 86_400 * 1024  // a GPS week rollover
        let guarded = try events(fixes)
        #expect(summaries(guarded.events) == summaries(clean.events))
        #expect(guarded.time.forwardJumpsDropped == 1 && guarded.time.backwardStepsDropped == 1)
    }

    @Test("a fix from the past is dropped and counted; the fixes after it are used")
    func backwardStepCostsItsFix() throws {
        var fixes = drive()
        let clean = try events(fixes)
        fixes[25].timestamp = TrackBuilder.epoch - 3600
        let guarded = try events(fixes)
        #expect(summaries(guarded.events) == summaries(clean.events.filter { $0.time != TrackBuilder.epoch + 25 }))
        #expect(guarded.time.backwardStepsDropped == 1 && guarded.time.firstBackwardStep?.seconds == -3624)
    }

    @Test("a log spliced to one a day later: the new time is adopted after 3 fixes, and none of them is lost")
    func forwardSpliceAdopted() throws {
        let later = TrackBuilder.epoch + 86_400
        let fixes = Array(drive().prefix(20)) + drive(from: later).dropFirst(20)
        var immediate = MonitorConfiguration()
        immediate.timeBaseConfirmation = 1
        let adopted = try events(fixes), reference = try events(fixes, configuration: immediate)
        #expect(summaries(adopted.events) == summaries(reference.events))
        #expect(adopted.time.timeBasesAdopted == 1 && adopted.time.backwardTimeBasesAdopted == 0)
        // The day between the two parts is an outage: unknown, then the state found at the first fix after it.
        let afterSplice = adopted.events.filter { $0.time >= later }
        #expect(afterSplice.first?.state == .unknown && afterSplice.first?.time == later + 20,
                "\(summaries(afterSplice))")
        #expect(afterSplice.contains { $0.kind == .exit && $0.time == later + 42 }, "\(summaries(afterSplice))")
    }

    @Test("held fixes wait for confirmation: nothing of the new time base is delivered before the third fix")
    func heldUntilConfirmed() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        harness.feed(Array(drive().prefix(5)))
        let before = harness.regionEvents.count
        let later = drive(from: TrackBuilder.epoch + 7200).dropFirst(5)
        harness.feed(Array(later.prefix(2)))
        #expect(harness.regionEvents.count == before && harness.monitor.timeStatistics.held == 2)
        harness.feed(Array(later.dropFirst(2).prefix(1)))
        #expect(harness.monitor.timeStatistics.held == 0 && harness.monitor.timeStatistics.timeBasesAdopted == 1)
        #expect(harness.regionEvents.dropFirst(before).map(\.time).min() == TrackBuilder.epoch + 7205)
    }

    @Test("a receiver whose clock is set back by a year: the earlier time base is adopted, the drive goes on")
    func backwardTimeBaseAdopted() throws {
        // The first 25 fixes carry a date a year ahead, then the receiver corrects its clock.
        let wrong = TrackBuilder.epoch + 365 * 86_400
        let fixes = Array(drive(from: wrong).prefix(25)) + drive().dropFirst(25)
        let result = try events(fixes, regions: [.test("A", dwellTime: 30)])
        #expect(result.time.timeBasesAdopted == 1 && result.time.backwardTimeBasesAdopted == 1)
        #expect(result.time.firstAdoption?.time == TrackBuilder.epoch + 25)
        let kinds = result.events.map(\.kind)
        #expect(kinds == [.determined, .enter, .exit], "\(summaries(result.events))")
        #expect(result.events.last?.time == TrackBuilder.epoch + 42, "\(summaries(result.events))")
    }

    @Test("across a time base adopted backwards the dwell clock keeps the time it counted")
    func dwellAcrossBackwardTimeBase() throws {
        // Parked inside: 20 s on a clock a year ahead, then 20 s on the right one. Dwell 30 s: after 30 s inside.
        let wrong = TrackBuilder.epoch + 365 * 86_400
        let parked = { (start: Date, count: Int) in
            (0..<count).map { Fix(coordinate: .brisbane, timestamp: start + Double($0), horizontalAccuracy: 5) }
        }
        let fixes = parked(wrong, 20) + parked(TrackBuilder.epoch + 20, 20)
        let result = try events(fixes, regions: [.test("A", dwellTime: 30)])
        #expect(result.events.map(\.kind) == [.determined, .dwell], "\(summaries(result.events))")
        // 19 s counted on the first clock (its fixes 0 ... 19), the step taken as no time, 11 s on the second.
        #expect(result.events.last?.time == TrackBuilder.epoch + 31, "\(summaries(result.events))")
    }

    @Test("repeated times are processed and counted")
    func duplicateTimes() throws {
        let fixes = drive()
        let doubled = fixes.flatMap { [$0, $0] }
        let result = try events(doubled)
        #expect(summaries(result.events) == summaries(try events(fixes).events))
        #expect(result.time.duplicateTimes == fixes.count && result.time.forwardJumpsDropped == 0)
    }

    @Test("a 'no fix' report dated in the future does not start an outage")
    func futureNoFix() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        let fixes = drive()
        harness.feed(Array(fixes.prefix(30)))
        harness.monitor.processNoFix(at: TrackBuilder.epoch + 30 + 86_400 * 30)
        harness.feed(Array(fixes.dropFirst(30)))
        #expect(!harness.regionEvents.contains { $0.state == .unknown }, "\(summaries(harness.regionEvents))")
        #expect(harness.regionEvents.map(\.kind) == [.determined, .enter, .exit])
        #expect(harness.monitor.timeStatistics.forwardJumpsDropped == 1)
    }
}
