// libFuzzer entry for the GPX reader: any bytes either read or throw TrackReadError naming the source; every track
// and route point read has a valid coordinate, and every fix is valid.
import Foundation
import Geofencing
import GeofencingInputs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzChecks.data(bytes, count)
    let result = FuzzChecks.timed("gpx", byteCount: count) {
        Result { try GPXReader.read(data: data, source: "fuzz.gpx") }
    }
    switch result {
    case .success(let document):
        let points = document.tracks.flatMap(\.segments).joined() + document.routes.flatMap(\.points)
        if let bad = points.first(where: { !$0.coordinate.isValid }) {
            FuzzChecks.fail("gpx", "a point with an invalid coordinate \(bad.coordinate)")
        }
        FuzzChecks.checkObservations(document.observations, target: "gpx")
    case .failure(let error as TrackReadError):
        if error.source != "fuzz.gpx" { FuzzChecks.fail("gpx", "the error names \(error.source): \(error)") }
    case .failure(let error):
        FuzzChecks.fail("gpx", "threw \(type(of: error)), not TrackReadError: \(error)")
    }
    return 0
}
