/// What one observation did (`RegionMonitor.process(_:)`): the region events it caused and the regions whose state
/// record it changed.
public struct ObservationOutcome: Sendable, Hashable {
    /// The observation's events, in order: the same events, in the same order, that the delegate and every event
    /// stream receive for it (see `RegionMonitor`). Empty for most fixes.
    public var events: [RegionEvent]
    /// The record of each region whose record changed, after the observation, by identifier: what a store keeps to
    /// restore the region later. Records change with most events, but not with every one (an approach, an answered
    /// request or an interpolated pass changes none), and some change without an event (a transition the region's
    /// notify flags keep quiet, a restored state confirmed by the first fix, a dwell clock moved with an adopted
    /// time base). Always empty when `MonitorConfiguration.returnsChangedStates` is false (the monitor then keeps
    /// them listed: `RegionMonitor.changedStates(from:limit:)`).
    public var changedStates: [String: RegionStateRecord]

    public init(events: [RegionEvent] = [], changedStates: [String: RegionStateRecord] = [:]) {
        self.events = events
        self.changedStates = changedStates
    }
}
