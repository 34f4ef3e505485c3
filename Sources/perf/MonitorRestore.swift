import Foundation
import Geofencing

/// What a daemon's restart costs the monitor: restoring a store's regions into a new `RegionMonitor`, then its first
/// fix. The regions are the uniform dataset's fences as plain circles with 12-byte identifiers ("r" and 11 digits,
/// a typical store key), each restored as outside (`RegionStateRecord` with state and last known state outside), so
/// the first fix confirms them quietly, as after a restart. Two ways of restoring, each into its own monitor, in
/// turn: one `restoreMonitoring(for:state:)` call per region, and one `restoreMonitoring(_:)` call for them all.
///
/// Figures: seconds per 10^6 regions of the restore (the monitor's creation included), the heap bytes per region it
/// keeps (mallinfo2, as the build costs: the core's table included), and the first fix's milliseconds. Information
/// only: none of it is checked.
enum MonitorRestore {
    static func lines(quick: Bool) -> [String] {
        let count = quick ? 200_000 : 1_000_000
        let fences = Dataset.uniform(fenceCounts: [count]).fences(count: count)
        let outside = RegionStateRecord(state: .outside, lastKnownState: .outside, insideSince: nil,
                                        dwellReported: false)
        let entries = fences.indices.map { index in
            (region: Region(center: Coordinate(latitude: fences[index].centre.latitudeDegrees,
                                               longitude: fences[index].centre.longitudeDegrees),
                            radius: fences[index].radiusMetres, identifier: identifier(index)),
             state: outside)
        }
        var configuration = MonitorConfiguration()
        configuration.capacity = count
        var lines = ["monitor restore (a restart): \(fenceCountLabel(count)) uniform fences as plain circles with "
            + "12-byte identifiers, restored as outside into a new monitor with that capacity, then its first fix"]
        for bulk in [false, true] {
            do {
                let (monitor, cost) = try measureBuild { () throws(RegionMonitorError) -> RegionMonitor in
                    let monitor = try RegionMonitor(configuration: configuration)
                    if bulk {
                        if let refused = monitor.restoreMonitoring(entries).first { throw refused.error }
                    } else {
                        for entry in entries { try monitor.restoreMonitoring(for: entry.region, state: entry.state) }
                    }
                    return monitor
                }
                let fix = Fix(coordinate: entries[0].region.center, timestamp: Date(timeIntervalSince1970: 1.2e9),
                              horizontalAccuracy: 5)
                let begin = monotonicNanoseconds()
                monitor.process(fix)
                let firstFix = monotonicNanoseconds() - begin
                let way = bulk ? "restoreMonitoring(_:) once:        " : "restoreMonitoring(for:state:) each: "
                let secondsPerMillion = Double(cost.nanoseconds) / Double(count) * 1e6 / 1e9
                lines.append("  " + way + "\(fixed(secondsPerMillion, places: 2)) s per 10^6 regions, "
                    + "\(fixed(cost.bytesPerFence(count), places: 1)) B/region kept, first fix "
                    + "\(fixed(Double(firstFix) / 1e6, places: 1)) ms")
            } catch {
                lines.append("  restore failed: \(error)")
            }
        }
        return lines
    }

    /// "r" and the index in 11 digits: 12 bytes.
    private static func identifier(_ index: Int) -> String {
        let digits = String(index)
        return "r" + String(repeating: "0", count: max(0, 11 - digits.count)) + digits
    }
}
