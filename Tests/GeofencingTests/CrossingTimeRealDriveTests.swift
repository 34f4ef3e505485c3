// Crossing times on a real drive: the Brisbane car log (1 Hz) across circles laid on its route. The crossings of the
// full-rate log are the reference; the log decimated to one fix per 5 s and per 10 s (every phase) must find them
// again: 95 % within 2 s at one fix per 5 s, within 3 s at one per 10 s, where the fixes are 114 m apart on an urban
// route (the straight segment between two of them cuts its corners and misses the braking for a stop; the curve of
// the fixes' speeds and courses follows both).
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite("Crossing times on the Brisbane car log, decimated",
       .enabled(if: SharedData.isAvailable("nmea/nmealog.txt"), SharedData.skipMessage("nmea/nmealog.txt")))
struct CrossingTimeRealDriveTests {
    static func fixes() throws -> [Fix] {
        try NMEAReader.read(path: SharedData.url("nmea/nmealog.txt").path).observations.compactMap(\.fix)
    }

    /// Circles of 80 to 200 m along the route: one every 8th fix from the 6th, its centre moved off the fix by up to
    /// 0.4 radii (east or west, north or south by turns), so the route crosses the boundaries at varied angles.
    static func fences(along fixes: [Fix]) -> [Region] {
        let radii: [Double] = [80, 120, 200, 100, 150]
        let offsets: [(Double, Double)] = [(0, 0), (0.4, 0), (0, -0.35), (-0.25, 0.25), (0.15, 0.35)]
        return stride(from: 6, to: fixes.count - 6, by: 8).enumerated().map { number, index in
            let radius = radii[number % radii.count], (east, north) = offsets[number % offsets.count]
            let center = LocalPlane(origin: fixes[index].coordinate).coordinate(east: east * radius,
                                                                              north: north * radius)
            return Region(center: center, radius: radius, identifier: "route-\(index)")
        }
    }

    /// The enters and exits of a replay of `fixes` over `regions` on a fresh monitor.
    static func transitions(_ fixes: [Fix], _ regions: [Region]) throws -> [RegionEvent] {
        let harness = try MonitorHarness()
        for region in regions { harness.start(region) }
        harness.feed(fixes)
        #expect(TransitionChecker().problems(in: harness.regionEvents) == [])
        return harness.regionEvents.filter { $0.kind == .enter || $0.kind == .exit }
    }

    @Test("decimated to one fix per 5 s and per 10 s, the crossings agree with the full rate's",
          arguments: [(5, 2.0, 0.95), (10, 3.0, 0.95)])
    func decimated(every step: Int, target: Double, share: Double) throws {
        let fixes = try Self.fixes()
        let regions = Self.fences(along: fixes)
        let reference = try Self.transitions(fixes, regions)
        try #require(reference.count >= 20, "the route crosses the circles")
        #expect(reference.allSatisfy { $0.crossedAt != nil }, "\(reference.filter { $0.crossedAt == nil }.summary)")
        let speeds = fixes.compactMap(\.speed)
        print(String(format: "Brisbane car log: %d fixes at 1 Hz, %.1f m/s mean speed; %d circles, %d reference "
                     + "crossings", fixes.count, speeds.reduce(0, +) / Double(max(1, speeds.count)), regions.count,
                     reference.count))

        var errors = CrossingErrorStatistics(), decisions = CrossingErrorStatistics()
        var withoutCrossing: [String] = [], notSeen = 0, extra = 0
        for phase in 0..<step {
            let decimated = stride(from: phase, to: fixes.count, by: step).map { fixes[$0] }
            let events = try Self.transitions(decimated, regions)
            withoutCrossing += events.filter { $0.crossedAt == nil }.map { "phase \(phase): \($0.summary)" }
            // Each reference crossing against the decimated event of its region and kind nearest in crossing time;
            // the decimated log's other events (a pass cutting a corner between fixes 10 s apart) are counted.
            var used = Set<UInt64>()
            for crossing in reference {
                let same = events.filter {
                    $0.regionIdentifier == crossing.regionIdentifier && $0.kind == crossing.kind && $0.crossedAt != nil
                }
                guard let nearest = same.min(by: {
                    abs($0.crossedAt!.timeIntervalSince(crossing.crossedAt!))
                        < abs($1.crossedAt!.timeIntervalSince(crossing.crossedAt!))
                }) else {
                    notSeen += 1
                    continue
                }
                used.insert(nearest.sequence)
                errors.add(nearest.crossedAt!.timeIntervalSince(crossing.crossedAt!))
                decisions.add(nearest.time.timeIntervalSince(crossing.crossedAt!))
            }
            extra += events.count { !used.contains($0.sequence) }
        }
        print("crossed_at, one fix per \(step) s (all \(step) phases) against the full rate's: "
              + errors.summary(target: target))
        print("  deciding fix's time for comparison: " + decisions.summary(target: target)
              + "; \(notSeen) of \(reference.count * step) reference crossings not seen, \(extra) other events")
        #expect(withoutCrossing.isEmpty, "\(withoutCrossing.joined(separator: "\n"))")
        #expect(errors.count >= reference.count * step * 3 / 4, "most crossings are seen at the lower rate")
        #expect(errors.share(within: target) >= share, "\(errors.summary(target: target))")
    }
}
