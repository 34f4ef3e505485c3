import Foundation
import Geofencing

/// All observations of an NMEA log and what the reader counted on the way.
public struct NMEALog: Sendable, Hashable {
    /// One observation per epoch, in file order.
    public var observations: [Observation]
    /// Counts of the lines by what they were, with the first bad lines.
    public var statistics: NMEAReadStatistics

    public init(observations: [Observation], statistics: NMEAReadStatistics) {
        self.observations = observations
        self.statistics = statistics
    }
}

extension NMEAReader {
    /// Reads a whole NMEA log held in memory. `source` names it in the recorded problems.
    public static func read(
        data: Data, source: String = "NMEA", configuration: NMEAReaderConfiguration = NMEAReaderConfiguration()
    ) -> NMEALog {
        var reader = NMEAReader(source: source, configuration: configuration)
        var observations = reader.read(bytes: data)
        observations += reader.finish()
        return NMEALog(observations: observations, statistics: reader.statistics)
    }

    /// Reads the NMEA log at `path`. Bad lines do not make it fail; they are counted in the log's statistics.
    ///
    /// - Throws: `TrackReadError` when the file cannot be read at all.
    public static func read(
        path: String, configuration: NMEAReaderConfiguration = NMEAReaderConfiguration()
    ) throws -> NMEALog {
        read(data: try TrackFileData.contents(ofFile: path), source: path, configuration: configuration)
    }
}
