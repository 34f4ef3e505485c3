import Foundation

/// Something that happened to a region: a transition, a dwell, an approach, or a state determination.
///
/// Events are numbered from `MonitorConfiguration.firstSequence` upwards without gaps, in the order they are
/// delivered, so a consumer that receives one twice (at-least-once delivery) can drop the repeat.
public struct RegionEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The vehicle entered the region.
        case enter
        /// The vehicle left the region.
        case exit
        /// The vehicle has stayed inside for the region's dwell time.
        case dwell
        /// The state was determined (after start, after an outage, on request) or became unknown (an outage).
        ///
        /// Names: this is CoreLocation's state determination, so the delegate receives it as
        /// `regionMonitor(_:didDetermineState:for:event:)`; on the wire (the store's outbox, JSON Lines, exec, MQTT:
        /// `EventRecord.Kind`) its name is `state`. The other kinds keep one name (`.enter`, `didEnterRegion`,
        /// `enter`).
        case determined
        /// The vehicle is about to enter a region with an `ApproachAlarm`: at this fix the estimated time to reach
        /// the boundary dropped to the alarm's lead time. The state stays outside; `time` is the fix's time,
        /// `distance` the fix's (positive) distance from the boundary.
        ///
        /// Once per approach: it fires when, at a usable fix, the region's state is outside, the fix is outside the
        /// boundary (and within the alarm's `maximumDistance`, if set), the vehicle moves at least 2 m/s on a steady
        /// course, and its straight line at the current velocity reaches the circle within the lead time (to the
        /// nearest fix: up to half a fix interval early). Then it is spent until the vehicle has not been approaching
        /// the region (heading away, passing by, stopped, turning) for 10 s of GNSS time while outside; entering the
        /// region spends it too, so an enter without an earlier approach is never followed by a late one. Unusable
        /// fixes and outages count for nothing (no fix, no estimate), and a region whose state is unknown is never
        /// approached.
        case approach
    }

    /// Position in the monitor's event order, without gaps.
    public let sequence: UInt64
    public let kind: Kind
    /// The region as it was when the event happened.
    public let region: Region
    /// The region's state after the event.
    public let state: RegionState
    /// GNSS time of the event: the fix's time, or for an interpolated event the time the straight segment between
    /// two fixes crossed the boundary.
    public let time: Date
    /// The estimated GNSS time the vehicle crossed the boundary, for an enter or an exit; `time` is when the rules
    /// decided it, which hysteresis and the fix's accuracy can make later (a vehicle that drives just inside for a
    /// while is entered late by design, but crossed at the start of that stretch).
    ///
    /// - Enter and exit: the instant the straight segment from the last fix on the old side of the boundary (the
    ///   signed distance's sign) to the first fix on the new side crosses it, the time running evenly between the
    ///   two fixes. When the fixes went back to the old side before the rules decided, the last such crossing.
    /// - Interpolated (a pass between two fixes): the segment's own crossing, equal to `time`.
    /// - Inferred (after an outage): the crossing of the straight segment from the last usable fix before the
    ///   outage to the first after it, so somewhere in the outage, a rough estimate; nil when there was no fix
    ///   before (a restart: the state came from a store).
    /// - Nil for dwell, approach and determined events, and for an enter reported for the first determination
    ///   (`MonitorConfiguration.reportsInitialInsideAsEnter`): nothing was seen crossing.
    public let crossedAt: Date?
    /// The fix's position (interpolated events: the crossing point; outage events: the last usable fix).
    public let coordinate: Coordinate
    /// Signed distance from the boundary in metres, negative inside (error <= 2 cm + 1e-4 of the radius); nil when the
    /// state became unknown.
    public let distance: Double?
    /// The change happened while there were no usable fixes (an outage) and was found when they returned.
    public let inferred: Bool
    /// The time and position come from interpolating between two fixes that were both outside (a fast pass
    /// through a small region).
    public let interpolated: Bool

    public var regionIdentifier: String { region.identifier }
}

/// Everything the monitor tells its delegate and its event streams, in one order.
public enum MonitorEvent: Sendable, Hashable {
    /// A region event (enter, exit, dwell, approach, determined).
    case region(RegionEvent)
    /// `startMonitoring(for:)` accepted the region (also when it replaced one with the same identifier).
    case didStartMonitoring(Region)
    /// `startMonitoring(for:)` rejected the region; nothing already monitored changed.
    case monitoringDidFail(Region, RegionMonitorError)
}
