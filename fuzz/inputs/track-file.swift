// libFuzzer entry for TrackFile.read(data:source:), which recognises NMEA, GPX and gpsd JSON by content: any bytes
// either read (as some format) or throw TrackReadError naming the source; every fix is valid.
import Foundation
import Geofencing
import GeofencingInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrackFile(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzChecks.data(bytes, count)
    let result = FuzzChecks.timed("track-file", byteCount: count) {
        Result { try TrackFile.read(data: data, source: "fuzz.track") }
    }
    switch result {
    case .success(let track):
        if track.source != "fuzz.track" { FuzzChecks.fail("track-file", "the track names \(track.source)") }
        FuzzChecks.checkObservations(track.observations, target: "track-file")
    case .failure(let error as TrackReadError):
        if error.source != "fuzz.track" { FuzzChecks.fail("track-file", "the error names \(error.source): \(error)") }
    case .failure(let error):
        FuzzChecks.fail("track-file", "threw \(type(of: error)), not TrackReadError: \(error)")
    }
    return 0
}
