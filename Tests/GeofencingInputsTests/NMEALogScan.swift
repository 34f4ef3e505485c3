// Test support: the sentences of an NMEA log grouped into epochs, with every sentence type (also those the reader
// does not use), to explain differences between gpsd and our reader.
import Foundation
import Geofencing
@testable import GeofencingInputs

/// One epoch of a log as gpsd's end-of-cycle detector sees it: consecutive sentences up to a change of time of day.
struct ScannedEpoch {
    var timeOfDay: Int64
    /// Sentence types in order of arrival, any talker ("RMC", "GSV", "VTG", ...).
    var types: [String] = []
    /// The valid positions the epoch's sentences report, with their sentence type.
    var positions: [(type: String, coordinate: Coordinate)] = []
}

enum NMEALogScan {
    static func epochs(of data: Data) -> [ScannedEpoch] {
        var splitter = LineSplitter(maximumLength: 1024)
        var lines: [LineSplitter.Line] = []
        splitter.split(data, into: &lines)
        splitter.finish(into: &lines)
        var epochs: [ScannedEpoch] = []
        for case .text(let bytes) in lines {
            guard case .sentence(let sentence) = NMEALine(bytes: bytes) else { continue }
            let report = (try? NMEAReport.decode(sentence)) ?? nil
            if let timeOfDay = report?.timeOfDay, epochs.last?.timeOfDay != timeOfDay {
                epochs.append(ScannedEpoch(timeOfDay: timeOfDay))
            }
            guard !epochs.isEmpty else { continue }
            epochs[epochs.count - 1].types.append(sentence.type)
            if case .valid(let coordinate) = report?.position {
                epochs[epochs.count - 1].positions.append((sentence.type, coordinate))
            }
        }
        return epochs
    }

    /// For each epoch, whether gpsd 3.22's end-of-cycle detector would report it: gpsd reports (emits a TPV) on a
    /// sentence whose type it has already seen as the last one before a change of time. The first epoch can
    /// therefore never be reported, nor one that lacks every such type (a log cut short or trimmed).
    static func wouldGPSDReport(_ epochs: [ScannedEpoch]) -> [Bool] {
        var cycleEnders: Set<String> = []
        var result: [Bool] = []
        for epoch in epochs {
            result.append(epoch.types.contains(where: cycleEnders.contains))
            if let last = epoch.types.last { cycleEnders.insert(last) }
        }
        return result
    }
}
