// libFuzzer entry for the gpsd JSON reader: any bytes read without a crash, every line counted exactly once (the
// later lines of a report over several as continuation lines), every observation counted, every fix valid; and reading
// the same bytes in two chunks gives the same log.
import Foundation
import Geofencing
import GeofencingInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzChecks.data(bytes, count)
    let log = FuzzChecks.timed("gpsd-json", byteCount: count) { GPSDJSONReader.read(data: data, source: "fuzz.json") }
    let statistics = log.statistics
    let counted = statistics.ignoredLines + statistics.continuationLines + statistics.badLines
        + statistics.otherReports + statistics.unusableReports + statistics.usedReports
    if counted != statistics.lines { FuzzChecks.fail("gpsd-json", "\(statistics.lines) lines but \(counted) counted") }
    if statistics.fixes + statistics.noFixes != log.observations.count {
        FuzzChecks.fail("gpsd-json", "\(log.observations.count) observations but \(statistics.fixes) fixes + "
            + "\(statistics.noFixes) no-fixes counted")
    }
    FuzzChecks.checkObservations(log.observations, target: "gpsd-json")

    if count > 1 {
        let cut = Int(data[data.startIndex]) % count
        var reader = GPSDJSONReader(source: "fuzz.json")
        var observations = reader.read(bytes: data.prefix(cut))
        observations += reader.read(bytes: data.dropFirst(cut))
        observations += reader.finish()
        if observations != log.observations || reader.statistics != statistics {
            FuzzChecks.fail("gpsd-json", "reading in two chunks (cut at \(cut)) gives another log")
        }
    }
    return 0
}
