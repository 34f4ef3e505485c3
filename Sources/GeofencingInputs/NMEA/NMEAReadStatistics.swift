/// What an NMEA reader saw: every line is counted in exactly one of `ignoredLines`, `checksumFailures`,
/// `malformedLines`, `unsupportedSentences`, `untimedSentences` or `usedSentences`.
public struct NMEAReadStatistics: Sendable, Hashable {
    /// Lines read, including empty ones.
    public var lines = 0
    /// Lines that are not NMEA sentences and are skipped on purpose: empty lines, `#` comments, text banners,
    /// AIS `!AIVDM` messages.
    public var ignoredLines = 0
    /// Sentences whose checksum did not match: corrupted in transmission.
    public var checksumFailures = 0
    /// Lines that could not be read: binary noise, truncated sentences (no checksum), overlong lines, fields that
    /// do not fit their format.
    public var malformedLines = 0
    /// Valid sentences of types or talkers the reader does not use (GSA, GSV, TXT, depth, wind, proprietary, ...).
    public var unsupportedSentences = 0
    /// Position sentences with an empty time field: they cannot be placed in an epoch (a receiver without a fix
    /// often sends `$GPRMC,,V,...`).
    public var untimedSentences = 0
    /// Sentences that went into an epoch.
    public var usedSentences = 0
    /// Observations produced, by kind.
    public var fixes = 0
    /// Epochs in which the receiver said it had no fix.
    public var noFixes = 0
    /// Epochs whose sentences said whether there is a fix but that yield no observation, because a client of gpsd
    /// gets none for them either: gpsd sent no report for them (`NMEACycleEnd`), or only reports without a time,
    /// before the log's first date gave it the year.
    public var epochsWithoutReport = 0
    /// Observations whose day came from `NMEAReaderConfiguration.referenceDate` because the log gave no date.
    public var referenceDatedObservations = 0
    /// Observations in a leap second (time of day 23:59:60.f), dated 23:59:59.999 + f/1000 s so that time stays
    /// monotonic (POSIX time has no name for 23:59:60).
    public var leapSecondObservations = 0
    /// The first bad lines (see `NMEAReaderConfiguration.maximumRecordedProblems`), with line number and reason.
    public var problems: [TrackReadError] = []

    /// Lines that were meant as sentences but could not be used: checksum failures and malformed lines.
    public var badLines: Int { checksumFailures + malformedLines }

    public init() {}
}
