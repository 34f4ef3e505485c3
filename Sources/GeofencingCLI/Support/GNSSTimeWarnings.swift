import Foundation
import Geofencing
import GeofencingEvents

/// Tells the log (standard error), once per kind, what the monitor's GNSS time guard did: a fix dropped for a time
/// that jumped forward or back, a new time base adopted, a repeated time. Later ones of the same kind are only
/// counted (`RegionMonitor.timeStatistics`); `summary` gives the counts at the end.
struct GNSSTimeWarnings {
    private enum Kind: Hashable { case forwardJump, backwardStep, adoption, duplicate }

    /// Names the command in each line ("geofence replay", "geofence run").
    let command: String
    let confirmation: Int
    private var warned: Set<Kind> = []

    init(command: String, configuration: MonitorConfiguration) {
        self.command = command
        self.confirmation = min(max(1, configuration.timeBaseConfirmation), 1_000)
    }

    /// Warns of each kind the statistics show for the first time.
    mutating func check(_ statistics: GNSSTimeStatistics) {
        if let step = statistics.firstForwardJump, warn(.forwardJump) {
            Console.error("\(command): warning: GNSS time: dropped a fix dated \(Self.text(step.time)), "
                + "\(Self.span(step.seconds)) after the one before (\(Self.text(step.after))): the fixes after it "
                + "continued the earlier time (further ones are counted, not logged)")
        }
        if let step = statistics.firstBackwardStep, warn(.backwardStep) {
            Console.error("\(command): warning: GNSS time: dropped a fix dated \(Self.text(step.time)), "
                + "\(Self.span(-step.seconds)) before the one before (\(Self.text(step.after))): the fixes after it "
                + "continued the later time (further ones are counted, not logged)")
        }
        if let step = statistics.firstAdoption, warn(.adoption) {
            let direction = step.seconds < 0 ? "back" : "forward"
            Console.error("\(command): warning: GNSS time: adopted a new time from \(Self.text(step.time)), "
                + "\(Self.span(abs(step.seconds))) \(direction) from \(Self.text(step.after)), after \(confirmation) "
                + "fixes agreed on it (further ones are counted, not logged)")
        }
        if statistics.duplicateTimes > 0, warn(.duplicate) {
            Console.error("\(command): warning: GNSS time: a fix repeated the time of the one before (used; further "
                + "ones are counted, not logged)")
        }
    }

    /// The counts, for the end of a replay or a run; nil when the guard had nothing to do.
    static func summary(_ statistics: GNSSTimeStatistics) -> String? {
        let parts = [
            (statistics.forwardJumpsDropped, "dropped for a jump forward"),
            (statistics.backwardStepsDropped, "dropped for a step back"),
            (statistics.duplicateTimes, "with a repeated time"),
            (statistics.held, "held unconfirmed at the end"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let adopted = statistics.timeBasesAdopted
        guard !parts.isEmpty || adopted > 0 else { return nil }
        var text = "GNSS time: " + (parts.isEmpty ? "" : "fixes " + parts.joined(separator: ", "))
        if adopted > 0 {
            text += (parts.isEmpty ? "" : "; ") + "\(adopted) new time bases adopted"
                + " (\(statistics.backwardTimeBasesAdopted) backwards)"
        }
        return text
    }

    private mutating func warn(_ kind: Kind) -> Bool { warned.insert(kind).inserted }

    /// As the events write times, so a warning's time can be found among them.
    private static func text(_ date: Date) -> String { ISO8601Time.format(date) }

    /// "3 s", "2.5 h", "73.0 years": how far a time jumped, for a reader.
    private static func span(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: String(format: "%.3g s", seconds)
        case ..<7200: String(format: "%.1f min", seconds / 60)
        case ..<172_800: String(format: "%.1f h", seconds / 3600)
        case ..<(2 * 31_557_600): String(format: "%.1f days", seconds / 86_400)
        default: String(format: "%.1f years", seconds / 31_557_600)
        }
    }
}
