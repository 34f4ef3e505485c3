import Glibc

/// The baseline: what an app developer writes without a geofencing library. Every fix is checked against every fence
/// with the spherical haversine formula in Double, and the hits (fence index and signed distance) are collected into
/// an array that is reused from fix to fix.
///
/// It is written the way a careful developer would, so that the comparison is fair: fences are stored in radians with
/// cos(latitude) precomputed (one fewer cosine per fence), and the hit array keeps its capacity between fixes. It is
/// not vectorised or indexed: that would be a library, which is the point of the comparison.
struct NaiveHaversineEngine {
    /// The sphere radius apps commonly use (the IUGG mean radius). Spherical distance is off from the WGS-84
    /// ellipsoid by up to 0.56 %, so near a boundary this engine and the core may legitimately disagree.
    static let earthRadiusMetres = 6_371_008.8

    struct StoredFence {
        let latitude: Double      // radians
        let longitude: Double     // radians
        let cosLatitude: Double
        let radiusMetres: Double
    }

    struct Hit {
        let fenceIndex: Int
        let signedDistanceMetres: Double  // negative inside
    }

    let fences: [StoredFence]
    private(set) var hits: [Hit] = []

    /// Converts the fences (the benchmark times this, and weighs what it keeps, as this engine's build cost).
    init(fences: [Fence]) {
        self.fences = fences.map { fence in
            let latitude = fence.centre.latitudeDegrees * .pi / 180
            return StoredFence(latitude: latitude, longitude: fence.centre.longitudeDegrees * .pi / 180,
                               cosLatitude: cos(latitude), radiusMetres: fence.radiusMetres)
        }
    }

    /// Finds every fence whose boundary is within `marginMetres` of the fix (or which contains it); returns how many.
    /// The hits are in `hits` until the next query.
    mutating func query(_ fix: Position, marginMetres: Double) -> Int {
        hits.removeAll(keepingCapacity: true)
        let latitude = fix.latitudeDegrees * .pi / 180
        let longitude = fix.longitudeDegrees * .pi / 180
        let cosLatitude = cos(latitude)
        for index in fences.indices {
            let fence = fences[index]
            let distance = Self.haversineMetres(latitude, longitude, cosLatitude, fence)
            let signedDistance = distance - fence.radiusMetres
            if signedDistance <= marginMetres {
                hits.append(Hit(fenceIndex: index, signedDistanceMetres: signedDistance))
            }
        }
        return hits.count
    }

    /// The haversine distance from a fix to one fence's centre: the agreement check's view of a single pair.
    func distanceMetres(from fix: Position, toFence index: Int) -> Double {
        let latitude = fix.latitudeDegrees * .pi / 180
        return Self.haversineMetres(latitude, fix.longitudeDegrees * .pi / 180, cos(latitude), fences[index])
    }

    /// Great-circle distance on the sphere: 2 R asin(sqrt(sin^2(dlat/2) + cos(lat1) cos(lat2) sin^2(dlon/2))).
    @inline(__always)
    static func haversineMetres(
        _ latitude: Double, _ longitude: Double, _ cosLatitude: Double, _ fence: StoredFence
    ) -> Double {
        let sinHalfLatitude = sin((fence.latitude - latitude) / 2)
        let sinHalfLongitude = sin((fence.longitude - longitude) / 2)
        let a = sinHalfLatitude * sinHalfLatitude
            + cosLatitude * fence.cosLatitude * sinHalfLongitude * sinHalfLongitude
        return 2 * earthRadiusMetres * asin(min(1, a.squareRoot()))
    }
}
