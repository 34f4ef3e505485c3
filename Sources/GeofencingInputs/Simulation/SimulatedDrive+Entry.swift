// Exact entry times on the simulated truth, the yardstick for event and alarm timing.
import Foundation
import Geofencing

extension SimulatedDrive {
    /// The first instant at or after `start` (default: the start of the drive) at which the true position is within
    /// `radius` metres (WGS-84 geodesic distance) of `center`; nil if it never is during the drive.
    ///
    /// It never misses an entry, however briefly the vehicle touches the circle: the distance to a fixed point
    /// changes no faster than the vehicle moves, so from a point `D` metres away the circle cannot be reached
    /// before (D - radius) / (top speed) seconds have passed; the search jumps by that much each time, which
    /// converges on the entry from before; the last step is at least 1 µs, so the result is at most 1 µs after the
    /// exact entry (and, once turned into a `Date`, within the 0.24 µs a `Date` of this century resolves).
    public func firstTime(within radius: Double, of center: Coordinate, from start: Date? = nil) -> Date? {
        var offset = max(0, (start ?? startTime).timeIntervalSince(startTime))
        guard topSpeed > 0 else { return nil }
        while offset <= duration {
            let position = plan.truth(on: route, atOffset: offset, date: startTime).coordinate
            // Nearly antipodal to the centre: thousands of km away, so step a long way.
            let distance = VincentyGeodesic.inverse(from: position, to: center)?.distance ?? 1e7
            let gap = distance - radius
            if gap <= 0 { return startTime.addingTimeInterval(offset) }
            offset += max(gap / topSpeed, 1e-6)
        }
        return nil
    }
}
