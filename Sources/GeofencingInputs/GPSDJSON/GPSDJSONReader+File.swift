import Foundation
import Geofencing

/// All observations of a gpsd JSON log and what the reader counted on the way.
public struct GPSDJSONLog: Sendable, Hashable {
    /// One observation per time of the log's TPV reports, in file order.
    public var observations: [Observation]
    /// Counts of the lines by what they were, with the first bad lines.
    public var statistics: GPSDJSONReadStatistics

    public init(observations: [Observation], statistics: GPSDJSONReadStatistics) {
        self.observations = observations
        self.statistics = statistics
    }
}

extension GPSDJSONReader {
    /// Reads a whole gpsd JSON log held in memory. `source` names it in the recorded problems.
    public static func read(data: Data, source: String = "gpsd JSON") -> GPSDJSONLog {
        var reader = GPSDJSONReader(source: source)
        var observations = reader.read(bytes: data)
        observations += reader.finish()
        return GPSDJSONLog(observations: observations, statistics: reader.statistics)
    }

    /// Reads the gpsd JSON log at `path`. Bad lines are counted, not thrown.
    ///
    /// - Throws: `TrackReadError` when the file cannot be read at all.
    public static func read(path: String) throws -> GPSDJSONLog {
        read(data: try TrackFileData.contents(ofFile: path), source: path)
    }
}
