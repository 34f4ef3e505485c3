import Glibc
import GeofencingInputs

/// One set of fences to benchmark, with the area its fixes are drawn over.
struct Dataset {
    /// Where the fences come from.
    enum Source {
        /// Centres uniform over the area, radii log-uniform 20 m .. 2 km: every fence size from a bus stop to a
        /// small town is equally common per factor of size, as in real fence lists.
        case uniform(seed: UInt64)
        /// Real bus stops, each a fence of the same radius: dense clusters in the city, sparse elsewhere.
        case stops([Position], radiusMillimetres: UInt32)
    }

    /// "uniform" or "seq-stops": the `dataset` field of the report.
    let name: String
    let area: GeoArea
    let fenceCounts: [Int]
    let source: Source

    static func uniform(fenceCounts: [Int]) -> Dataset {
        let seed: UInt64 = 0x6765_6F66_656E_6365  // "geofence" in ASCII
        return Dataset(name: "uniform", area: .country, fenceCounts: fenceCounts, source: .uniform(seed: seed))
    }

    /// Stops at 100 m, with fixes over the stops' own bounding box (so the drive goes through the clusters).
    static func stops(_ stops: [Position], named name: String) -> Dataset? {
        let points = stops.map { (latitude: $0.latitudeDegrees, longitude: $0.longitudeDegrees) }
        guard let area = GeoArea.boundingBox(of: points) else { return nil }
        return Dataset(name: name, area: area, fenceCounts: [stops.count],
                       source: .stops(stops, radiusMillimetres: 100_000))
    }

    /// The first `count` fences of this dataset. Uniform sets with the same seed are prefixes of each other, so
    /// 10^3 fences are the first thousand of the 10^6.
    func fences(count: Int) -> [Fence] {
        switch source {
        case .uniform(let seed):
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                let centre = area.randomPoint(using: &generator)
                let radiusMetres = 20 * pow(100, generator.unit())  // 20 m .. 2 km, log-uniform
                return Fence(centre: centre, radiusMillimetres: UInt32((radiusMetres * 1000).rounded()))
            }
        case .stops(let stops, let radiusMillimetres):
            return stops.prefix(count).map { Fence(centre: $0, radiusMillimetres: radiusMillimetres) }
        }
    }
}
