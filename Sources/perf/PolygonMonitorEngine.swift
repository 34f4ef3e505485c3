import CGeofence
import Foundation
import Geofencing
import Synchronization

/// The polygon rows' `monitor` engine: the whole Swift path of `RegionMonitor.process(_:)` over the same shapes and
/// drive as the core (a `Region` "p<index>" per polygon, or the corridor), with the fixes 1 s apart and horizontal
/// accuracy 5 m, as the circle rows' monitor. Its `inside` is the regions whose monitored state is inside after each
/// fix, summed: it follows the monitor's rules (hysteresis: 10 m for polygons, a quarter of the half-width for the
/// corridor), so it differs slightly from the core's instantaneous count near boundaries.
final class PolygonMonitorEngine {
    let monitor: RegionMonitor
    let buildCost: BuildCost
    private let counter = InsideCounter()
    private var clock = 0.0

    init(_ shapes: PolygonDataset.Shapes) throws(RegionMonitorError) {
        let regions = Self.regions(shapes)
        var configuration = MonitorConfiguration()
        configuration.capacity = max(regions.count, 1)
        let (monitor, cost) = try measureBuild { () throws(RegionMonitorError) -> RegionMonitor in
            let monitor = try RegionMonitor(configuration: configuration)
            for region in regions { try monitor.startMonitoringOrThrow(for: region) }
            return monitor
        }
        self.monitor = monitor
        buildCost = cost
        monitor.delegate = counter
    }

    /// Feeds the fixes of `batch`, 1 s apart; returns the regions inside after each, summed.
    func process(_ fixes: [Position], _ batch: Range<Int>) -> Int {
        var inside = 0
        for index in batch {
            let position = fixes[index]
            monitor.process(Fix(
                coordinate: Coordinate(latitude: position.latitudeDegrees, longitude: position.longitudeDegrees),
                timestamp: Date(timeIntervalSince1970: MonitorBench.firstTimestamp + clock),
                horizontalAccuracy: MonitorBench.horizontalAccuracy))
            clock += 1
            inside += counter.inside.load(ordering: .relaxed)
        }
        return inside
    }

    private static func regions(_ shapes: PolygonDataset.Shapes) -> [Region] {
        func coordinate(_ point: gf_point) -> Coordinate {
            Coordinate(latitude: Double(point.lat) / 1e7, longitude: Double(point.lon) / 1e7)
        }
        switch shapes {
        case .polygons(let polygons):
            return polygons.enumerated().map { index, polygon in
                Region(shape: .polygon(rings: polygon.rings.map { $0.map(coordinate) }), identifier: "p\(index)")
            }
        case .corridor(let corridor):
            let path = corridor.path.map { coordinate($0.point) }
            return [Region(shape: .corridor(path: path, halfWidth: Double(corridor.halfWidthMillimetres) / 1000),
                           identifier: "corridor")]
        }
    }
}

/// Keeps the number of regions whose state is inside, from the monitor's events (which are rare on a drive, so
/// the count costs the timed loop one atomic load per fix).
private final class InsideCounter: RegionMonitorDelegate {
    let inside = Atomic<Int>(0)

    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {
        inside.add(1, ordering: .relaxed)
    }

    func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent) {
        inside.subtract(1, ordering: .relaxed)
    }

    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
        // First determinations only on this drive (no outage, no request): unknown -> inside or outside.
        if state == .inside { inside.add(1, ordering: .relaxed) }
    }
}
