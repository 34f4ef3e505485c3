import Foundation

/// What the GNSS time guard of a `RegionMonitor` saw: observations whose time did not continue the time base,
/// and the changes of time base it adopted. Read with `RegionMonitor.timeStatistics`.
public struct GNSSTimeStatistics: Sendable, Hashable {
    /// Observations dropped because their time jumped forward by more than `MonitorConfiguration.outageTimeout`
    /// and the observations after them continued the old time (a bogus date: cold start, week rollover).
    public var forwardJumpsDropped = 0
    /// Observations dropped because their time went backwards and the observations after them continued the old
    /// time (a late or repeated sentence, a bogus date in the past).
    public var backwardStepsDropped = 0
    /// New time bases adopted: `MonitorConfiguration.timeBaseConfirmation` consecutive observations agreed on a
    /// time that jumped forward (a long outage, a log spliced to a later one) or back (a receiver whose clock was
    /// set, a log spliced to an earlier one). Their observations were all processed, in order.
    public var timeBasesAdopted = 0
    /// Of `timeBasesAdopted`, those that went backwards.
    public var backwardTimeBasesAdopted = 0
    /// Observations with the same time as the one before (processed: gpsd repeats an epoch after a restart).
    public var duplicateTimes = 0
    /// Observations held now, waiting for the observations after them to confirm or contradict their time.
    public var held = 0
    /// The first observation of each kind, with the time base's last time before it: for a log line that says
    /// what happened.
    public var firstForwardJump: GNSSTimeStep?
    public var firstBackwardStep: GNSSTimeStep?
    public var firstAdoption: GNSSTimeStep?

    public init() {}
}

/// An observation's time and the time base's last time before it.
public struct GNSSTimeStep: Sendable, Hashable {
    public var time: Date
    public var after: Date

    /// Seconds from `after` to `time` (negative: backwards).
    public var seconds: TimeInterval { time.timeIntervalSince(after) }
}

/// Decides, on GNSS time alone, which observations the monitor's rules see, so that one bogus time costs only its
/// own observation instead of blinding the monitor (the rules drop every observation older than the last one).
///
/// The time base is the time of the last observation let through. A next observation continues it when its time is
/// 0 ... `maximumStep` seconds later (`MonitorConfiguration.outageTimeout`, so that a silence the outage rule would
/// act on is confirmed first); it is let through at once. Any other observation (a jump forward beyond the bound, or any step back)
/// is held as the start of a candidate time base:
/// - an observation that continues the old time base drops the candidate (counted as a forward jump or a backward
///   step, per observation dropped) and is let through;
/// - one that continues the candidate (0 ... `maximumStep` after its newest) joins it; when `confirmations`
///   observations are held the candidate is adopted: they are let through in order, none lost;
/// - one that continues neither starts a new candidate in place of the held one (dropped, counted).
/// So an outage longer than `maximumStep` is acted on `confirmations - 1` observations late (with the events at
/// the observations' own times), and a bogus jump within `maximumStep` is taken as it comes: its own events carry
/// its time, and the observations after it then form a backward time base adopted after the confirmations.
/// The first observation sets the time base (there is nothing before it to contradict it). At most
/// `confirmations - 1` observations are held (`confirmations` is 1 ... 1,000), so memory is bounded and the work
/// per observation is constant, amortised over an adoption.
struct GNSSTimeGuard {
    /// What `admit` lets through for the rules: nothing, the observation it was given (`this`, the common case:
    /// no array, so no allocation per observation, and no copy of it either), or the held observations of an
    /// adopted time base, in order, with `step`: seconds from the old time base's last time to the first of them
    /// (negative: backwards).
    enum Admission {
        case none
        case this
        case adopted([Observation], step: TimeInterval)
    }

    /// The largest `confirmations` honoured: it bounds the observations held.
    static let maximumConfirmations = 1_000

    let maximumStep: TimeInterval
    let confirmations: Int
    private(set) var statistics = GNSSTimeStatistics()
    private var last: Date?
    private var held: [Observation] = []

    init(maximumStep: TimeInterval, confirmations: Int) {
        self.maximumStep = maximumStep.isNaN ? 0 : max(0, maximumStep)
        self.confirmations = min(max(1, confirmations), Self.maximumConfirmations)
        held.reserveCapacity(self.confirmations)
    }

    /// Inlined for the common case (the time continues the base, nothing held), with the rest out of line.
    @inline(__always)
    mutating func admit(_ observation: Observation) -> Admission {
        admitsAtOnce(observation.time) ? .this : admitOtherwise(observation)
    }

    /// `admit`'s common case alone: whether an observation at `time` continues the base with nothing held, and is
    /// then admitted (`.this`); false leaves everything as it was, for `admit` to decide.
    @inline(__always)
    mutating func admitsAtOnce(_ time: Date) -> Bool {
        guard let last, held.isEmpty, continues(last, time) else { return false }
        if time == last { statistics.duplicateTimes += 1 }
        self.last = time
        return true
    }

    /// `admit` when nothing may be held or the time may not continue the base: the first observation, a jump, a
    /// step back, a candidate time base.
    private mutating func admitOtherwise(_ observation: Observation) -> Admission {
        let time = observation.time
        guard let last else {
            self.last = time
            return .this
        }
        if continues(last, time) {
            if !held.isEmpty { dropHeld() }
            if time == last { statistics.duplicateTimes += 1 }
            self.last = time
            return .this
        }
        if let newest = held.last, continues(newest.time, time) {
            held.append(observation)
        } else {
            dropHeld()
            held = [observation]
        }
        guard held.count >= confirmations else {
            statistics.held = held.count
            return .none
        }
        let adopted = held
        let step = adopted[0].time.timeIntervalSince(last)
        statistics.timeBasesAdopted += 1
        if step < 0 { statistics.backwardTimeBasesAdopted += 1 }
        if statistics.firstAdoption == nil {
            statistics.firstAdoption = GNSSTimeStep(time: adopted[0].time, after: last)
        }
        held.removeAll(keepingCapacity: true)
        statistics.held = 0
        self.last = time
        return .adopted(adopted, step: step)
    }

    /// Whether `time` continues a time base whose last time is `base`.
    private func continues(_ base: Date, _ time: Date) -> Bool {
        let step = time.timeIntervalSince(base)
        return step >= 0 && step <= maximumStep
    }

    /// Drops the held candidate, counting each of its observations as a forward jump or a backward step.
    private mutating func dropHeld() {
        guard let first = held.first, let last else { return }
        if first.time > last {
            statistics.forwardJumpsDropped += held.count
            if statistics.firstForwardJump == nil {
                statistics.firstForwardJump = GNSSTimeStep(time: first.time, after: last)
            }
        } else {
            statistics.backwardStepsDropped += held.count
            if statistics.firstBackwardStep == nil {
                statistics.firstBackwardStep = GNSSTimeStep(time: first.time, after: last)
            }
        }
        held.removeAll(keepingCapacity: true)
        statistics.held = 0
    }
}
