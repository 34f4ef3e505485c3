// Replacement by identifier: starting a region whose identifier is monitored replaces it and keeps its state, so a
// vehicle the new shape still contains sees no exit and enter.
import Foundation
import Geofencing
import Testing

@Suite("Replacement by identifier")
struct ReplacementTests {
    private let plane = LocalPlane(origin: .brisbane)

    /// A harness with regions A (100 m at the origin) and B (far away), the vehicle parked 50 m north of A's centre
    /// for 10 fixes (t = 0 ... 9), A inside.
    private func parkedInsideA() throws -> (MonitorHarness, TrackBuilder) {
        let harness = try MonitorHarness()
        harness.start(.test("A"), .test("B", center: plane.coordinate(east: 5000, north: 0)))
        var track = TrackBuilder(origin: .brisbane, north: 50)
        track.fix()
        track.park(count: 9)
        harness.feed(track.fixes)
        try #require(harness.monitor.state(for: "A") == .inside)
        return (harness, track)
    }

    /// Feeds the fixes the track builds after `previous` fixes.
    private func feedNew(_ harness: MonitorHarness, _ track: TrackBuilder, after previous: Int) {
        harness.feed(Array(track.fixes.dropFirst(previous)))
    }

    @Test("a new shape that still contains the vehicle: no exit, no enter, state kept, count unchanged")
    func replacementStillContaining() throws {
        var (harness, track) = try parkedInsideA()
        let fed = track.fixes.count
        let moved = Region.test("A", radius: 80, center: plane.coordinate(east: 30, north: 0))  // 58 m away
        harness.monitor.startMonitoring(for: moved)
        #expect(harness.recorder.callbacks.last == .started(moved))
        #expect(harness.monitor.monitoredRegions.count == 2)
        #expect(harness.monitor.monitoredRegions.contains(moved))
        #expect(!harness.monitor.monitoredRegions.contains(.test("A")))
        #expect(harness.monitor.state(for: "A") == .inside)
        track.park(count: 20)
        feedNew(harness, track, after: fed)
        #expect(harness.transitions(of: "A").isEmpty, "\(harness.events(of: "A").summary)")
        #expect(harness.monitor.state(for: "A") == .inside)
    }

    @Test("a new shape that no longer contains the vehicle: exit on the next fix, carrying the new region")
    func replacementNotContaining() throws {
        var (harness, track) = try parkedInsideA()
        let fed = track.fixes.count
        let moved = Region.test("A", radius: 100, center: plane.coordinate(east: 0, north: 400))  // 350 m away
        harness.monitor.startMonitoring(for: moved)
        #expect(harness.monitor.monitoredRegions.count == 2)
        track.park(count: 5)
        feedNew(harness, track, after: fed)
        let transitions = harness.transitions(of: "A")
        try #require(transitions.kinds == [.exit], "\(harness.events(of: "A").summary)")
        #expect(transitions[0].time == track.fixes[fed].timestamp, "on the first fix after the replacement")
        #expect(transitions[0].region == moved)
        #expect(abs(transitions[0].distance! - 250) < 0.1)
    }

    @Test("a new shape the vehicle is just outside of, within the hysteresis: no exit until 10 m past the boundary")
    func replacementKeepsHysteresis() throws {
        var (harness, track) = try parkedInsideA()
        let fed = track.fixes.count
        // New centre 145 m south of the vehicle, radius 140: s = +5, inside the 10 m hysteresis band.
        let moved = Region.test("A", radius: 140, center: plane.coordinate(east: 0, north: 50 - 145))
        harness.monitor.startMonitoring(for: moved)
        track.park(count: 5)
        feedNew(harness, track, after: fed)
        #expect(harness.transitions(of: "A").isEmpty, "\(harness.events(of: "A").summary)")
        // The vehicle moves 6 m further north: s = +11, past the hysteresis.
        let fed2 = track.fixes.count
        track.move(toEast: 0, north: 56)
        track.park(count: 1)
        feedNew(harness, track, after: fed2)
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.exit], "\(harness.events(of: "A").summary)")
        #expect(transitions.first?.time == track.fixes.last?.timestamp)
    }

    @Test("replacing a region while outside with a shape containing the vehicle: an ordinary enter on the next fix")
    func replacementNowContaining() throws {
        let harness = try MonitorHarness()
        harness.start(.test("A"))
        var track = TrackBuilder(origin: .brisbane, north: 300)
        track.fix()
        harness.feed(track.fixes)
        try #require(harness.monitor.state(for: "A") == .outside)
        harness.monitor.startMonitoring(for: .test("A", center: plane.coordinate(east: 0, north: 280)))
        track.park(count: 1)
        harness.feed([track.fixes.last!])
        let transitions = harness.transitions(of: "A")
        #expect(transitions.kinds == [.enter], "\(harness.events(of: "A").summary)")
        #expect(transitions.first?.inferred == false)
    }

    @Test("stopping and starting again is not a replacement: the new region starts unknown and is determined")
    func stopThenStart() throws {
        let (harness, track) = try parkedInsideA()
        harness.monitor.stopMonitoring(identifier: "A")
        #expect(harness.monitor.state(for: "A") == nil)
        #expect(harness.monitor.monitoredRegions.count == 1)
        harness.monitor.startMonitoring(for: .test("A"))
        #expect(harness.monitor.state(for: "A") == .unknown)
        harness.feed([Fix(coordinate: track.fixes.last!.coordinate, timestamp: track.time + 1)])
        let last = harness.events(of: "A").last
        #expect(last?.kind == .determined)
        #expect(last?.state == .inside)
        #expect(harness.transitions(of: "A").isEmpty)
    }
}
