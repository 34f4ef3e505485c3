import Glibc
import GeofencingInputs

/// One set of fences to benchmark, with the areas its fixes are drawn over.
struct Dataset {
    /// Where the fences come from.
    enum Source {
        /// Centres uniform over the area, radii log-uniform 20 m .. 2 km: every fence size from a bus stop to a
        /// small town is equally common per factor of size, as in real fence lists.
        case uniform(seed: UInt64)
        /// Centres around `cities` (Gaussian spread), radii as `uniform`: dense downtowns, empty country between.
        case clustered(seed: UInt64, cities: [City])
        /// Centres uniform over the area, radii log-uniform 10 m .. 50 km: big fences overlap heavily (about 460
        /// km^2 of fence per fence, so at 10^6 fences a fix lies in a few hundred of them).
        case mixedRadii(seed: UInt64)
        /// Real bus stops, each a fence of the same radius: dense clusters in the city, sparse elsewhere.
        case stops([Position], radiusMillimetres: UInt32)
    }

    /// "uniform", "clustered", "mixed-radii" or "seq-stops": the `dataset` field of the report.
    let name: String
    /// Where the random fixes fall (uniform over it) and where the fences are.
    let area: GeoArea
    /// Where the drive goes: the whole area, or for `clustered` the biggest city, where its fences are dense.
    let driveArea: GeoArea
    let fenceCounts: [Int]
    let source: Source

    /// The three generated datasets, in the order perf runs them: uniform with `uniformCounts` fences, the other two
    /// with `otherCounts`.
    static func generated(uniformCounts: [Int], otherCounts: [Int]) -> [Dataset] {
        [uniform(fenceCounts: uniformCounts), clustered(fenceCounts: otherCounts), mixedRadii(fenceCounts: otherCounts)]
    }

    /// The name of the dataset of real stops (`stops(_:named:)`), read from a file rather than generated.
    static let stopsName = "seq-stops"

    /// The generated datasets' names, in the order perf runs them.
    static let generatedNames = generated(uniformCounts: [], otherCounts: []).map(\.name)

    /// Every dataset's name, in the order perf runs them (`--datasets` chooses among them).
    static let names = generatedNames + [stopsName]

    static func uniform(fenceCounts: [Int]) -> Dataset {
        let seed: UInt64 = 0x6765_6F66_656E_6365  // "geofence" in ASCII
        return Dataset(name: "uniform", area: .country, driveArea: .country, fenceCounts: fenceCounts,
                       source: .uniform(seed: seed))
    }

    /// ~50 cities over the country; the drive circles the biggest one (3 spreads around its centre).
    static func clustered(fenceCounts: [Int]) -> Dataset {
        let cities = City.scatter(count: 50, over: .country, seed: 0x6369_7469_6573)  // "cities"
        let biggest = cities[0]
        return Dataset(name: "clustered", area: .country, driveArea: biggest.area(spreads: 3),
                       fenceCounts: fenceCounts, source: .clustered(seed: 0x636C_7573_7465_7264, cities: cities))
    }

    static func mixedRadii(fenceCounts: [Int]) -> Dataset {
        Dataset(name: "mixed-radii", area: .country, driveArea: .country, fenceCounts: fenceCounts,
                source: .mixedRadii(seed: 0x6D69_7865_6472_6164))  // "mixedrad"
    }

    /// Stops at 100 m, with fixes over the stops' own bounding box (so the drive goes through the clusters).
    static func stops(_ stops: [Position], named name: String) -> Dataset? {
        let points = stops.map { (latitude: $0.latitudeDegrees, longitude: $0.longitudeDegrees) }
        guard let area = GeoArea.boundingBox(of: points) else { return nil }
        return Dataset(name: name, area: area, driveArea: area, fenceCounts: [stops.count],
                       source: .stops(stops, radiusMillimetres: 100_000))
    }

    /// The first `count` fences of this dataset. Synthetic sets with the same seed are prefixes of each other, so
    /// 10^3 fences are the first thousand of the 10^6.
    func fences(count: Int) -> [Fence] {
        switch source {
        case .uniform(let seed):
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                Fence(centre: area.randomPoint(using: &generator),
                      radiusMillimetres: logUniformRadius(20...2_000, using: &generator))
            }
        case .clustered(let seed, let cities):
            var generator = SplitMix64(seed: seed)
            let picker = City.Picker(cities)
            return (0..<count).map { _ in
                let centre = picker.pick(using: &generator).randomPoint(using: &generator)
                return Fence(centre: centre, radiusMillimetres: logUniformRadius(20...2_000, using: &generator))
            }
        case .mixedRadii(let seed):
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                Fence(centre: area.randomPoint(using: &generator),
                      radiusMillimetres: logUniformRadius(10...50_000, using: &generator))
            }
        case .stops(let stops, let radiusMillimetres):
            return stops.prefix(count).map { Fence(centre: $0, radiusMillimetres: radiusMillimetres) }
        }
    }

    /// Where each workload's fixes are drawn: boundary probes go where the fences are, so they have no area.
    func fixArea(_ workload: Workload) -> GeoArea {
        workload == .drive ? driveArea : area
    }
}

/// A radius whose logarithm is uniform over `metres`, in whole millimetres.
private func logUniformRadius(_ metres: ClosedRange<Double>, using generator: inout SplitMix64) -> UInt32 {
    let radiusMetres = metres.lowerBound * pow(metres.upperBound / metres.lowerBound, generator.unit())
    return UInt32((radiusMetres * 1000).rounded())
}

/// A city of the clustered dataset: its fences fall around the centre with a Gaussian spread, and it gets a share of
/// them proportional to its weight.
struct City {
    let latitude: Double
    let longitude: Double
    /// Standard deviation of the fence centres' offset, north and east each, in metres.
    let spreadMetres: Double
    let weight: Double

    private static let metresPerDegreeOfLatitude = 6_371_008.8 * .pi / 180

    /// `count` cities uniform over `area` (kept a degree from its edges), with Zipf weights 1, 1/2, 1/3, ... (the
    /// first is the biggest) and spreads of 3 .. 20 km.
    static func scatter(count: Int, over area: GeoArea, seed: UInt64) -> [City] {
        var generator = SplitMix64(seed: seed)
        let inner = GeoArea(south: area.south + 1, north: area.north - 1, west: area.west + 1, east: area.east - 1)
        return (0..<count).map { rank in
            let centre = inner.randomPoint(using: &generator)
            return City(latitude: centre.latitudeDegrees, longitude: centre.longitudeDegrees,
                        spreadMetres: generator.uniform(in: 3_000...20_000), weight: 1 / Double(rank + 1))
        }
    }

    func randomPoint(using generator: inout SplitMix64) -> Position {
        let north = generator.gaussian() * spreadMetres
        let east = generator.gaussian() * spreadMetres
        let metresPerDegreeOfLongitude = Self.metresPerDegreeOfLatitude * cos(latitude * .pi / 180)
        return Position(latitude: latitude + north / Self.metresPerDegreeOfLatitude,
                        longitude: longitude + east / metresPerDegreeOfLongitude)
    }

    /// The box `spreads` standard deviations around the centre.
    func area(spreads: Double) -> GeoArea {
        let latitudeReach = spreads * spreadMetres / Self.metresPerDegreeOfLatitude
        let longitudeReach = latitudeReach / cos(latitude * .pi / 180)
        return GeoArea(south: latitude - latitudeReach, north: latitude + latitudeReach,
                       west: longitude - longitudeReach, east: longitude + longitudeReach)
    }

    /// Picks cities in proportion to their weights (binary search over the running sums).
    struct Picker {
        private let cities: [City]
        private let cumulative: [Double]

        init(_ cities: [City]) {
            self.cities = cities
            var sum = 0.0
            cumulative = cities.map { city in
                sum += city.weight
                return sum
            }
        }

        func pick(using generator: inout SplitMix64) -> City {
            let target = generator.unit() * (cumulative.last ?? 0)
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            return cities[low]
        }
    }
}
