// The simulator's entry point: a route, a speed profile and an error model in; a drive out.
import Foundation
import Geofencing

/// Simulates a vehicle driving a route with a GNSS receiver on board, for testing without going outside.
///
/// ```swift
/// let route = try SimulatedRoute(stops: [stopA, stopB, stopC], dwell: 20)
/// let drive = try DriveSimulator(route: route, profile: .bus, seed: 7).run()
/// for observation in drive.observations { monitor.process(observation) }
/// ```
///
/// Everything random comes from `seed` (SplitMix64, separate streams for the cruise speeds, outages, bias, noise,
/// outliers and velocity noise): the same settings and seed give the same drive, bit for bit, on every machine.
/// Sample times are `startTime` + k / `sampleRate` for k = 0, 1, ... up to the end of the last dwell, rounded to
/// whole milliseconds (the resolution of an NMEA time), and the truth is computed at exactly those instants.
public struct DriveSimulator: Sendable {
    /// The route to drive.
    public var route: SimulatedRoute
    /// How the vehicle accelerates, cruises and brakes.
    public var profile: SpeedProfile
    /// What the receiver gets wrong.
    public var errors: GNSSErrorModel
    /// Samples per second (> 0; receivers give 1, 5 or 10).
    public var sampleRate: Double
    /// GNSS time of the first sample (rounded to a millisecond).
    public var startTime: Date
    /// Seed of every random choice.
    public var seed: UInt64

    /// 2024-06-15T12:00:00Z: a fixed default start, so that a drive never depends on the wall clock.
    public static let defaultStartTime = Date(timeIntervalSince1970: 1_718_452_800)

    public init(
        route: SimulatedRoute, profile: SpeedProfile = .car, errors: GNSSErrorModel = .consumer,
        sampleRate: Double = 1, startTime: Date = DriveSimulator.defaultStartTime, seed: UInt64 = 1
    ) {
        self.route = route
        self.profile = profile
        self.errors = errors
        self.sampleRate = sampleRate
        self.startTime = startTime
        self.seed = seed
    }

    /// Stream numbers of the motion and outage draws (the error processes use 1 to 4).
    private enum Stream {
        static let cruiseSpeeds: UInt64 = 10, outages: UInt64 = 11
    }

    /// Runs the simulation.
    ///
    /// - Throws: `SimulationError.invalidParameter` for a speed profile, error model or sample rate out of range.
    public func run() throws -> SimulatedDrive {
        try profile.validate()
        try errors.validate()
        try SimulationError.check("sampleRate", sampleRate, "> 0 Hz") { $0 > 0 }

        var speedRandom = SplitMix64(seed: seed, stream: Stream.cruiseSpeeds)
        let plan = MotionPlan(route: route, profile: profile, random: &speedRandom)
        var outageRandom = SplitMix64(seed: seed, stream: Stream.outages)
        let outages = errors.outages.intervals(forDriveOf: plan.duration, random: &outageRandom)
        var process = GNSSErrorProcess(model: errors, seed: seed)

        let startMilliseconds = (startTime.timeIntervalSince1970 * 1000).rounded()
        let start = Self.date(milliseconds: startMilliseconds)
        var samples: [SimulatedSample] = []
        var index = 0.0
        while true {
            let milliseconds = (index * 1000 / sampleRate).rounded()
            let offset = milliseconds / 1000
            guard offset <= plan.duration else { break }
            let truth = plan.truth(
                on: route, atOffset: offset, date: Self.date(milliseconds: startMilliseconds + milliseconds))
            let error = process.positionError(at: offset)
            let velocityNoise = process.velocityNoise()
            let observation: Observation?
            if outages.contains(where: { $0.contains(offset) }) {
                observation = errors.outages.reporting == .noFix ? .noFix(truth.time) : nil
            } else {
                observation = .fix(report(truth: truth, error: error, velocityNoise: velocityNoise))
            }
            samples.append(SimulatedSample(truth: truth, error: error, observation: observation))
            index += 1
        }
        return SimulatedDrive(route: route, plan: plan, startTime: start, samples: samples, outages: outages)
    }

    /// The fix the receiver reports: the truth displaced by the error, the model's accuracy, and the true velocity
    /// plus noise (so at a standstill the course wanders, as a real receiver's does).
    private func report(truth: TrueState, error: PositionError, velocityNoise: EastNorthOffset) -> Fix {
        var speed = truth.speed, course = truth.course
        if errors.velocityNoiseSigma > 0 {
            let heading = SimulationMath.radians(truth.course)
            let east = truth.speed * sin(heading) + velocityNoise.east
            let north = truth.speed * cos(heading) + velocityNoise.north
            speed = (east * east + north * north).squareRoot()
            course = SimulationMath.normalizedCourse(SimulationMath.degrees(atan2(east, north)))
        }
        return Fix(
            coordinate: truth.coordinate.displaced(by: error.total), timestamp: truth.time,
            horizontalAccuracy: errors.reportedAccuracy, speed: speed, course: course)
    }

    /// The instant `milliseconds` after 1970 built from whole seconds plus the millisecond fraction, the way a
    /// log reader builds it from "hhmmss.sss", so the two agree bit for bit.
    private static func date(milliseconds: Double) -> Date {
        let whole = (milliseconds / 1000).rounded(.down)
        return Date(timeIntervalSince1970: whole + (milliseconds - whole * 1000) / 1000)
    }
}
