import Foundation

/// The path a vehicle is taken to have driven between two consecutive usable fixes, with its time: where it was at
/// the fraction `u` (0 ... 1) of the time between them. `BoundaryCrossing` searches along it for `crossedAt`.
///
/// When both fixes carry a speed and a course, a cubic Hermite curve in the tangent plane at the start fix: it
/// leaves the start fix with the start's velocity and reaches the end fix with the end's, so it follows a bend of the
/// road between fixes far apart, and its time runs with the speeds (a vehicle that brakes covers most of the way
/// early, one that starts from standstill late). Otherwise, or when the curve is implausible, the straight segment
/// (linear in degrees, as `SegmentPass.point`) with the time spread evenly along it.
///
/// The curve is taken only when:
/// - the fixes are at most `maximumCurveGap` apart: a cubic bends through one turn, and over a longer gap the road
///   may have several (an inferred crossing across an outage always uses the segment);
/// - its length is within a factor of 2 of what the two speeds say (their mean times the gap): a course or speed
///   that disagrees with the positions (a receiver's glitch, a U-turn between the fixes) makes a loop or a detour,
///   and a vehicle standing still with jittering fixes (both speeds near 0) gets the segment. The factor is loose on
///   purpose: a stop-and-go between the fixes is legitimately short of the speeds' mean.
///
/// Below `standstillSpeed` a fix's course is noise (the receiver's position jitter sets it); its velocity is taken
/// as zero, which is what its speed says, and the curve is still used.
///
/// The plane: at u = 1 the curve gives the end fix back to rounding (the plane's scale cancels); in between, the
/// start fix's radii of curvature distort the curve's shape by less than 1e-3 of its size over the couple of
/// kilometres a 30 s gap covers at highway speed, far below what the curve's own guess of the path is off by.
struct CrossingPath {
    /// Fixes further apart in time get the straight segment.
    static let maximumCurveGap: TimeInterval = 30
    /// Metres per second below which a fix's course is not used (its velocity counts as zero).
    static let standstillSpeed = 1.0
    /// The curve's length may differ from the speeds' mean times the gap by this factor either way.
    static let lengthTolerance = 2.0

    private let start: Coordinate
    private let end: Coordinate
    /// The curve in the start fix's tangent plane: metres per degree there, the end fix's offset, and each end's
    /// velocity times the gap (the Hermite tangents, in metres per unit of `u`). Nil: the straight segment.
    private let curve: Curve?

    private struct Curve {
        var metresPerDegreeNorth: Double
        var metresPerDegreeEast: Double
        var endEast: Double
        var endNorth: Double
        var startTangent: (east: Double, north: Double)
        var endTangent: (east: Double, north: Double)

        /// East and north metres from the start fix at `u`.
        func offset(at u: Double) -> (east: Double, north: Double) {
            let u2 = u * u, u3 = u2 * u
            let toEnd = 3 * u2 - 2 * u3, fromStart = u3 - 2 * u2 + u, intoEnd = u3 - u2
            return (fromStart * startTangent.east + toEnd * endEast + intoEnd * endTangent.east,
                    fromStart * startTangent.north + toEnd * endNorth + intoEnd * endTangent.north)
        }
    }

    /// Whether the path is the Hermite curve (false: the straight segment).
    var isCurved: Bool { curve != nil }

    init(from first: Fix, to second: Fix) {
        start = first.coordinate
        end = second.coordinate
        curve = Self.curve(from: first, to: second)
    }

    /// Where the vehicle was at the fraction `u` of the time from the first fix to the second.
    func coordinate(at u: Double) -> Coordinate {
        guard let curve else { return SegmentPass.point(at: u, from: start, to: end) }
        let (east, north) = curve.offset(at: u)
        var longitude = start.longitude + east / curve.metresPerDegreeEast
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: start.latitude + north / curve.metresPerDegreeNorth, longitude: longitude)
    }

    private static func curve(from first: Fix, to second: Fix) -> Curve? {
        let gap = second.timestamp.timeIntervalSince(first.timestamp)
        guard gap > 0, gap <= maximumCurveGap, let startSpeed = first.speed, let endSpeed = second.speed,
              let startVelocity = velocity(of: first), let endVelocity = velocity(of: second) else { return nil }
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        let phi = first.coordinate.latitude * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let metresPerDegreeNorth = a * (1 - e2) / (w * w * w) * .pi / 180
        let metresPerDegreeEast = a / w * cos(phi) * .pi / 180
        guard metresPerDegreeEast > 0 else { return nil }
        var dLon = second.coordinate.longitude - first.coordinate.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let curve = Curve(
            metresPerDegreeNorth: metresPerDegreeNorth, metresPerDegreeEast: metresPerDegreeEast,
            endEast: dLon * metresPerDegreeEast,
            endNorth: (second.coordinate.latitude - first.coordinate.latitude) * metresPerDegreeNorth,
            startTangent: (startVelocity.east * gap, startVelocity.north * gap),
            endTangent: (endVelocity.east * gap, endVelocity.north * gap))
        // The curve's length from 16 chords (short of the true length by well under 1 % for a curve this smooth).
        var length = 0.0, previous = (east: 0.0, north: 0.0)
        for step in 1...16 {
            let next = curve.offset(at: Double(step) / 16)
            length += ((next.east - previous.east) * (next.east - previous.east)
                + (next.north - previous.north) * (next.north - previous.north)).squareRoot()
            previous = next
        }
        let speedsLength = (startSpeed + endSpeed) / 2 * gap
        guard length.isFinite, length <= lengthTolerance * speedsLength, length >= speedsLength / lengthTolerance
        else { return nil }
        return curve
    }

    /// A fix's velocity in metres per second east and north; zero below `standstillSpeed`; nil without a usable
    /// speed and course.
    private static func velocity(of fix: Fix) -> (east: Double, north: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        if speed < standstillSpeed { return (0, 0) }
        guard let course = fix.course, course.isFinite else { return nil }
        let radians = course * .pi / 180
        return (speed * sin(radians), speed * cos(radians))
    }
}
