// Test support: the invariant every event log must satisfy, whatever the track: states and transitions agree.
import Geofencing

/// Replays a log of region events and reports every event that contradicts the ones before it for the same region:
/// an enter while already inside, an exit while already outside, an event whose state does not follow from its kind,
/// or a sequence number that is not the previous one plus 1.
///
/// An enter or exit right after an unknown state is allowed only when flagged `inferred` (an outage) or when it is an
/// initial enter (`reportsInitialInsideAsEnter`); `allowsInitialEnter` says which.
struct TransitionChecker {
    var allowsInitialEnter = false

    /// Problems found, one line each; empty when the log is consistent.
    func problems(in events: [RegionEvent]) -> [String] {
        var problems: [String] = []
        var state: [String: RegionState] = [:]
        var previousSequence: UInt64?
        for event in events {
            if let previousSequence, event.sequence != previousSequence + 1 {
                problems.append("sequence \(event.sequence) after \(previousSequence): \(event.summary)")
            }
            previousSequence = event.sequence
            let before = state[event.regionIdentifier]  // nil: never heard of (unknown)
            switch event.kind {
            case .enter:
                if event.state != .inside { problems.append("enter not inside: \(event.summary)") }
                if before == .inside { problems.append("enter while inside: \(event.summary)") }
                if (before ?? .unknown) == .unknown, !event.inferred, !allowsInitialEnter {
                    problems.append("enter from unknown, not inferred: \(event.summary)")
                }
            case .exit:
                if event.state != .outside { problems.append("exit not outside: \(event.summary)") }
                if before == .outside || before == nil { problems.append("exit while not inside: \(event.summary)") }
                if before == .unknown, !event.inferred {
                    problems.append("exit from unknown, not inferred: \(event.summary)")
                }
            case .dwell:
                if event.state != .inside || before != .inside {
                    problems.append("dwell while not inside: \(event.summary)")
                }
            case .approach:
                // A warning, not a transition: only while outside, from a fix outside the boundary.
                if event.state != .outside || before != .outside || !((event.distance ?? 0) > 0) {
                    problems.append("approach while not outside: \(event.summary)")
                }
            case .overspeed, .overspeedEnd:
                // Not a transition: an overspeed only while inside; its end inside, or right after the exit.
                if event.kind == .overspeed, event.state != .inside || before != .inside {
                    problems.append("overspeed while not inside: \(event.summary)")
                }
            case .determined:
                if event.state == .unknown, event.distance != nil {
                    problems.append("unknown state with a distance: \(event.summary)")
                }
            }
            state[event.regionIdentifier] = event.state
        }
        return problems
    }
}
