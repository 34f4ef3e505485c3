import Foundation
import Geofencing
import GeofencingEvents

/// The state columns of a stored region, and how an event changes them. Pure: `GeofenceStore.append` reads the
/// columns, applies each event, and writes them back in the same transaction.
struct StoredRegionState: Sendable, Hashable {
    /// The current state (unknown after an outage).
    var state: RegionState
    /// The last known state: inside or outside, unknown only before the first determination. Never set to unknown
    /// by an event.
    var knownState: RegionState
    /// GNSS time since which the vehicle has been inside; nil unless `knownState` is inside.
    var insideSince: Date?
    /// The dwell event of the current stay inside was reported.
    var dwellReported: Bool

    /// A region just added: nothing known.
    static let initial = StoredRegionState(state: .unknown, knownState: .unknown, insideSince: nil,
                                           dwellReported: false)

    /// What a restarted monitor needs (`RegionMonitor.restoreMonitoring(for:state:)`).
    var restored: RestoredRegionState {
        RestoredRegionState(state: knownState, insideSince: insideSince, dwellReported: dwellReported)
    }

    /// Applies one event:
    /// - enter: inside, inside since the event's time, dwell not yet reported (a new stay).
    /// - exit: outside; the stay and its dwell are over.
    /// - dwell: the dwell of this stay was reported.
    /// - state: that state. Inside after a last known state that was not inside starts a stay at the event's time;
    ///   inside after inside (an outage that ended with the vehicle still inside) keeps the stay and its dwell
    ///   clock. Unknown changes the current state only: the last known state and the stay are kept, so that a
    ///   restart after an outage restores them.
    /// - approach: nothing (it changes no state).
    mutating func apply(_ event: EventRecord) {
        switch event.kind {
        case .enter:
            enterStay(at: event.time)
        case .exit:
            leave()
        case .dwell:
            dwellReported = true
        case .state:
            switch event.state {
            case .inside:
                if knownState == .inside {
                    state = .inside
                } else {
                    enterStay(at: event.time)
                }
            case .outside:
                leave()
            case .unknown:
                state = .unknown
            }
        case .approach:
            break
        }
    }

    private mutating func enterStay(at time: Date) {
        state = .inside
        knownState = .inside
        insideSince = time
        dwellReported = false
    }

    private mutating func leave() {
        state = .outside
        knownState = .outside
        insideSince = nil
        dwellReported = false
    }
}
