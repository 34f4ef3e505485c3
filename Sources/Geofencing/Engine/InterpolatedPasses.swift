import CGeofence
import Foundation

/// The passes between two fixes: enter and exit for a region the straight segment between two consecutive usable
/// fixes passes through while both fixes leave it outside.
extension MonitorEngine {
    /// Enter and exit for regions the straight segment between two usable fixes passes through while both fixes
    /// leave them outside. Candidates come from one query at the segment's end (the new fix) with its length (and a
    /// metre) as margin: every point of the segment lies within its length of the end, so a fence it passes through
    /// lies within that margin of the end. The query asks with a rounded-up margin (`segmentQueryMargin`) and drops
    /// the hits beyond the exact one, which are the same candidates. Asked at the fix, its hits are also the fix's
    /// own (`MonitorEngine.process`): their distances are the fix's.
    ///
    /// The length the rules use is the core's (`CoreFenceTable.distance`); a short segment's estimate
    /// (`estimatedLength`) stands in for it where it decides the same (`segmentLength`): the speed limit's test when
    /// it is clear by the estimate's error bound, and the margin (the estimate's upper bound: a few millimetres
    /// more candidates, which the exact test drops). The exact length is measured only for a query with candidates.
    /// Before the query, a bound from the fixes' points alone (`lengthBound`) stands in for it when it already shows
    /// the segment short enough: it asks a margin at least the rules' one, and the rules' own length and margin are
    /// worked out only when there are hits (most segments have none).
    ///
    /// The segment starts at `lastUsable`, which the caller has checked is there. Returns the segment query's hits
    /// (nil when the segment was too long or too short for one), for the fix's own use (`MonitorEngine.process`);
    /// they stay valid until the fence table's next query (the table reuses its buffer).
    mutating func interpolatePassesFromLastUsable(to end: (fix: Fix, point: gf_point),
                                                  accuracy: Double) -> UnsafeMutableBufferPointer<gf_hit>? {
        // The start's time and point alone on the way of most segments (no fence near): a copy of the whole fix
        // cost more than the rest of this function's own work.
        let duration = end.fix.timestamp.timeIntervalSince(lastUsable!.fix.timestamp)
        let reachable = duration * configuration.maximumInterpolationSpeed  // the longest segment interpolated
        guard duration > 0 else { return nil }
        var known: (exact: Double?, longest: Double)?  // `segmentLength`'s answer, once worked out
        let offsets = Self.boundOffsetsSquared(lastUsable!.point, end.point)
        let queryMargin: UInt32
        if Self.lengthBound(ofOffsetsSquared: offsets, isAtMost: min(reachable, Self.smallestSegmentLongest)) {
            // Most segments: within reach and short enough for the smallest margin, told without the bound's root.
            queryMargin = Self.smallestSegmentMargin
        } else {
            var queryLongest = Self.lengthBound(ofOffsetsSquared: offsets)  // at least `known.longest`
            if queryLongest > reachable {
                known = Self.segmentLength(from: lastUsable!, to: end, reachable: reachable)
                guard let known else { return nil }
                queryLongest = known.longest
            }
            queryMargin = Self.segmentQueryMargin(longest: queryLongest)
        }
        // Nothing below queries the main table again, so the hits stay valid.
        let hits = table.hits(at: end.point, marginMillimetres: queryMargin, following: .segments)
        // Most segments: no fence near.
        if !hits.isEmpty {
            passes(among: hits, known: known, duration: duration, reachable: reachable, from: lastUsable!, to: end,
                   accuracy: accuracy)
        }
        return hits
    }

    /// `interpolatePassesFromLastUsable` for a segment whose query found fences (`hits`), with what it knew of the
    /// segment's length (`known`, nil when only its bound), its duration and the longest segment interpolated
    /// (`reachable`).
    /// Out of line: the segment query's own work stays small.
    @inline(never)
    private mutating func passes(among hits: UnsafeMutableBufferPointer<gf_hit>,
                                 known: (exact: Double?, longest: Double)?, duration: Double, reachable: Double,
                                 from start: (fix: Fix, point: gf_point), to end: (fix: Fix, point: gf_point),
                                 accuracy: Double) {
        guard let known = known ?? Self.segmentLength(from: start, to: end, reachable: reachable) else { return }
        var exactLength = known.exact
        let margin = Self.marginMillimetres(longest: known.longest)
        let accuracyBoth = max(accuracy, start.fix.horizontalAccuracy ?? 0)
        var crossings: [(time: Date, slot: Int, kind: RegionEvent.Kind, fraction: Double, crossedAt: Date)] = []
        // A hit's distance does not depend on the margin asked (a polygon's is exact within either margin outside,
        // and negative inside), so the hits within `margin` are those of a query with `margin`.
        for hit in hits where Int64(hit.distance_mm) <= Int64(margin) {
            let slot = recordSlot(of: hit.handle)
            let record = regions.flags[slot]
            guard record.state == .outside else { continue }
            // Measured for the first candidate; a length out of bounds means no pass at all.
            let length = exactLength ?? CoreFenceTable.distance(start.point, end.point)
            exactLength = length
            guard length > 0, length <= reachable else { break }
            let depth = max(regions.hysteresis(slot), accuracyBoth)
            // The end fix must leave it outside too (otherwise this fix's ordinary enter rule speaks).
            let endDistance = distanceToDecide(end.point, slot, threshold: depth)
            guard endDistance > -depth,
                  let pass = pass(through: slot, depth: depth, from: start, to: end, length: length)
            else { continue }
            if !record.eventAtFix {
                regions.flags[slot].eventAtFix = true
                spoke.append(Int32(slot))
            }
            if approach.isActive { approach.entered(regionSlot: slot) }
            if record.notifyOnEntry {
                let time = start.fix.timestamp + pass.entry * duration
                crossings.append((time, slot, .enter, pass.entry, enterCrossing(of: slot) ?? time))
            }
            if record.notifyOnExit {
                let time = start.fix.timestamp + pass.exit * duration
                crossings.append((time, slot, .exit, pass.exit, time))
            }
        }
        // In the order the vehicle made them (the core returns hits in index order, and passes through overlapping
        // regions interleave); ties by slot, and a region's enter before its exit.
        if crossings.count > 1 {
            crossings.sort {
                ($0.time, $0.slot, $0.kind == .exit ? 1 : 0) < ($1.time, $1.slot, $1.kind == .exit ? 1 : 0)
            }
        }
        for crossing in crossings {
            let point = SegmentPass.point(at: crossing.fraction, from: start.fix.coordinate, to: end.fix.coordinate)
            emit(crossing.kind, crossing.slot, state: crossing.kind == .enter ? .inside : .outside,
                 time: crossing.time, at: point, distance: 0, interpolated: true, crossedAt: crossing.crossedAt)
        }
    }

    /// What the rules know of a segment's length before any candidate: its exact length when it had to be measured
    /// (nil otherwise), and an upper bound of it, `longest`; nil when the segment is too long for a pass (or has no
    /// length). Static, as the other helpers of this function: a method called from a mutating one made the compiler
    /// copy the engine for the call.
    static func segmentLength(from start: (fix: Fix, point: gf_point), to end: (fix: Fix, point: gf_point),
                              reachable: Double) -> (exact: Double?, longest: Double)? {
        var exactLength: Double?
        var longest: Double  // at least the length
        if let estimate = estimatedLength(from: start.fix.coordinate, to: end.fix.coordinate) {
            guard estimate > 0, estimate * (1 - estimateError) - estimateSlack <= reachable else { return nil }
            longest = estimate * (1 + estimateError) + estimateSlack
        } else {
            longest = CoreFenceTable.distance(start.point, end.point)
            exactLength = longest
        }
        if longest > reachable {
            let length = exactLength ?? CoreFenceTable.distance(start.point, end.point)
            guard length <= reachable else { return nil }
            exactLength = length
            longest = length
        }
        return (exactLength, longest)
    }

    /// How far east `b` lies from `a`, in 1e-7 degree, the shorter way round (-180 ... +180 degrees).
    @inline(__always)
    private static func eastOffset(from a: gf_point, to b: gf_point) -> Int64 {
        let span = 2 * Int64(GF_LON_MAX_E7)
        let east = Int64(b.lon) &- Int64(a.lon)
        return east > span / 2 ? east &- span : east < -span / 2 ? east &+ span : east
    }

    /// An upper bound in metres of the segment's length, and of every length the rules may take for it
    /// (`segmentLength`'s `longest`), from the fixes' points alone. On the ellipsoid
    /// ds^2 = M^2 dphi^2 + N^2 cos^2(phi) dlambda^2 <= R^2 (dphi^2 + c^2 dlambda^2), with R the largest radius of
    /// curvature (a^2/b = 6,399,593.6 m, at the poles) and c at least the cosine of every latitude between the
    /// fixes': so the straight line in degrees, and with it the geodesic, is at most R sqrt(dphi^2 + c^2 dlambda^2)
    /// long (dlambda the shorter way round), at any latitude and length. c: 1 - x^2/2 + x^4/24 >= cos x (the
    /// series' remainder, -cos(xi) x^6/720, is not positive for |x| <= pi/2), x the latitude nearer the equator, 0
    /// across it; within 0.1 % of the cosine up to 50 degrees, 6 % at 80. Each offset is taken 1e-7 degree longer,
    /// for the fixes' coordinates, which the points round to 1e-7 degree. On the mean radius with the estimate's
    /// factor and slack (`estimateError`, `estimateSlack`) it is at least `segmentLength`'s bound of the estimate
    /// (whose cosine, of the mean latitude, is at most c), and since R is within 0.45 % of the mean radius, at least
    /// the core's length (within 9 mm of the geodesic) too.
    @inline(__always)
    static func lengthBound(_ a: gf_point, _ b: gf_point) -> Double {
        lengthBound(ofOffsetsSquared: boundOffsetsSquared(a, b))
    }

    /// `lengthBound` before its square root: dphi^2 + c^2 dlambda^2 (above), in (1e-7 degree)^2.
    @inline(__always)
    static func boundOffsetsSquared(_ a: gf_point, _ b: gf_point) -> Double {
        // In doubles: the offsets (at most 3.6e9) and latitudes are exact in them.
        let north = (Double(b.lat) - Double(a.lat)).magnitude + 1
        let nearerEquator = (a.lat ^ b.lat) >= 0 ? min(Double(a.lat).magnitude, Double(b.lat).magnitude) : 0
        let x = nearerEquator * (radiansPerDegree / Double(GF_E7_PER_DEGREE))
        let xx = x * x
        let east = (Double(eastOffset(from: a, to: b)).magnitude + 1) * (1 - xx * 0.5 + xx * xx * (1.0 / 24))
        return north * north + east * east
    }

    /// `lengthBound` from `boundOffsetsSquared`.
    @inline(__always)
    static func lengthBound(ofOffsetsSquared offsets: Double) -> Double {
        offsets.squareRoot() * boundMetresPerE7 + estimateSlack
    }

    /// Whether `lengthBound(ofOffsetsSquared: offsets)` is at most `limit`, told from the squares, without the root
    /// (its latency sat on most fixes' way): true only where neither form's rounding can change the answer. The
    /// squared test keeps a relative 1e-9 to spare, far above the few units in the last place that either form
    /// rounds away, and a limit within twice the slack (or NaN) is never told this way, so that the spare 1e-9 of
    /// the limit less the slack stays above the rounding of the limit itself. False says nothing: ask the root.
    @inline(__always)
    static func lengthBound(ofOffsetsSquared offsets: Double, isAtMost limit: Double) -> Bool {
        let room = limit - estimateSlack
        return limit > 2 * estimateSlack
            && offsets * (boundMetresPerE7 * boundMetresPerE7) <= room * room * (1 - 1e-9)
    }

    /// The mean radius times the estimate's factor, in metres per 1e-7 degree: one constant the compiler folds, so
    /// that the bound multiplies once where dividing and multiplying in turn kept two divisions on every fix (the
    /// rounding of the folded product is 1e-16 relative, against the centimetres of slack the bound has).
    private static var boundMetresPerE7: Double {
        6_371_008.8 * radiansPerDegree / Double(GF_E7_PER_DEGREE) * (1 + estimateError)
    }

    /// The margin in millimetres within which a fence can be passed by a segment at most `longest` metres long,
    /// around its end: its length and a metre.
    static func marginMillimetres(longest: Double) -> UInt32 {
        UInt32(min(Double(GF_MARGIN_MAX_MM), (longest + 1) * 1000))
    }

    /// The margin the segment's query asks with when it needs `needed` mm: the least power of two of millimetres at
    /// least that and at least 2^15 (32.8 m: a segment up to about 31 m, a 1 Hz fix at 110 km/h). The core's cursor
    /// keeps what it remembers of an area only for the margin it was asked with: a margin that followed the
    /// segment's length changed at almost every fix and made the cursor gather its area afresh each time (several
    /// times the cost of the query it saves), while a rounded one stays the same over a drive. The few more hits
    /// it returns are dropped by their distance.
    static func segmentQueryMargin(covering needed: UInt32) -> UInt32 {
        let powerOfTwo = UInt64(1) << (64 - (UInt64(max(needed, 1)) - 1).leadingZeroBitCount)  // the least >= needed
        let margin = max(UInt64(smallestSegmentMargin), powerOfTwo)
        return margin <= UInt64(GF_MARGIN_MAX_MM) ? UInt32(margin) : needed
    }

    /// `segmentQueryMargin(covering: marginMillimetres(longest: longest))`, with the common case first: a segment
    /// up to `smallestSegmentMargin` less a metre long (every 1 Hz fix below 110 km/h) asks that margin, decided by
    /// one comparison (the conversions and the power of two are most of the rest of a quiet segment's own work).
    @inline(__always)
    static func segmentQueryMargin(longest: Double) -> UInt32 {
        // (longest + 1) * 1000 is then at most 2^15 (to rounding, which the conversion's truncation absorbs).
        longest <= smallestSegmentLongest
            ? smallestSegmentMargin : segmentQueryMargin(covering: marginMillimetres(longest: longest))
    }

    /// The smallest margin a segment's query asks with, in millimetres.
    static var smallestSegmentMargin: UInt32 { 1 << 15 }

    /// The longest segment that asks `smallestSegmentMargin`, in metres (that margin less a metre).
    static var smallestSegmentLongest: Double { Double(smallestSegmentMargin) / 1000 - 1 }

    /// Relative error bound of `estimatedLength` against the core's geodesic distance: the sphere of mean radius
    /// against the ellipsoid's radii of curvature (-0.56 % ... +0.45 %), and the flat approximation over at most
    /// 0.1 degree below 80 degrees latitude (under 0.01 %), with room to spare; and in metres, the core's own error
    /// (at most 9 mm) and its rounding to the millimetre.
    static let estimateError = 0.01
    static let estimateSlack = 0.01

    /// The length of a short segment on the sphere of mean radius, flat (equirectangular at the mean latitude):
    /// within `estimateError` of the core's distance; nil for a segment longer than 0.1 degree either way or
    /// reaching beyond 80 degrees latitude, where it would not be.
    static func estimatedLength(from start: Coordinate, to end: Coordinate) -> Double? {
        guard let (dLat, dLon, meanLatitude) = flatOffsets(from: start, to: end) else { return nil }
        let east = dLon * cos(meanLatitude)
        return 6_371_008.8 * radiansPerDegree * (east * east + dLat * dLat).squareRoot()
    }

    /// The degrees north and east from `start` to `end` (east the short way round) and their mean latitude in
    /// radians; nil for a segment longer than 0.1 degree either way or reaching beyond 80 degrees latitude.
    private static func flatOffsets(from start: Coordinate, to end: Coordinate)
        -> (dLat: Double, dLon: Double, meanLatitude: Double)?
    {
        var dLon = end.longitude - start.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dLat = end.latitude - start.latitude
        guard abs(dLat) <= 0.1, abs(dLon) <= 0.1, abs(start.latitude) <= 80, abs(end.latitude) <= 80 else {
            return nil
        }
        return (dLat, dLon, (start.latitude + end.latitude) / 2 * radiansPerDegree)
    }

    private static var radiansPerDegree: Double { .pi / 180 }

    /// When the vehicle entered a region whose pass begins at a fix already inside it (beyond the boundary, not
    /// deep enough for an enter): the crossing at the start of that stretch, which the region's `BoundaryWatch`
    /// found (the pass's entry is clamped to that fix, which can be many seconds after the vehicle crossed). Nil
    /// when the start fix was outside: the pass's own entry is the crossing.
    ///
    /// The exit of such a pass has no better estimate: when the end fix is still inside, the vehicle has not left
    /// yet, and its crossing lies after the event.
    private func enterCrossing(of slot: Int) -> Date? {
        guard let watch = boundaryWatches[Int32(slot)] else { return nil }
        return watch.lastFix != 0 && watch.lastFix == fixNumber - 1 ? watch.since : nil
    }

    /// Where the segment between two fixes passes through a region at least `depth` inside: a circle's in closed
    /// form, a polygon's or corridor's by stepping along the segment with the core's distances.
    private func pass(through slot: Int, depth: Double, from start: (fix: Fix, point: gf_point),
                      to end: (fix: Fix, point: gf_point), length: Double) -> SegmentPass? {
        if let (center, radius) = regions.circle(slot) {
            return SegmentPass.through(
                center: center, radius: radius, depth: depth, from: start.fix.coordinate, to: end.fix.coordinate)
        }
        let limit = length + depth + 1
        let handle = regions.handles[slot]
        return SegmentPass.through(length: length, depth: depth) { u in
            let coordinate = SegmentPass.point(at: u, from: start.fix.coordinate, to: end.fix.coordinate)
            guard let point = CoreFenceTable.point(coordinate) else { return .infinity }
            return table.distance(from: point, to: handle, limit: limit)
        }
    }
}
