import GeofencingGPSD

/// Tells the log (standard error), once per kind, that gpsd sent TPV reports the reader did not pass on: without a
/// usable time, or with a position or mode out of range; or that the daemon fell `GPSDConfiguration.bufferLimit`
/// observations behind and the oldest waiting ones were dropped. Later ones are only counted (`GPSDSource.statistics`).
/// Checked as observations arrive, so reports of these kinds are logged by the next good observation.
struct GPSDReportWarnings {
    /// The source whose counters are checked.
    let gps: GPSDSource
    /// Names gpsd in each line ("gpsd localhost:2947").
    let source: String
    private var warnedUntimed = false
    private var warnedInvalid = false
    private var warnedDropped = false

    init(_ gps: GPSDSource, source: String) {
        self.gps = gps
        self.source = source
    }

    /// Logs the kinds of dropped report that `gps` counted since the last check and were not logged yet.
    mutating func check() {
        let statistics = gps.statistics
        if statistics.untimedReports > 0 && !warnedUntimed {
            warnedUntimed = true
            Console.error("geofence run: warning: \(source): a TPV report without a usable time (none, unreadable, "
                + "or before 1980-01-06) was not used (further ones are counted, not logged)")
        }
        if statistics.invalidReports > 0 && !warnedInvalid {
            warnedInvalid = true
            Console.error("geofence run: warning: \(source): a TPV report with a position or mode out of range was "
                + "not used (further ones are counted, not logged)")
        }
        if statistics.droppedObservations > 0 && !warnedDropped {
            warnedDropped = true
            Console.error("geofence run: warning: \(source): the daemon fell behind the fixes and "
                + "\(statistics.droppedObservations) waiting observations were dropped, oldest first (further ones are "
                + "counted, not logged)")
        }
    }
}
