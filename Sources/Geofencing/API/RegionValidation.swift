/// Whether a region can be monitored: `Region.validate()` for callers, and the core's shape of a valid region for
/// the monitor and `RegionIndex`, both from the same checks.
extension Region {
    /// Checks the region as `RegionMonitor.startMonitoring(for:)` does before adding it, without a monitor: throws
    /// the same `RegionMonitorError` the monitor would report to `monitoringDidFailFor` (or throw from
    /// `startMonitoringOrThrow(for:)`) for this region, and nothing for a region the monitor takes.
    ///
    /// Only the region itself is checked: a monitor can still refuse a valid region when it is full
    /// (`capacityReached`) or out of memory (`outOfMemory`).
    public func validate() throws(RegionMonitorError) {
        _ = try coreShape()
    }

    /// The region's shape as the core takes it, or why the region is invalid.
    func coreShape() throws(RegionMonitorError) -> CoreShape {
        guard !identifier.isEmpty else { throw .emptyIdentifier }
        if let offset = identifier.utf8.firstIndex(of: 0) {
            throw .identifierContainsNUL(byteOffset: identifier.utf8.distance(
                from: identifier.utf8.startIndex, to: offset))
        }
        let shape = try CoreShape.validate(self.shape)
        if let h = hysteresis, !(h.isFinite && h >= 0) { throw .invalidHysteresis(h) }
        if let t = dwellTime, !(t.isFinite && t >= 0) { throw .invalidDwellTime(t) }
        if let problem = approach?.problem { throw problem }
        if let problem = speedLimit?.problem { throw problem }
        if let problem = schedule?.problem { throw .invalidSchedule(problem.message) }
        return shape
    }
}
