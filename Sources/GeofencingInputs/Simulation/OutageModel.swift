// When the simulated receiver has no fix.

/// Stretches of time without a fix: scheduled ones (a tunnel at a known time, for a test) and random ones (a
/// Poisson process with `randomPerHour` outages an hour, each lasting a duration drawn uniformly from
/// `duration`). During an outage the receiver either reports "no fix" at each sample time or says nothing at all.
public struct OutageModel: Sendable, Hashable {
    /// How an outage shows in the output.
    public enum Reporting: Sendable, Hashable {
        /// An `Observation.noFix` at each sample time (gpsd mode 1, NMEA status V): what most receivers do.
        case noFix
        /// No observation at all (a receiver that goes silent, a cable pulled): the samples still carry the truth.
        case silent
    }

    /// Outages at fixed times, in seconds from the start of the drive (half-open: a sample at the upper bound has
    /// a fix again).
    public var scheduled: [Range<Double>]
    /// Expected number of random outages per hour of driving (0: none).
    public var randomPerHour: Double
    /// Length of each random outage, seconds.
    public var duration: ClosedRange<Double>
    /// How outages are reported.
    public var reporting: Reporting

    public init(
        scheduled: [Range<Double>] = [], randomPerHour: Double = 0, duration: ClosedRange<Double> = 5...30,
        reporting: Reporting = .noFix
    ) {
        self.scheduled = scheduled
        self.randomPerHour = randomPerHour
        self.duration = duration
        self.reporting = reporting
    }

    /// No outages.
    public static let none = OutageModel()

    func validate() throws {
        for (index, range) in scheduled.enumerated() {
            try SimulationError.check("outage \(index) start", range.lowerBound, "finite") { _ in true }
            try SimulationError.check("outage \(index) end", range.upperBound, "finite") { _ in true }
        }
        try SimulationError.check("randomPerHour", randomPerHour, ">= 0") { $0 >= 0 }
        try SimulationError.check("outage duration lower bound", duration.lowerBound, ">= 0 s") { $0 >= 0 }
        try SimulationError.check("outage duration upper bound", duration.upperBound, "finite") { _ in true }
    }

    /// All outages of a drive of `length` seconds, scheduled and random, as half-open ranges of seconds from its
    /// start. The random ones come from their own stream, so adding them leaves every other number unchanged.
    func intervals(forDriveOf length: Double, random: inout SplitMix64) -> [Range<Double>] {
        var intervals = scheduled
        guard randomPerHour > 0 else { return intervals }
        let meanGap = 3600 / randomPerHour
        var start = random.exponential(mean: meanGap)
        while start < length {
            let end = start + random.uniform(in: duration)
            intervals.append(start..<end)
            start = end + random.exponential(mean: meanGap)
        }
        return intervals
    }
}
