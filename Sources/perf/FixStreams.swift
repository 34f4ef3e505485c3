import Glibc
import GeofencingInputs

/// The three ways fixes arrive, which stress an index and the exact test very differently.
enum Workload: String, CaseIterable {
    /// A vehicle driving through the area at 1 Hz: each fix is 10-30 m from the last, so the index cells and fences
    /// it touches are the ones the previous fix touched (warm cache). This is the on-vehicle case.
    case drive
    /// Fixes uniform over the area: every query lands somewhere new (cold cache). The worst case, and what a
    /// server checking many unrelated devices sees.
    case random
    /// Probes next to the boundaries of random fences, cycling through r - 0.5 m, r + 0.5 m, r (1 - 1e-4) and
    /// r (1 + 1e-4) from the centre, each on a random bearing: the exact test decides every one of them, and the last
    /// two sit at the edge of the core's band (2 cm + 1e-4 r), where peers with another distance may disagree.
    case boundary

    /// The fix stream of this workload. Deterministic: the same arguments give the same fixes. Drive and random
    /// streams depend only on the area, so every fence count of a dataset shares them; boundary probes depend on the
    /// fences.
    func fixes(count: Int, over area: GeoArea, fences: [Fence], seedName: String) -> [Position] {
        var generator = SplitMix64(seedNamed: seedName)
        switch self {
        case .drive:
            var vehicle = DrivingVehicle(start: area.randomPoint(using: &generator), generator: &generator)
            return (0..<count).map { _ in vehicle.drive(oneSecondWithin: area, generator: &generator) }
        case .random:
            return (0..<count).map { _ in area.randomPoint(using: &generator) }
        case .boundary:
            return BoundaryProbe.probes(count: count, around: fences, generator: &generator).map(\.position)
        }
    }
}

/// A vehicle whose speed (10-30 m/s) and heading wander smoothly, and which bounces off the edges of the area like
/// a billiard ball so that a long drive stays inside the fences.
private struct DrivingVehicle {
    private static let metresPerDegreeOfLatitude = 6_371_008.8 * .pi / 180
    private static let speedRange = 10.0...30.0        // m/s: consecutive 1 Hz fixes are 10-30 m apart
    private static let largestTurnPerSecond = 0.08      // radians: about 4.6 degrees, a gentle curve
    private static let largestSpeedChangePerSecond = 1.5  // m/s

    private var latitude: Double
    private var longitude: Double
    private var heading: Double  // radians clockwise from north
    private var speed: Double    // m/s

    init(start: Position, generator: inout SplitMix64) {
        latitude = start.latitudeDegrees
        longitude = start.longitudeDegrees
        heading = generator.uniform(in: 0...2 * .pi)
        speed = generator.uniform(in: Self.speedRange.lowerBound...Self.speedRange.upperBound)
    }

    /// Moves one second along the current heading, bouncing off the area's edges, then lets heading and speed drift.
    mutating func drive(oneSecondWithin area: GeoArea, generator: inout SplitMix64) -> Position {
        var next = stepAlongHeading()
        let crossesNorthOrSouth = next.latitude < area.south || next.latitude > area.north
        let crossesEastOrWest = next.longitude < area.west || next.longitude > area.east
        if crossesNorthOrSouth { heading = .pi - heading }  // mirror the north-south component
        if crossesEastOrWest { heading = -heading }          // mirror the east-west component
        if crossesNorthOrSouth || crossesEastOrWest {
            // Leave along the mirrored heading from where we are, rather than folding the step back at the edge,
            // so that the fix spacing stays the speed (10-30 m) at a bounce too.
            next = stepAlongHeading()
        }
        (latitude, longitude) = next

        heading += generator.uniform(in: -Self.largestTurnPerSecond...Self.largestTurnPerSecond)
        speed += generator.uniform(in: -Self.largestSpeedChangePerSecond...Self.largestSpeedChangePerSecond)
        speed = min(max(speed, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        return Position(latitude: latitude, longitude: longitude)
    }

    /// Where one second at the current speed and heading leads. A flat-earth step is exact enough for 30 m: only the
    /// spacing of the fixes matters here, not geodesy.
    private func stepAlongHeading() -> (latitude: Double, longitude: Double) {
        let northMetres = speed * cos(heading)
        let eastMetres = speed * sin(heading)
        return (latitude + northMetres / Self.metresPerDegreeOfLatitude,
                longitude + eastMetres / (Self.metresPerDegreeOfLatitude * cos(latitude * .pi / 180)))
    }
}
