// Shared helpers of the C core's tests: readable gf_status failures, the fixture folder (the seeded generator is in
// GeofencingTestSupport).
import CGeofence
import Foundation
import GeofencingTestSupport
import Testing

/// "GF_ERR_RADIUS (radius outside ...)": a status as the core names and explains it, for failure messages.
func describe(_ status: gf_status) -> String {
    "\(String(cString: gf_status_name(status))) (\(String(cString: gf_status_message(status))))"
}

/// Records an issue naming both statuses when `actual` is not `expected`; returns whether they matched.
@discardableResult
func expectStatus(
    _ actual: gf_status, _ expected: gf_status, _ context: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    if actual == expected { return true }
    Issue.record("\(context()): got \(describe(actual)), expected \(describe(expected))", sourceLocation: sourceLocation)
    return false
}

/// Thrown by `requireOK` so a test stops at the first call whose failure makes the rest meaningless.
struct CoreCallFailed: Error, CustomStringConvertible {
    let description: String
}

/// Stops the test (by throwing) unless `status` is GF_OK.
func requireOK(
    _ status: gf_status, _ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    guard status == GF_OK else {
        let message = "\(context()): \(describe(status))"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        throw CoreCallFailed(description: message)
    }
}

/// The folder of fixture files, found from this source file so the tests run from any working directory.
func fixtureURL(_ name: String, sourceFile: String = #filePath) -> URL {
    URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .appendingPathComponent(name)
}

/// The accuracy band of include/geofence.h in millimetres: within it, classification may differ from the geodesic.
func band(radiusMM: UInt32) -> Double {
    20 + Double(radiusMM) / 10_000
}

/// The core's distance in millimetres, or a thrown failure naming both points.
func coreDistance(_ a: gf_point, _ b: gf_point, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
    var distance: Int64 = -1
    try requireOK(gf_distance(a, b, &distance), "gf_distance(\(a.text), \(b.text))", sourceLocation: sourceLocation)
    return distance
}

/// "0x1000005": a handle as hex, where the generation (top byte) and the slot (low 24 bits) can be read apart.
func hex(_ handle: gf_handle) -> String {
    "0x" + String(handle, radix: 16)
}

extension gf_point {
    /// "(-274679357, 1530281038)": the e7 pair as a test input can be pasted back from it.
    var text: String { "(\(lat), \(lon))" }

    /// Equality of the e7 pair (gf_point is a C struct, so it is not Equatable by itself).
    func isSame(as other: gf_point) -> Bool {
        lat == other.lat && lon == other.lon
    }
}
