// Shared helpers of the C core's tests: a seeded random generator, readable gf_status failures, the fixture folder.
import CGeofence
import Foundation
import Testing

/// SplitMix64: a tiny, fast generator whose whole state is one integer, so every test run draws the same numbers
/// and a failure can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

extension RandomNumberGenerator {
    /// A value whose logarithm is uniform, so every scale between the bounds is equally represented
    /// (1 m fences as often as 10 km ones).
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(Double.random(in: log(range.lowerBound)...log(range.upperBound), using: &self))
    }

    /// A normally distributed value (Box-Muller), for clustered layouts.
    mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne...1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

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
