// Test support: hand-made vehicle tracks (straight drives, parked stretches, gaps, jitter) as GNSS fixes.
import Foundation
import Geofencing
import GeofencingTestSupport
import GeofencingInputs

/// Builds a list of fixes by moving a cursor (a position in a `LocalPlane` and a GNSS time) around.
///
/// Every fix time derives from `TrackBuilder.epoch`, never from the wall clock: the monitor must judge by fix
/// timestamps only, and the tests compare event times with the fix times they built.
///
/// ```swift
/// var track = TrackBuilder(origin: centre, east: 0, north: -300)   // 300 m south of the centre
/// track.fix()                                                         // one fix where the cursor is
/// track.drive(bearing: 0, speed: 12, count: 50)                       // 50 fixes, 1 s apart, heading north
/// track.gap(seconds: 90)                                              // time passes, no fixes
/// ```
struct TrackBuilder {
    /// A fixed GNSS time (2023-11-14 22:13:20 UTC) at which tracks start unless told otherwise.
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    let plane: LocalPlane
    private(set) var fixes: [Fix] = []
    /// Metres east and north of the plane's origin where the vehicle truly is (fixes add jitter to this).
    private(set) var east: Double
    private(set) var north: Double
    /// GNSS time of the cursor: the time of the last fix built, or the start time before any.
    private(set) var time: Date
    /// Seconds between consecutive fixes of `park` and `drive`.
    var interval: Double = 1
    /// Horizontal accuracy given to the fixes built from now on (nil: the receiver does not say).
    var accuracy: Double?
    /// Radius of the disc in which each fix is scattered around the true position (0: no jitter).
    var jitter: Double = 0
    private var random: SplitMix64

    init(origin: Coordinate, east: Double = 0, north: Double = 0, startTime: Date = TrackBuilder.epoch,
         seed: UInt64 = 0x5EED) {
        self.plane = LocalPlane(origin: origin)
        self.east = east
        self.north = north
        self.time = startTime
        self.random = SplitMix64(seed: seed)
    }

    /// Records one fix at the cursor (with the current jitter and accuracy); time does not advance.
    mutating func fix() {
        var (e, n) = (east, north)
        if jitter > 0 {
            let (de, dn) = random.pointInDisc(radius: jitter)
            e += de
            n += dn
        }
        let coordinate = plane.coordinate(east: e, north: n)
        fixes.append(Fix(coordinate: coordinate, timestamp: time, horizontalAccuracy: accuracy))
    }

    /// `count` fixes at the current position, one `interval` apart, the first one `interval` after the cursor.
    mutating func park(count: Int) {
        for _ in 0..<count {
            time += interval
            fix()
        }
    }

    /// `count` fixes moving at `speed` m/s along `bearing` (degrees clockwise from north), one `interval` apart; the
    /// first is one step from the cursor.
    mutating func drive(bearing: Double, speed: Double, count: Int) {
        let step = speed * interval
        let radians = bearing * .pi / 180
        for _ in 0..<count {
            east += step * sin(radians)
            north += step * cos(radians)
            time += interval
            fix()
        }
    }

    /// Lets `seconds` pass without any fix (an outage, a tunnel), optionally arriving somewhere else.
    mutating func gap(seconds: Double, toEast: Double? = nil, north toNorth: Double? = nil) {
        time += seconds
        if let toEast { east = toEast }
        if let toNorth { north = toNorth }
    }

    /// Puts the vehicle somewhere without building a fix or letting time pass.
    mutating func move(toEast: Double, north toNorth: Double) {
        east = toEast
        north = toNorth
    }
}
