/// Callbacks of a `RegionMonitor`, named after CoreLocation's `CLLocationManagerDelegate`. Every method has an empty
/// default, so a delegate implements only what it needs.
///
/// Callbacks arrive one at a time, in event order, on the thread that caused them (the one calling `process(_:)` or
/// `startMonitoring(for:)`), with no lock of the monitor held: a callback may call back into the monitor (stop a
/// region, start another); the events that causes are delivered after the current callback returns.
public protocol RegionMonitorDelegate: AnyObject, Sendable {
    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent)
    func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent)
    func regionMonitor(_ monitor: RegionMonitor, didDwellIn region: Region, event: RegionEvent)
    /// The vehicle will reach the region's boundary in about its approach alarm's lead time (`.approach`).
    func regionMonitor(_ monitor: RegionMonitor, didApproach region: Region, event: RegionEvent)
    /// The vehicle is above the region's speed limit (`.overspeed`; `event.maximumSpeed`, `overLimitDuration`).
    func regionMonitor(_ monitor: RegionMonitor, didExceedSpeedLimitIn region: Region, event: RegionEvent)
    /// The overspeed episode in the region is over (`.overspeedEnd`).
    func regionMonitor(_ monitor: RegionMonitor, didEndOverspeedIn region: Region, event: RegionEvent)
    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent)
    func regionMonitor(_ monitor: RegionMonitor, didStartMonitoringFor region: Region)
    func regionMonitor(
        _ monitor: RegionMonitor, monitoringDidFailFor region: Region, withError error: RegionMonitorError)
}

extension RegionMonitorDelegate {
    public func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {}
    public func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent) {}
    public func regionMonitor(_ monitor: RegionMonitor, didDwellIn region: Region, event: RegionEvent) {}
    public func regionMonitor(_ monitor: RegionMonitor, didApproach region: Region, event: RegionEvent) {}
    public func regionMonitor(_ monitor: RegionMonitor, didExceedSpeedLimitIn region: Region, event: RegionEvent) {}
    public func regionMonitor(_ monitor: RegionMonitor, didEndOverspeedIn region: Region, event: RegionEvent) {}
    public func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {}
    public func regionMonitor(_ monitor: RegionMonitor, didStartMonitoringFor region: Region) {}
    public func regionMonitor(
        _ monitor: RegionMonitor, monitoringDidFailFor region: Region, withError error: RegionMonitorError
    ) {}
}
