import Glibc
import GeofencingInputs

/// A vehicle following a corridor's path at 10-30 m/s (1 Hz fixes), turning back at either end, with a lateral
/// offset that wanders like a GNSS error plus lane changes: a first-order autoregressive process with a 30 s
/// correlation time and a standard deviation of 0.8 half-widths, so the fixes cross the corridor's edge often (about
/// a fifth of them lie outside) and the exact test decides many of them.
enum CorridorDrive {
    private static let correlationSeconds = 30.0
    private static let offsetDeviationInHalfWidths = 0.8

    static func fixes(count: Int, along corridor: CorridorShape, generator: inout SplitMix64) -> [Position] {
        let path = corridor.path
        guard path.count >= 2 else { return [] }
        let deviation = offsetDeviationInHalfWidths * corridor.halfWidthMetres
        let keep = exp(-1 / correlationSeconds)
        let innovation = deviation * (1 - keep * keep).squareRoot()
        var segment = 0
        var along = 0.0          // metres from path[segment]
        var forward = true
        var lateral = generator.gaussian() * deviation
        var fixes: [Position] = []
        fixes.reserveCapacity(count)
        while fixes.count < count {
            var step = generator.uniform(in: 10...30)
            // Walk `step` metres along the path, segment by segment, turning back at the ends.
            while step > 0 {
                let length = segmentLength(path, segment)
                let room = forward ? length - along : along
                if step <= room {
                    along += forward ? step : -step
                    step = 0
                } else {
                    step -= room
                    if forward && segment + 1 < path.count - 1 {
                        (segment, along) = (segment + 1, 0)
                    } else if forward {
                        (forward, along) = (false, length)  // the path's end: turn back
                    } else if segment > 0 {
                        (segment, along) = (segment - 1, segmentLength(path, segment - 1))
                    } else {
                        (forward, along) = (true, 0)  // the path's start: turn back
                    }
                }
            }
            lateral = keep * lateral + innovation * generator.gaussian()
            fixes.append(point(path, segment, along: along, lateral: lateral))
        }
        return fixes
    }

    private static let metresPerDegreeOfLatitude = 6_371_008.8 * .pi / 180

    /// Segment `index`'s (north, east) extent in metres, flat-earth at its start (segments are tens of metres).
    private static func segmentMetres(_ path: [Position], _ index: Int) -> (north: Double, east: Double) {
        let start = path[index]
        let end = path[index + 1]
        let cosLatitude = cos(start.latitudeDegrees * .pi / 180)
        return ((end.latitudeDegrees - start.latitudeDegrees) * metresPerDegreeOfLatitude,
                (end.longitudeDegrees - start.longitudeDegrees) * metresPerDegreeOfLatitude * cosLatitude)
    }

    private static func segmentLength(_ path: [Position], _ index: Int) -> Double {
        let (north, east) = segmentMetres(path, index)
        return max((north * north + east * east).squareRoot(), 1e-3)
    }

    /// The point `along` metres into segment `index`, moved `lateral` metres to its right.
    private static func point(_ path: [Position], _ index: Int, along: Double, lateral: Double) -> Position {
        let (north, east) = segmentMetres(path, index)
        let length = segmentLength(path, index)
        let (unitNorth, unitEast) = (north / length, east / length)
        let start = path[index]
        return SyntheticShapes.offset(latitude: start.latitudeDegrees, longitude: start.longitudeDegrees,
                                      north: unitNorth * along - unitEast * lateral,
                                      east: unitEast * along + unitNorth * lateral)
    }
}
