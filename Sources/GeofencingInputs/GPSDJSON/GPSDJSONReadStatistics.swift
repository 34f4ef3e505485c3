/// What a gpsd JSON reader saw. Every report (a JSON object, on one line or over several) and every other line is
/// counted in exactly one of `ignoredLines`, `badLines`, `otherReports`, `unusableReports` and `usedReports`; the
/// lines after the first of a report over several lines are `continuationLines`, so that these six add up to `lines`.
public struct GPSDJSONReadStatistics: Sendable, Hashable {
    /// Lines read, including empty ones.
    public var lines = 0
    /// Empty lines.
    public var ignoredLines = 0
    /// Lines that continued a report begun on an earlier line (a pretty-printed report).
    public var continuationLines = 0
    /// Lines (or reports over several lines) that are not a JSON object with a "class", or whose fields have the
    /// wrong type.
    public var badLines = 0
    /// Reports of other classes (VERSION, DEVICES, WATCH, SKY, GST, ...).
    public var otherReports = 0
    /// TPV reports without a time, or with a fix mode but no valid position.
    public var unusableReports = 0
    /// TPV reports that became (or were merged into) an observation.
    public var usedReports = 0
    /// Observations produced, by kind (after merging the TPVs of one time).
    public var fixes = 0
    public var noFixes = 0
    /// The first bad lines with line number and reason (at most 20).
    public var problems: [TrackReadError] = []

    public init() {}
}
