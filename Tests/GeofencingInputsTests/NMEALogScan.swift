// Test support: the sentences of an NMEA log grouped into epochs, with every sentence type (also those the reader
// does not use), to explain differences between gpsd and our reader.
import Foundation
import Geofencing
@testable import GeofencingInputs

/// One epoch of a log as gpsd's end-of-cycle detector sees it: consecutive sentences up to a change of time of day,
/// of the lines gpsd reads (a last line without a line end is not among them).
struct ScannedEpoch {
    var timeOfDay: Int64
    /// Sentence types in order of arrival, any talker ("RMC", "GSV", "VTG", ...).
    var types: [String] = []
    /// The valid positions the epoch's sentences report, with their sentence type.
    var positions: [(type: String, coordinate: Coordinate)] = []
    /// Whether gpsd ends a reporting cycle on any of the epoch's sentences (`NMEACycleEnd`): `gpsdecode` then
    /// prints a TPV for the epoch.
    var endsCycle = false
    /// The last valid position up to the epoch's last cycle end: the position of `gpsdecode`'s last TPV for it.
    var positionAtLastCycleEnd: Coordinate?
}

enum NMEALogScan {
    static func epochs(of data: Data) -> [ScannedEpoch] {
        var splitter = LineSplitter(maximumLength: 1024)
        var lines: [LineSplitter.Line] = []
        splitter.split(data, into: &lines)     // no finish(): gpsd drops a last line without a line end
        var epochs: [ScannedEpoch] = []
        var cycleEnd = NMEACycleEnd()
        var latestPosition: Coordinate?
        for case .text(let bytes) in lines {
            guard case .sentence(let sentence) = NMEALine(bytes: bytes) else { continue }
            let decision = cycleEnd.take(sentence)
            let report = (try? NMEAReport.decode(sentence)) ?? nil
            if let timeOfDay = report?.timeOfDay, epochs.last?.timeOfDay != timeOfDay {
                epochs.append(ScannedEpoch(timeOfDay: timeOfDay))
                latestPosition = nil
            }
            guard !epochs.isEmpty else { continue }
            epochs[epochs.count - 1].types.append(sentence.type)
            if case .valid(let coordinate) = report?.position {
                epochs[epochs.count - 1].positions.append((sentence.type, coordinate))
                latestPosition = coordinate
            }
            if decision.endsCycle {
                epochs[epochs.count - 1].endsCycle = true
                epochs[epochs.count - 1].positionAtLastCycleEnd = latestPosition
            }
        }
        return epochs
    }
}
