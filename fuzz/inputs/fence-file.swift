// libFuzzer entry for the fence file importers (GeoJSON, CSV, GTFS stops.txt, recognised by content): any bytes
// either read or throw FenceFileError naming the file. What reads must be monitorable (a RegionIndex accepts every
// region: valid shapes, unique identifiers), and written back as GeoJSON (and as CSV when all are circles) it must
// read back to the same regions.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFenceFile(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzChecks.data(bytes, count)
    let result = FuzzChecks.timed("fence-file", byteCount: count) {
        Result { () throws(FenceFileError) in try FenceFile.parse(data, name: "fuzz.fences") }
    }
    let contents: FenceFileContents
    switch result {
    case .success(let read):
        contents = read
    case .failure(let error):
        if error.file != "fuzz.fences" { FuzzChecks.fail("fence-file", "the error names \(error.file): \(error)") }
        return 0
    }
    if contents.warnings.contains(where: { $0.file != "fuzz.fences" }) {
        FuzzChecks.fail("fence-file", "a warning names another file: \(contents.warnings)")
    }
    do {
        _ = try RegionIndex(regions: contents.regions)
    } catch {
        FuzzChecks.fail("fence-file", "the monitor refuses a region that was read: \(error)")
    }
    var written = [("geojson", FenceFile.geojson(contents.regions))]
    do {
        written.append(("csv", try FenceFile.csv(contents.regions)))
    } catch {
        // CSV holds circles only: the refusal is right exactly when a polygon or corridor was read.
        if contents.regions.allSatisfy({ $0.radius != nil }) {
            FuzzChecks.fail("fence-file", "CSV refused regions that are all circles: \(error)")
        }
    }
    for (format, text) in written {
        do {
            let again = try FenceFile.parse(Data(text.utf8), name: "fuzz.\(format)")
            if again.regions != contents.regions {
                FuzzChecks.fail("fence-file", "\(format) written and read back differs:\n\(text)\nread "
                    + "\(contents.regions)\nback \(again.regions)")
            }
        } catch {
            FuzzChecks.fail("fence-file", "\(format) written does not read back: \(error)\n\(text)")
        }
    }
    return 0
}
