// Delivery: the delegate and every AsyncStream see the same events in the same order; a delegate may call back into
// the monitor, and what that causes is delivered after the callback.
import Foundation
import Geofencing
import Testing

// The time limit guards against a deadlock; it is not a speed test. It counts the time a test waits for a thread
// of the test pool: up to 4 minutes under AddressSanitizer on a 2-core machine, beside the slower suites.
@Suite("Delegate and event stream", .timeLimit(.minutes(10)))
struct DeliveryTests {
    @Test("delegate and two streams see the same events, starts and failures included, in the same order")
    func delegateAndStreamsAgree() async throws {
        let recorder = EventRecorder()
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.delegate = recorder
        let first = monitor!.events, second = monitor!.events
        SequenceTests.busyScenario(monitor!)
        monitor!.startMonitoring(for: .test("bad", radius: -1))
        monitor = nil  // the streams end when the monitor goes away
        let fromFirst = await collectUntilEnd(first), fromSecond = await collectUntilEnd(second)
        let fromDelegate = recorder.monitorEvents
        #expect(fromDelegate.count > 500)
        #expect(fromFirst == fromDelegate)
        #expect(fromSecond == fromDelegate)
        #expect(recorder.callbacks.allSatisfy { $0.isConsistent })
        #expect(fromDelegate.last == .monitoringDidFail(.test("bad", radius: -1), .invalidRadius(-1)))
    }

    @Test("a stream created later sees only the events from then on")
    func lateStream() async throws {
        let plane = LocalPlane(origin: .brisbane)
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.startMonitoring(for: .test("A"))
        monitor!.process(Fix(coordinate: plane.coordinate(east: 0, north: 300), timestamp: TrackBuilder.epoch))
        let stream = monitor!.events
        monitor!.process(Fix(coordinate: plane.coordinate(east: 0, north: 0), timestamp: TrackBuilder.epoch + 1))
        monitor = nil
        let events = await collectUntilEnd(stream)
        #expect(events.count == 1)
        guard case .region(let event) = events.first else { Issue.record("\(events)"); return }
        #expect(event.kind == .enter)
        #expect(event.sequence == 2)
    }

    @Test("a delegate that stops and starts regions from inside a callback does not deadlock; its events come after")
    func reentrantDelegate() async throws {
        let replacement = Region.test("B", radius: 300)
        let recorder = EventRecorder { monitor, callback in
            // On entering A: stop A, start B, ask for C's state, and look at the monitor, all from the callback.
            guard case .enter(let region, _) = callback, region.identifier == "A" else { return }
            monitor.stopMonitoring(identifier: "A")
            monitor.startMonitoring(for: replacement)
            monitor.requestState(for: .test("C"))
            _ = monitor.monitoredRegions
            _ = monitor.state(for: "C")
        }
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.delegate = recorder
        let stream = monitor!.events
        monitor!.startMonitoring(for: .test("A"))
        monitor!.startMonitoring(for: .test("C", radius: 200))
        var track = TrackBuilder(origin: .brisbane, north: -400.3)
        track.fix()
        track.drive(bearing: 0, speed: 10, count: 80)
        for fix in track.fixes { monitor!.process(fix) }
        #expect(monitor!.monitoredRegions == [.test("C", radius: 200), replacement])
        monitor = nil
        let fromStream = await collectUntilEnd(stream)
        let callbacks = recorder.callbacks
        #expect(fromStream == recorder.monitorEvents)

        let enterA = try #require(callbacks.firstIndex {
            if case .enter(let region, _) = $0 { region.identifier == "A" } else { false }
        })
        let startB = try #require(callbacks.firstIndex(of: .started(replacement)))
        // C's requested state: the first determination of C after the enter (its own came at the first fix).
        let stateC = try #require(callbacks.indices.first { index in
            guard index > enterA, case .determined(_, let region, _) = callbacks[index] else { return false }
            return region.identifier == "C"
        })
        #expect(callbacks[stateC].regionEvent?.time == callbacks[enterA].regionEvent?.time)
        #expect(enterA < startB && startB < stateC, "\(callbacks.map(\.monitorEvent))")
        // A was stopped: no exit for it even though the track leaves its 100 m circle.
        #expect(recorder.events(of: "A").kinds == [.determined, .enter])
        // B was determined at the next fix, and left later.
        #expect(recorder.events(of: "B").kinds == [.determined, .exit])
        #expect(recorder.events(of: "B").first?.state == .inside)
        // Sequence numbers still follow delivery order.
        let sequences = recorder.regionEvents.map(\.sequence)
        #expect(sequences == Array(1...UInt64(sequences.count)))
    }

    @Test("the delegate is held weakly: the monitor does not keep it alive, and streams go on without it")
    func weakDelegate() async throws {
        let plane = LocalPlane(origin: .brisbane)
        var recorder: EventRecorder? = EventRecorder()
        weak let weakRecorder = recorder
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.delegate = recorder
        let stream = monitor!.events
        monitor!.startMonitoring(for: .test("A"))
        #expect(recorder?.callbacks.count == 1)
        recorder = nil
        #expect(weakRecorder == nil, "released although the monitor still runs")
        #expect(monitor!.delegate == nil)
        monitor!.process(Fix(coordinate: plane.coordinate(east: 0, north: 0), timestamp: TrackBuilder.epoch))
        monitor = nil
        #expect(await collectUntilEnd(stream).count == 2)
    }
}
