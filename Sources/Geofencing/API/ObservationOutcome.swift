/// What one observation did (`RegionMonitor.process(_:)`): the region events it caused and the regions whose state
/// record it changed.
public struct ObservationOutcome: Sendable, Hashable {
    /// The observation's events, in order: the same events, in the same order, that the delegate and every event
    /// stream receive for it (see `RegionMonitor`). Empty for most fixes.
    public var events: [RegionEvent] {
        get { details?.events ?? [] }
        set { self = ObservationOutcome(events: newValue, changedStates: changedStates) }
    }
    /// The record of each region whose record changed, after the observation, by identifier: what a store keeps to
    /// restore the region later. Records change with most events, but not with every one (an approach, an answered
    /// request or an interpolated pass changes none), and some change without an event (a transition the region's
    /// notify flags keep quiet, a restored state confirmed by the first fix, a dwell clock moved with an adopted
    /// time base). Always empty when `MonitorConfiguration.returnsChangedStates` is false (the monitor then keeps
    /// them listed: `RegionMonitor.changedStates(from:limit:)`).
    public var changedStates: [String: RegionStateRecord] {
        get { details?.changedStates ?? [:] }
        set { self = ObservationOutcome(events: events, changedStates: newValue) }
    }

    /// Both collections, or nil when both are empty (most observations): an outcome without events is returned and
    /// dropped without touching a reference count, where two empty collections cost a release each. Never mutated
    /// once made (a setter makes a new one), so the outcome stays a value.
    private let details: Details?

    private final class Details: Sendable {
        let events: [RegionEvent]
        let changedStates: [String: RegionStateRecord]

        init(events: [RegionEvent], changedStates: [String: RegionStateRecord]) {
            self.events = events
            self.changedStates = changedStates
        }
    }

    public init(events: [RegionEvent] = [], changedStates: [String: RegionStateRecord] = [:]) {
        details = events.isEmpty && changedStates.isEmpty
            ? nil : Details(events: events, changedStates: changedStates)
    }

    /// The outcome of an observation that did nothing.
    static var none: ObservationOutcome { ObservationOutcome(details: nil) }

    private init(details: Details?) {
        self.details = details
    }

    /// Whether the observation caused events: without making the empty array `events` returns for none.
    var hasEvents: Bool { details.map { !$0.events.isEmpty } ?? false }

    public static func == (lhs: ObservationOutcome, rhs: ObservationOutcome) -> Bool {
        lhs.events == rhs.events && lhs.changedStates == rhs.changedStates
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(changedStates)
    }
}
