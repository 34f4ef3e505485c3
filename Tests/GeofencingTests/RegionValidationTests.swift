// Region.validate(): the monitor's own checks without a monitor, agreeing with what startMonitoring reports.
import Foundation
import Geofencing
import Testing

@Suite("Region validation")
struct RegionValidationTests {
    private static let plane = LocalPlane(origin: .brisbane)

    /// The invalid regions of the failure tests, and a few of the other shapes and options.
    static let invalidRegions: [FailureTests.Invalid] = FailureTests.invalidRegions + [
        FailureTests.Invalid(
            region: Region(shape: .polygon(rings: [[
                plane.coordinate(east: 0, north: 0), plane.coordinate(east: 100, north: 100),
                plane.coordinate(east: 100, north: 0), plane.coordinate(east: 0, north: 100),
            ]]), identifier: "bow-tie"),
            matches: { if case .invalidShape = $0 { true } else { false } },
            testDescription: "polygon whose ring crosses itself"),
        FailureTests.Invalid(
            region: Region(shape: .polygon(rings: [[plane.coordinate(east: 0, north: 0),
                                                     plane.coordinate(east: 100, north: 0)]]), identifier: "two"),
            matches: { if case .invalidShape = $0 { true } else { false } },
            testDescription: "polygon ring of 2 vertices"),
        FailureTests.Invalid(
            region: Region(shape: .corridor(path: [plane.coordinate(east: 0, north: 0),
                                                   plane.coordinate(east: 500, north: 0)], halfWidth: .nan),
                           identifier: "road-nan"),
            matches: { if case .invalidRadius(let w) = $0 { w.isNaN } else { false } },
            testDescription: "corridor half-width NaN"),
        FailureTests.Invalid(
            region: Region(center: .brisbane, radius: 100, identifier: "alarm", approach: ApproachAlarm(leadTime: -1)),
            matches: { $0 == .invalidApproachLeadTime(-1) }, testDescription: "approach lead time -1"),
    ]

    static let validRegions: [Region] = [
        .test("circle"),
        .test("small", radius: 1),
        .test("large", radius: 50_000, hysteresis: 0),
        Region(shape: .polygon(rings: [[
            plane.coordinate(east: 0, north: 0), plane.coordinate(east: 100, north: 0),
            plane.coordinate(east: 100, north: 100), plane.coordinate(east: 0, north: 100),
        ]]), identifier: "square", dwellTime: 30),
        Region(shape: .corridor(path: [plane.coordinate(east: 0, north: 0), plane.coordinate(east: 500, north: 0)],
                                halfWidth: 20), identifier: "road", approach: ApproachAlarm(leadTime: 30)),
    ]

    /// The error `startMonitoring(for:)` reports for `region` to a fresh monitor's delegate, nil when it starts.
    private func reportedError(_ region: Region) throws -> RegionMonitorError? {
        let harness = try MonitorHarness()
        harness.start(region)
        try #require(harness.recorder.callbacks.count == 1, "\(harness.recorder.callbacks)")
        switch harness.recorder.callbacks[0] {
        case .failed(_, let error): return error
        case .started: return nil
        case let other:
            Issue.record("expected didStartMonitoring or monitoringDidFailFor, got \(other)")
            return nil
        }
    }

    @Test("an invalid region throws from validate() the error startMonitoring reports", arguments: invalidRegions)
    func invalid(_ invalid: FailureTests.Invalid) throws {
        var thrown: RegionMonitorError?
        do { try invalid.region.validate() } catch { thrown = error }
        let error = try #require(thrown, "validate() did not throw")
        #expect(invalid.matches(error), "got \(error)")
        let reported = try #require(try reportedError(invalid.region), "startMonitoring did not fail")
        // By description: errors carrying NaN never compare equal.
        #expect(error.description == reported.description)
    }

    @Test("a valid region passes validate() and starts", arguments: validRegions)
    func valid(_ region: Region) throws {
        #expect(throws: Never.self) { try region.validate() }
        #expect(try reportedError(region) == nil)
    }
}
