// The reference answer to a query: every fence checked one by one with the core's own gf_distance.
//
// Using the core's distance (not geographiclib) makes the comparison exact: the index may only change which fences
// are looked at, never the answer, so gf_query must return precisely this set, distances included.
import CGeofence
import Testing

struct FenceRecord {
    let handle: gf_handle
    var centre: gf_point
    var radiusMM: UInt32
}

enum BruteForce {
    /// The signed distance from the fence boundary, as gf_query defines it: gf_distance(fix, centre) - radius.
    static func signedDistance(_ fix: gf_point, _ fence: FenceRecord) throws -> Int64 {
        try coreDistance(fix, fence.centre) - Int64(fence.radiusMM)
    }

    /// The hits of a query over `fences`, sorted. With `skipFarLatitudes`, fences whose latitude alone puts them out
    /// of reach are skipped without calling the core (see `isOutOfReachByLatitude`), which keeps big tables cheap.
    static func hits(
        _ fix: gf_point, marginMM: UInt32, fences: [FenceRecord], skipFarLatitudes: Bool = false
    ) throws -> [Hit] {
        var hits: [Hit] = []
        for index in 0..<fences.count {
            let fence = fences[index]
            if skipFarLatitudes && isOutOfReachByLatitude(fix, fence, marginMM: marginMM) { continue }
            let distance = try signedDistance(fix, fence)
            if distance <= Int64(marginMM) {
                hits.append(Hit(handle: fence.handle, distanceMM: Int32(distance)))
            }
        }
        return hits.sorted()
    }

    // The two functions below do millions of distances per test run. They are plain index loops calling gf_distance
    // directly because generic sequence code (zip, compactMap) and a throwing wrapper per call cost five times more
    // than the core itself in a debug build.

    /// The signed distances of a fix from every fence, computed once and reused for several margins.
    static func signedDistances(_ fix: gf_point, fences: [FenceRecord]) throws -> [Int64] {
        var distances = [Int64](repeating: 0, count: fences.count)
        var failures = 0
        for index in 0..<fences.count {
            var distance: Int64 = 0
            if gf_distance(fix, fences[index].centre, &distance) != GF_OK { failures += 1 }
            distances[index] = distance - Int64(fences[index].radiusMM)
        }
        if failures > 0 {
            // Repeated through the checking wrapper, which names the first failing pair.
            for fence in fences { _ = try signedDistance(fix, fence) }
        }
        return distances
    }

    /// The hits for one margin, from distances computed by `signedDistances` (same order as `fences`).
    static func hits(signedDistances: [Int64], marginMM: UInt32, fences: [FenceRecord]) -> [Hit] {
        var hits: [Hit] = []
        for index in 0..<fences.count where signedDistances[index] <= Int64(marginMM) {
            hits.append(Hit(handle: fences[index].handle, distanceMM: Int32(signedDistances[index])))
        }
        return hits.sorted()
    }

    /// True when the latitude difference alone proves the fix farther than radius + margin from the fence.
    /// A degree of latitude is at least 110.5 km of geodesic on WGS-84 (and the core agrees to millimetres up to
    /// 100 km, its reach with the largest radius and margin); 10 mm per e7 unit instead of 11.05 leaves 10 % slack,
    /// plus a flat 10 m.
    static func isOutOfReachByLatitude(_ fix: gf_point, _ fence: FenceRecord, marginMM: UInt32) -> Bool {
        let latitudeGapE7 = abs(Int64(fix.lat) - Int64(fence.centre.lat))
        return latitudeGapE7 * 10 > Int64(fence.radiusMM) + Int64(marginMM) + 10_000
    }
}
