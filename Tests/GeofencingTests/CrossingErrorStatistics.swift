// Test support: the distribution of crossing-time errors (seconds), printed and checked against a target.
import Foundation

/// Absolute errors in seconds of event times against reference crossings, with the figures the tests print.
struct CrossingErrorStatistics {
    private(set) var errors: [Double] = []

    mutating func add(_ error: Double) { errors.append(abs(error)) }

    var count: Int { errors.count }

    /// The `fraction` quantile (0 ... 1), nearest rank: the smallest error with at least that share of errors at
    /// or below it. NaN without errors.
    func quantile(_ fraction: Double) -> Double {
        guard !errors.isEmpty else { return .nan }
        let sorted = errors.sorted()
        let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    /// Share of errors within `seconds`.
    func share(within seconds: Double) -> Double {
        errors.isEmpty ? 0 : Double(errors.count { $0 <= seconds }) / Double(errors.count)
    }

    /// "n 148, median 0.31 s, 95th 1.12 s, max 2.40 s, 97.3 % within 2 s"
    func summary(target: Double) -> String {
        String(format: "n %d, median %.2f s, 95th %.2f s, max %.2f s, %.1f %% within %.0f s", count, quantile(0.5),
               quantile(0.95), errors.max() ?? .nan, 100 * share(within: target), target)
    }
}
