// Failures: invalid regions and a full monitor go to monitoringDidFailFor (or are thrown), and change nothing
// already monitored.
import Foundation
import Geofencing
import Testing

@Suite("Failures")
struct FailureTests {
    private let plane = LocalPlane(origin: .brisbane)

    struct Invalid: Sendable, CustomTestStringConvertible {
        var region: Region
        /// Whether the error is the one expected (a predicate: NaN payloads never compare equal).
        var matches: @Sendable (RegionMonitorError) -> Bool
        var testDescription: String
    }

    static let invalidRegions: [Invalid] = [
        Invalid(region: Region(center: .brisbane, radius: 100, identifier: ""),
                matches: { $0 == .emptyIdentifier }, testDescription: "empty identifier"),
        Invalid(region: .test("stop\u{0}-1"), matches: { $0 == .identifierContainsNUL(byteOffset: 4) },
                testDescription: "identifier with U+0000"),
        Invalid(region: .test("nan-lat", center: Coordinate(latitude: .nan, longitude: 153)),
                matches: { if case .invalidCenter(let c) = $0 { c.latitude.isNaN } else { false } },
                testDescription: "latitude NaN"),
        Invalid(region: .test("inf-lon", center: Coordinate(latitude: -27, longitude: .infinity)),
                matches: { $0 == .invalidCenter(Coordinate(latitude: -27, longitude: .infinity)) },
                testDescription: "longitude infinite"),
        Invalid(region: .test("lat91", center: Coordinate(latitude: 91, longitude: 0)),
                matches: { $0 == .invalidCenter(Coordinate(latitude: 91, longitude: 0)) },
                testDescription: "latitude 91"),
        Invalid(region: .test("lat86", center: Coordinate(latitude: 86, longitude: 0)),
                matches: { $0 == .invalidCenter(Coordinate(latitude: 86, longitude: 0)) },
                testDescription: "latitude 86 (beyond the core's 85)"),
        Invalid(region: .test("lat-86", center: Coordinate(latitude: -86, longitude: 10)),
                matches: { $0 == .invalidCenter(Coordinate(latitude: -86, longitude: 10)) },
                testDescription: "latitude -86"),
        Invalid(region: .test("lon181", center: Coordinate(latitude: 0, longitude: 181)),
                matches: { $0 == .invalidCenter(Coordinate(latitude: 0, longitude: 181)) },
                testDescription: "longitude 181"),
        Invalid(region: .test("r0", radius: 0), matches: { $0 == .invalidRadius(0) }, testDescription: "radius 0"),
        Invalid(region: .test("r-5", radius: -5), matches: { $0 == .invalidRadius(-5) }, testDescription: "radius -5"),
        Invalid(region: .test("r0.5", radius: 0.5), matches: { $0 == .invalidRadius(0.5) },
                testDescription: "radius 0.5"),
        Invalid(region: .test("r50001", radius: 50_001), matches: { $0 == .invalidRadius(50_001) },
                testDescription: "radius 50,001"),
        Invalid(region: .test("rnan", radius: .nan),
                matches: { if case .invalidRadius(let r) = $0 { r.isNaN } else { false } },
                testDescription: "radius NaN"),
        Invalid(region: .test("rinf", radius: .infinity), matches: { $0 == .invalidRadius(.infinity) },
                testDescription: "radius infinite"),
        Invalid(region: .test("h-1", hysteresis: -1), matches: { $0 == .invalidHysteresis(-1) },
                testDescription: "hysteresis -1"),
        Invalid(region: .test("dwell-1", dwellTime: -1), matches: { $0 == .invalidDwellTime(-1) },
                testDescription: "dwell time -1"),
    ]

    /// A harness with two regions, A (inside) and B (outside), determined by a few fixes.
    private func establishedHarness() throws -> MonitorHarness {
        var configuration = MonitorConfiguration()
        configuration.capacity = 3
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A"), .test("B", center: plane.coordinate(east: 0, north: 1000)))
        harness.feed((0..<3).map {
            Fix(coordinate: plane.coordinate(east: 0, north: 20), timestamp: TrackBuilder.epoch + Double($0))
        })
        return harness
    }

    @Test("an invalid region is reported to monitoringDidFailFor and thrown by startMonitoringOrThrow; nothing changes",
          arguments: invalidRegions)
    func invalidRegion(_ invalid: Invalid) throws {
        let harness = try establishedHarness()
        let regionsBefore = harness.monitor.monitoredRegions
        let statesBefore = ["A", "B"].map { harness.monitor.state(for: $0) }
        let callbacksBefore = harness.recorder.callbacks.count

        harness.monitor.startMonitoring(for: invalid.region)
        let reported = harness.recorder.callbacks.dropFirst(callbacksBefore)
        try #require(reported.count == 1, "\(reported)")
        guard case .failed(let region, let error) = reported.first! else {
            Issue.record("expected monitoringDidFailFor, got \(reported.first!)")
            return
        }
        #expect(invalid.matches(error), "got \(error)")
        #expect(region.identifier == invalid.region.identifier)

        // The throwing variant throws the same error (and, as documented, reports nothing to the delegate).
        #expect(throws: RegionMonitorError.self) { try harness.monitor.startMonitoringOrThrow(for: invalid.region) }
        do {
            try harness.monitor.startMonitoringOrThrow(for: invalid.region)
        } catch {
            #expect(invalid.matches(error), "thrown \(error)")
        }
        #expect(harness.recorder.callbacks.count == callbacksBefore + 1)

        #expect(harness.monitor.monitoredRegions == regionsBefore)
        #expect(["A", "B"].map { harness.monitor.state(for: $0) } == statesBefore)
        #expect(invalid.region.identifier.isEmpty || harness.monitor.state(for: invalid.region.identifier) == nil)
    }

    @Test("a failed replacement keeps the region it would have replaced, and its state")
    func failedReplacementKeepsOld() throws {
        let harness = try establishedHarness()
        let before = harness.monitor.monitoredRegions
        harness.monitor.startMonitoring(for: .test("A", radius: 0))
        #expect(harness.recorder.callbacks.last == .failed(.test("A", radius: 0), .invalidRadius(0)))
        #expect(harness.monitor.monitoredRegions == before)
        #expect(harness.monitor.state(for: "A") == .inside)
        // And it still behaves: driving out of the old 100 m shape exits it.
        harness.feed([Fix(coordinate: plane.coordinate(east: 0, north: 150), timestamp: TrackBuilder.epoch + 10)])
        #expect(harness.transitions(of: "A").kinds == [.exit])
    }

    @Test("the edge values that are valid are accepted")
    func validEdges() throws {
        let harness = try MonitorHarness()
        let regions: [Region] = [
            .test("r1", radius: 1), .test("r50000", radius: RegionMonitor.maximumRegionMonitoringDistance),
            .test("lat85", center: Coordinate(latitude: 85, longitude: 0)),
            .test("lat-85", center: Coordinate(latitude: -85, longitude: -180)),
            .test("lon180", center: Coordinate(latitude: 0, longitude: 180)),
            .test("h0", hysteresis: 0), .test("dwell0", dwellTime: 0),
        ]
        for region in regions { try harness.monitor.startMonitoringOrThrow(for: region) }
        #expect(harness.monitor.monitoredRegions == Set(regions))
        #expect(harness.recorder.callbacks == regions.map { .started($0) })
        #expect(harness.monitor.maximumRegionMonitoringDistance == 50_000)
    }

    @Test("capacity reached: the third region of a capacity-2 monitor fails; replacing and stopping still work")
    func capacityReached() throws {
        var configuration = MonitorConfiguration()
        configuration.capacity = 2
        let harness = try MonitorHarness(configuration: configuration)
        harness.start(.test("A"), .test("B", center: plane.coordinate(east: 0, north: 1000)))
        harness.feed([Fix(coordinate: plane.coordinate(east: 0, north: 20), timestamp: TrackBuilder.epoch)])
        let regionsBefore = harness.monitor.monitoredRegions
        let third = Region.test("C", center: plane.coordinate(east: 0, north: 2000))

        harness.monitor.startMonitoring(for: third)
        #expect(harness.recorder.callbacks.last == .failed(third, .capacityReached(2)))
        #expect(throws: RegionMonitorError.capacityReached(2)) {
            try harness.monitor.startMonitoringOrThrow(for: third)
        }
        #expect(harness.monitor.monitoredRegions == regionsBefore)
        #expect(harness.monitor.state(for: "A") == .inside)
        #expect(harness.monitor.state(for: "B") == .outside)
        #expect(harness.monitor.state(for: "C") == nil)

        // Replacing a monitored identifier needs no new slot.
        let biggerB = Region.test("B", radius: 200, center: plane.coordinate(east: 0, north: 1000))
        try harness.monitor.startMonitoringOrThrow(for: biggerB)
        #expect(harness.monitor.monitoredRegions == [.test("A"), biggerB])
        // Stopping one frees a slot.
        harness.monitor.stopMonitoring(for: .test("A"))
        try harness.monitor.startMonitoringOrThrow(for: third)
        #expect(harness.monitor.monitoredRegions == [biggerB, third])
    }

    @Test("a monitor with an impossible capacity cannot be created", arguments: [0, -1, 16_777_216])
    func impossibleCapacity(capacity: Int) {
        var configuration = MonitorConfiguration()
        configuration.capacity = capacity
        #expect(throws: RegionMonitorError.capacityReached(capacity)) {
            _ = try RegionMonitor(configuration: configuration)
        }
    }

    @Test("stopping an unknown identifier changes nothing")
    func stopUnknown() throws {
        let harness = try establishedHarness()
        let before = harness.monitor.monitoredRegions
        harness.monitor.stopMonitoring(identifier: "nobody")
        harness.monitor.stopMonitoring(identifier: "")
        #expect(harness.monitor.monitoredRegions == before)
    }

    @Test("failed starts leave later events exactly as without them")
    func failuresDoNotDisturbEvents() throws {
        var track = TrackBuilder(origin: .brisbane, north: -300.4)
        track.fix()
        track.drive(bearing: 0, speed: 11, count: 60)
        func run(withFailures: Bool) throws -> [RegionEvent] {
            let harness = try MonitorHarness()
            harness.start(.test("A"), .test("B", radius: 50, center: plane.coordinate(east: 0, north: 200)))
            for (index, fix) in track.fixes.enumerated() {
                if withFailures, index % 7 == 0 {
                    for invalid in Self.invalidRegions { harness.monitor.startMonitoring(for: invalid.region) }
                    harness.monitor.startMonitoring(for: .test("A", radius: -1))
                }
                harness.monitor.process(fix)
            }
            return harness.regionEvents
        }
        let clean = try run(withFailures: false)
        #expect(clean.filter { $0.kind == .enter }.count == 2)
        #expect(try run(withFailures: true) == clean)
    }
}
