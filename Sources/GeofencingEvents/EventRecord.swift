import Foundation
import Geofencing

/// An event as the store keeps it in its outbox and the sinks send it: the wire form of a `RegionEvent`.
///
/// Its JSON Lines form, `jsonLine`, and the reading back of it, `init(jsonLine:)`, are in EventRecord+JSONLine.swift.
public struct EventRecord: Sendable, Hashable, Codable {
    /// The wire names of the event kinds. `state` is a `RegionEvent.Kind.determined`; `approach` is reserved for
    /// approach alarms; `overspeed_end` is `RegionEvent.Kind.overspeedEnd`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case enter, exit, dwell, approach, state, overspeed
        case overspeedEnd = "overspeed_end"
    }

    /// The monitor's sequence number: consecutive, without gaps, across restarts of the daemon.
    public var sequence: UInt64
    public var kind: Kind
    /// The region's identifier.
    public var region: String
    /// GNSS time of the event.
    public var time: Date
    public var latitude: Double
    public var longitude: Double
    /// Signed distance from the boundary in metres, negative inside; nil when the state became unknown.
    public var distance: Double?
    public var state: RegionState
    /// The change happened while no usable fixes came (an outage, or the daemon was down) and was found afterwards.
    public var inferred: Bool
    /// Time and position interpolated between two fixes (a fast pass through a small region).
    public var interpolated: Bool
    /// Estimated GNSS time the vehicle crossed the boundary (`RegionEvent.crossedAt`): enters and exits; nil for
    /// the other kinds and when no crossing was seen.
    public var crossedAt: Date?
    /// overspeed, overspeed_end: the episode's highest speed in m/s; nil for the other kinds.
    public var maximumSpeed: Double? = nil
    /// overspeed, overspeed_end: seconds over the limit (`RegionEvent.overLimitDuration`); nil for the other kinds.
    public var overLimitDuration: Double? = nil

    public init(
        sequence: UInt64, kind: Kind, region: String, time: Date, latitude: Double, longitude: Double,
        distance: Double?, state: RegionState, inferred: Bool = false, interpolated: Bool = false,
        crossedAt: Date? = nil
    ) {
        self.sequence = sequence
        self.kind = kind
        self.region = region
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
        self.state = state
        self.inferred = inferred
        self.interpolated = interpolated
        self.crossedAt = crossedAt
    }

    public init(_ event: RegionEvent) {
        let kind: Kind
        switch event.kind {
        case .enter: kind = .enter
        case .exit: kind = .exit
        case .dwell: kind = .dwell
        case .approach: kind = .approach
        case .determined: kind = .state
        case .overspeed: kind = .overspeed
        case .overspeedEnd: kind = .overspeedEnd
        }
        self.init(
            sequence: event.sequence, kind: kind, region: event.regionIdentifier, time: event.time,
            latitude: event.coordinate.latitude, longitude: event.coordinate.longitude, distance: event.distance,
            state: event.state, inferred: event.inferred, interpolated: event.interpolated, crossedAt: event.crossedAt)
        maximumSpeed = event.maximumSpeed
        overLimitDuration = event.overLimitDuration
    }
}
