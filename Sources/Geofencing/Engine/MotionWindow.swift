import Foundation

/// The vehicle's last few seconds of usable fixes, and the velocity and position they imply: what approach alarms
/// extrapolate. Fed only while some region has an approach alarm.
///
/// Velocity: when every fix in the window reports a speed and a course (gpsd's TPV, NMEA RMC/VTG, the simulator: the
/// receiver's Doppler velocity, σ about 0.05 ... 0.3 m/s per fix), a least-squares line through the reported
/// velocities over time, evaluated at the newest fix: no lag under constant acceleration, noise about 0.8 σ at 1 Hz.
/// Otherwise (GPX tracks, some NMEA logs) the Theil-Sen slope of the positions over time (the median of the slopes
/// between every two fixes, so that one outlier among five fixes changes nothing): the velocity at the middle of the
/// window, so under acceleration a it lags by about a × span / 2 (2.5 m/s for a bus pulling away), and its noise is
/// larger (about 1.1 σ_pos / 3.2 m/s per axis at 1 Hz over 5 s).
///
/// Position: the median, per axis, of where the newest five fixes put the vehicle now (each moved forward by the
/// velocity times its age), so that one outlier fix (a reflected signal, 15 ... 80 m off) neither fires nor delays an
/// alarm.
///
/// Steadiness: |sum of the velocity vectors| / sum of their lengths (or the same for the steps between positions),
/// 1 for a straight drive, about 1 / sqrt(n) for the random velocities of a receiver standing still. Moving means
/// at least the minimum speed with a steadiness of at least 0.9, at 3 consecutive fixes covering 2 s: what keeps
/// jitter at standstill from looking like an approach. (Without reported velocities, 8 m of uniform jitter around
/// a parked vehicle passes the speed and steadiness test at one fix in about 2,500; simulated, that fired a false
/// alarm in 6 % of 10-minute stands 30 m from a region, and none in 300 once 3 fixes in a row were required.)
struct MotionWindow {
    /// Seconds of fixes kept, counted back from the newest.
    static let span: Double = 5
    /// Most fixes kept (5 s at 10 Hz is 50); older ones are dropped first.
    static let capacity = 64
    /// Fewest fixes, and the shortest time they must cover, for an estimate.
    static let minimumCount = 3
    static let minimumCoverage: Double = 2
    /// Below this speed (m/s; 7.2 km/h) the vehicle counts as not moving: several times the velocity noise of a
    /// receiver standing still (Doppler: a few cm/s; position differences over 5 s in a city: about 0.6 m/s per axis).
    static let minimumSpeed: Double = 2
    /// Below this steadiness the course counts as not consistent (a 90 degree turn spread over the window gives 0.9).
    static let minimumSteadiness: Double = 0.9
    /// Consecutive moving fixes, and the time they must cover, before the vehicle counts as moving.
    static let movingRun = 3
    static let movingRunCoverage: Double = 2

    private struct Sample {
        var time: Date
        var coordinate: Coordinate
        /// Reported velocity east and north, m/s; nil when the fix lacks speed or (moving) course.
        var velocity: (east: Double, north: Double)?
    }

    private var samples: [Sample] = []
    /// The current run of fixes whose own estimate says moving: how many, and the time of the first.
    private var runCount = 0
    private var runStart: Date?

    init() {
        samples.reserveCapacity(Self.capacity)
    }

    /// Adds a usable fix and returns the motion it shows (see `estimate()`), with `isMoving` only after a run of
    /// moving fixes. A fix not newer than the newest one is ignored (the monitor already drops older ones; a
    /// repeated time would make the fit divide by zero) and returns nil.
    mutating func append(_ fix: Fix) -> MotionEstimate? {
        if let newest = samples.last, fix.timestamp <= newest.time { return nil }
        let oldest = fix.timestamp - Self.span
        var drop = 0
        while drop < samples.count, samples[drop].time < oldest { drop += 1 }
        if samples.count - drop >= Self.capacity { drop = samples.count - Self.capacity + 1 }
        if drop > 0 { samples.removeFirst(drop) }
        samples.append(Sample(time: fix.timestamp, coordinate: fix.coordinate, velocity: Self.velocity(of: fix)))
        guard var motion = estimate() else {
            runCount = 0
            runStart = nil
            return nil
        }
        if motion.isMoving {
            runCount += 1
            if runStart == nil { runStart = motion.time }
        } else {
            runCount = 0
            runStart = nil
        }
        let start = runStart ?? motion.time
        motion.isMoving = runCount >= Self.movingRun && motion.time.timeIntervalSince(start) >= Self.movingRunCoverage
        return motion
    }

    /// The motion at the newest fix, judged on this window alone, or nil with too few fixes (fewer than 3, or
    /// covering less than 2 s: after a start or an outage).
    private func estimate() -> MotionEstimate? {
        guard samples.count >= Self.minimumCount, let newest = samples.last,
              newest.time.timeIntervalSince(samples[0].time) >= Self.minimumCoverage else { return nil }
        let plane = LocalTangentPlane(latitude: newest.coordinate.latitude)
        let n = samples.count
        var t = [Double](repeating: 0, count: n), x = t, y = t
        for (i, sample) in samples.enumerated() {
            t[i] = sample.time.timeIntervalSince(newest.time)
            (x[i], y[i]) = plane.offset(of: sample.coordinate, from: newest.coordinate)
        }
        let east: Double, north: Double, steadiness: Double
        if samples.allSatisfy({ $0.velocity != nil }) {
            let ve = samples.map { $0.velocity!.east }, vn = samples.map { $0.velocity!.north }
            east = Self.lineValue(at: 0, times: t, values: ve)
            north = Self.lineValue(at: 0, times: t, values: vn)
            steadiness = Self.steadiness(east: ve, north: vn)
        } else {
            east = Self.medianSlope(times: t, values: x)
            north = Self.medianSlope(times: t, values: y)
            let stepsEast = (1..<n).map { x[$0] - x[$0 - 1] }, stepsNorth = (1..<n).map { y[$0] - y[$0 - 1] }
            steadiness = Self.steadiness(east: stepsEast, north: stepsNorth)
        }
        // Where the newest fixes put the vehicle now: each moved forward by the velocity times its age.
        let recent = max(0, n - 5)..<n
        let nowEast = Self.median(recent.map { x[$0] - east * t[$0] })
        let nowNorth = Self.median(recent.map { y[$0] - north * t[$0] })
        return MotionEstimate(
            time: newest.time, position: plane.coordinate(east: nowEast, north: nowNorth, from: newest.coordinate),
            east: east, north: north, steadiness: steadiness, interval: -t[0] / Double(n - 1),
            isMoving: (east * east + north * north).squareRoot() >= Self.minimumSpeed
                && steadiness >= Self.minimumSteadiness)
    }

    private static func velocity(of fix: Fix) -> (east: Double, north: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        if speed == 0 { return (0, 0) }
        guard let course = fix.course, course.isFinite else { return nil }
        let radians = course * .pi / 180
        return (speed * sin(radians), speed * cos(radians))
    }

    /// The least-squares line through (times, values), evaluated at `time`.
    private static func lineValue(at time: Double, times: [Double], values: [Double]) -> Double {
        let meanT = times.reduce(0, +) / Double(times.count), meanV = values.reduce(0, +) / Double(values.count)
        return meanV + slope(times: times, values: values) * (time - meanT)
    }

    /// The least-squares slope of values over times (times distinct, so the denominator is positive).
    private static func slope(times: [Double], values: [Double]) -> Double {
        let meanT = times.reduce(0, +) / Double(times.count), meanV = values.reduce(0, +) / Double(values.count)
        var sxy = 0.0, sxx = 0.0
        for i in times.indices {
            sxy += (times[i] - meanT) * (values[i] - meanV)
            sxx += (times[i] - meanT) * (times[i] - meanT)
        }
        return sxy / sxx
    }

    /// The median of the slopes between every two points (Theil-Sen; times distinct). O(n² log n): 1,225 pairs for
    /// the 50 fixes of 5 s at 10 Hz.
    private static func medianSlope(times: [Double], values: [Double]) -> Double {
        var slopes: [Double] = []
        slopes.reserveCapacity(times.count * (times.count - 1) / 2)
        for j in times.indices {
            for i in 0..<j { slopes.append((values[j] - values[i]) / (times[j] - times[i])) }
        }
        return median(slopes)
    }

    /// |sum of vectors| / sum of |vectors|: 1 when they all point the same way, 0 when they are all zero.
    private static func steadiness(east: [Double], north: [Double]) -> Double {
        var sumEast = 0.0, sumNorth = 0.0, sumLength = 0.0
        for i in east.indices {
            sumEast += east[i]
            sumNorth += north[i]
            sumLength += (east[i] * east[i] + north[i] * north[i]).squareRoot()
        }
        return sumLength > 0 ? (sumEast * sumEast + sumNorth * sumNorth).squareRoot() / sumLength : 0
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The vehicle's motion at one fix, as `MotionWindow` estimates it.
struct MotionEstimate {
    /// GNSS time of the newest fix.
    let time: Date
    /// Where the vehicle is at `time` (smoothed over the newest fixes).
    let position: Coordinate
    /// Velocity east and north, m/s.
    let east: Double
    let north: Double
    /// 0 ... 1; see `MotionWindow`.
    let steadiness: Double
    /// Mean seconds between the window's fixes.
    let interval: Double
    /// Fast enough and on a steady enough course, for long enough, for its straight line to mean something.
    var isMoving: Bool

    var speed: Double { (east * east + north * north).squareRoot() }
}

/// East and north metres around a point, with the WGS-84 radii of curvature at one latitude. Over the few hundred
/// metres of a motion window its distances differ from the geodesic by far less than the fixes' noise; over the
/// kilometres to a region's centre its directions are within a fraction of a degree (the meridians converge), which
/// is all an approach estimate takes from it.
struct LocalTangentPlane {
    let metresPerRadianNorth: Double
    let metresPerRadianEast: Double

    init(latitude: Double) {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        let phi = latitude * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        metresPerRadianNorth = a * (1 - e2) / (w * w * w)  // meridional radius of curvature
        metresPerRadianEast = a / w * cos(phi)  // prime vertical radius, on the parallel
    }

    /// East and north metres of `point` from `origin` (across the antimeridian the short way).
    func offset(of point: Coordinate, from origin: Coordinate) -> (east: Double, north: Double) {
        var dLon = point.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = (point.latitude - origin.latitude) * .pi / 180 * metresPerRadianNorth
        return (dLon * .pi / 180 * metresPerRadianEast, north)
    }

    /// The coordinate `east` and `north` metres from `origin`.
    func coordinate(east: Double, north: Double, from origin: Coordinate) -> Coordinate {
        var longitude = origin.longitude + east / metresPerRadianEast * 180 / .pi
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: origin.latitude + north / metresPerRadianNorth * 180 / .pi, longitude: longitude)
    }
}
