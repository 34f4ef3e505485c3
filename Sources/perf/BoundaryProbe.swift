import CGeofence
import Glibc
import GeofencingInputs

/// Places boundary probes: a point at a given geodesic distance and bearing from a fence's centre, on the WGS-84
/// ellipsoid, computed here in Double and independently of the core (whose answers the probes test).
///
/// Method: a first guess from the local radii of curvature at the mid-latitude (meridian M, prime vertical N), then
/// two corrections that scale the offset by intended / measured distance, where the distance is measured the way the
/// header documents the core's (ECEF chord c, geodesic s = c + c^3 / 24 R^2; this is a separate Double
/// implementation of that formula, not a call into the core). Before the rounding to 1e-7 degree (<= 0.79 cm) the
/// probe is within a millimetre of the intended chord-series distance; perf reports the worst gap between the
/// intended distance and gf_distance over every probe of a run.
enum BoundaryProbe {
    /// The distance from the centre of probe number `index` around a fence of `radiusMetres`, cycling through
    /// r - 0.5 m, r + 0.5 m, r (1 - 1e-4), r (1 + 1e-4).
    static func intendedMetres(probe index: Int, radiusMetres: Double) -> Double {
        switch index % 4 {
        case 0: radiusMetres - 0.5
        case 1: radiusMetres + 0.5
        case 2: radiusMetres * (1 - 1e-4)
        default: radiusMetres * (1 + 1e-4)
        }
    }

    /// One probe: where it is, the fence it probes, and its intended distance from that fence's centre.
    struct Probe {
        let position: Position
        let fenceIndex: Int
        let intendedMetres: Double
    }

    /// `count` probes around fences picked uniformly at random, cycling through the four distances of
    /// `intendedMetres`, each on a random bearing.
    static func probes(count: Int, around fences: [Fence], generator: inout SplitMix64) -> [Probe] {
        guard !fences.isEmpty else { return [] }
        return (0..<count).map { index in
            let fenceIndex = Int(generator.next() % UInt64(fences.count))
            let fence = fences[fenceIndex]
            let intended = intendedMetres(probe: index, radiusMetres: fence.radiusMetres)
            let bearing = generator.uniform(in: 0...2 * .pi)
            return Probe(position: place(around: fence, metres: intended, bearing: bearing), fenceIndex: fenceIndex,
                         intendedMetres: intended)
        }
    }

    /// The largest |gf_distance(probe, centre) - intended| over `probes`, in metres: how well the probes sit where
    /// they should (placement, e7 rounding and gf_distance's own error together); nil if gf_distance refused one.
    static func worstPlacementErrorMetres(_ probes: [Probe], fences: [Fence]) -> Double? {
        var worst = 0.0
        for probe in probes {
            var millimetres: Int64 = 0
            guard gf_distance(probe.position.point, fences[probe.fenceIndex].centre.point, &millimetres) == GF_OK
            else { return nil }
            worst = max(worst, abs(Double(millimetres) / 1000 - probe.intendedMetres))
        }
        return worst
    }

    private static let semiMajorAxis = 6_378_137.0
    private static let eccentricitySquared = 0.006_694_379_990_14  // WGS-84: f (2 - f), f = 1 / 298.257223563
    private static let meanRadius = 6_371_008.8

    static func place(around fence: Fence, metres distance: Double, bearing: Double) -> Position {
        let latitude = fence.centre.latitudeDegrees * .pi / 180
        let longitude = fence.centre.longitudeDegrees * .pi / 180
        var north = distance * cos(bearing)
        var east = distance * sin(bearing)
        var probe = offset(latitude, longitude, north: north, east: east)
        for _ in 0..<2 {
            let measured = chordSeriesMetres(latitude, longitude, probe.latitude, probe.longitude)
            guard measured > 0 else { break }
            north *= distance / measured
            east *= distance / measured
            probe = offset(latitude, longitude, north: north, east: east)
        }
        return Position(latitude: probe.latitude * 180 / .pi, longitude: probe.longitude * 180 / .pi)
    }

    /// The point `north` and `east` metres from a point, by the radii of curvature at the mid-latitude (radians).
    private static func offset(
        _ latitude: Double, _ longitude: Double, north: Double, east: Double
    ) -> (latitude: Double, longitude: Double) {
        var middle = latitude
        var deltaLatitude = 0.0
        for _ in 0..<3 {
            let w = 1 - eccentricitySquared * sin(middle) * sin(middle)
            deltaLatitude = north / (semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot()))
            middle = latitude + deltaLatitude / 2
        }
        let w = 1 - eccentricitySquared * sin(middle) * sin(middle)
        let primeVertical = semiMajorAxis / w.squareRoot()
        return (latitude + deltaLatitude, longitude + east / (primeVertical * cos(middle)))
    }

    /// The header's distance formula in Double: the ECEF chord plus its series term.
    private static func chordSeriesMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let a = ecef(lat1, lon1)
        let b = ecef(lat2, lon2)
        let chord = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)).squareRoot()
        return chord + chord * chord * chord / (24 * meanRadius * meanRadius)
    }

    private static func ecef(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double, z: Double) {
        let primeVertical = semiMajorAxis / (1 - eccentricitySquared * sin(latitude) * sin(latitude)).squareRoot()
        return (primeVertical * cos(latitude) * cos(longitude), primeVertical * cos(latitude) * sin(longitude),
                primeVertical * (1 - eccentricitySquared) * sin(latitude))
    }
}
