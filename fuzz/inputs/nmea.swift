// libFuzzer entry for the NMEA 0183 reader: any bytes read without a crash, every line counted exactly once, every
// observation counted, every fix valid; and reading the same bytes in two chunks gives the same log.
import Foundation
import Geofencing
import GeofencingInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzChecks.data(bytes, count)
    let log = FuzzChecks.timed("nmea", byteCount: count) { NMEAReader.read(data: data, source: "fuzz.nmea") }
    let statistics = log.statistics
    let counted = statistics.ignoredLines + statistics.checksumFailures + statistics.malformedLines
        + statistics.unsupportedSentences + statistics.untimedSentences + statistics.usedSentences
    if counted != statistics.lines { FuzzChecks.fail("nmea", "\(statistics.lines) lines but \(counted) counted") }
    if statistics.fixes + statistics.noFixes != log.observations.count {
        FuzzChecks.fail("nmea", "\(log.observations.count) observations but \(statistics.fixes) fixes + "
            + "\(statistics.noFixes) no-fixes counted")
    }
    if statistics.problems.contains(where: { $0.source != "fuzz.nmea" || $0.line == nil }) {
        FuzzChecks.fail("nmea", "a problem without the source or line: \(statistics.problems)")
    }
    FuzzChecks.checkObservations(log.observations, target: "nmea")

    // A stream's chunking must not matter: split where the input's first byte says.
    if count > 1 {
        let cut = Int(data[data.startIndex]) % count
        var reader = NMEAReader(source: "fuzz.nmea")
        var observations = reader.read(bytes: data.prefix(cut))
        observations += reader.read(bytes: data.dropFirst(cut))
        observations += reader.finish()
        if observations != log.observations || reader.statistics != statistics {
            FuzzChecks.fail("nmea", "reading in two chunks (cut at \(cut)) gives another log")
        }
    }
    return 0
}
