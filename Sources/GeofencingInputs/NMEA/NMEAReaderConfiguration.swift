import Foundation

/// Choices an NMEA log cannot make for itself.
public struct NMEAReaderConfiguration: Sendable, Hashable {
    /// The day (UTC; the time of day is ignored) that the first epoch of a log without any date falls on, e.g. a
    /// GLL-only or GGA-only log. Default 1970-01-01: obviously not a real date, so nobody mistakes such times for
    /// the real ones, while their order and spacing, which the monitor's timing needs, are kept. Set it to the
    /// recording day when known, or to today for a live receiver without RMC or ZDA.
    public var referenceDate: Date
    /// The century of RMC's two-digit years (2000 for years 2000...2099), until a ZDA sentence gives a full year.
    /// gpsd 3.22 takes the century of its start-up clock the same way; a fixed default keeps a log's times
    /// independent of the machine that reads it.
    public var century: Int
    /// How many epochs without a date the reader holds back, waiting for an RMC or ZDA to date them, before it
    /// gives up and uses `referenceDate`. Small, because a live stream without dates is delayed by this many epochs
    /// once, at its start.
    public var maximumHeldEpochs: Int
    /// Talker identifiers whose position sentences are read: GPS, any GNSS combination, GLONASS, Galileo, BeiDou
    /// (both spellings). Others, such as an instrument bus's "II" VTG, are counted as unsupported.
    public var talkers: Set<String>
    /// Lines longer than this many bytes are bad (a standard sentence has at most 82 characters; room is left for
    /// logger prefixes). Bounds the memory a stream without line ends can take.
    public var maximumLineLength: Int
    /// How many bad lines are kept with their line number and reason in `NMEAReadStatistics.problems`; all are
    /// counted.
    public var maximumRecordedProblems: Int

    public init(
        referenceDate: Date = Date(timeIntervalSince1970: 0), century: Int = 2000, maximumHeldEpochs: Int = 10,
        talkers: Set<String> = ["GP", "GN", "GL", "GA", "GB", "BD"], maximumLineLength: Int = 1024,
        maximumRecordedProblems: Int = 20
    ) {
        self.referenceDate = referenceDate
        self.century = century
        self.maximumHeldEpochs = maximumHeldEpochs
        self.talkers = talkers
        self.maximumLineLength = maximumLineLength
        self.maximumRecordedProblems = maximumRecordedProblems
    }
}
