import Foundation
import Geofencing
import GeofencingEvents

/// Reads NMEA 0183 into observations, one per epoch: a pure parser that is fed bytes or lines and returns the
/// observations they complete. It never stops on bad input: bad lines are counted in `statistics` and skipped.
///
/// ```swift
/// var reader = NMEAReader(source: "drive.nmea")
/// for chunk in chunks { observations += reader.read(bytes: chunk) }
/// observations += reader.finish()
/// ```
///
/// - Sentences: RMC, GGA, GNS, GLL (position and fix status), GST and GSA (accuracy), VTG (speed and course) and ZDA (date),
///   from the talkers in `NMEAReaderConfiguration.talkers`, and a compass's HDG from any talker (gpsd makes the
///   course of a fix without one from it), with a valid checksum.
/// - Epochs: sentences with the same time of day (VTG, which has none, joins the epoch before it) form one epoch
///   and at most one observation, with what gpsd 3.22 reports for it: the merge of the epoch's sentences up to the
///   last one on which gpsd sends a TPV. gpsd learns where a receiver's cycle ends (`NMEACycleEnd` has the rule):
///   it reports on the types that came last before a change of time, or on an instrument bus that sends DBT on
///   nearly every sentence without a time, and a report goes out only from a sentence that gave gpsd data. The
///   sentences after an epoch's last report never reach gpsd's clients, and an epoch without any report yields no
///   observation (counted in `statistics.epochsWithoutReport`), so the replay of a log gives what the daemon
///   gives live. The observation is a fix when any reported sentence gives a valid position (RMC/GLL status A,
///   GGA quality above 0, GNS mode other than N), otherwise no fix. Position, speed, course and altitude come from
///   the last reported sentence that has them, as in gpsd; a fix without a speed gets the one gpsd derives from the
///   previous fix (`NMEADerivedSpeed`). `horizontalAccuracy` is the 95 % radius from GST's
///   latitude and longitude sigmas when the epoch has a GST, else gpsd's `eph`: HDOP × 19 m (4.75 m for DGPS
///   fixes) with the latest HDOP known at the epoch's first sentence with a valid position, else nil: the model
///   `HorizontalAccuracyEstimate` describes, which `GPSDSource` follows too. An epoch is complete when a sentence
///   with another time of day arrives, so a live stream's observations lag by one epoch.
/// - Dates: an epoch with an RMC or ZDA uses its date; RMC's two-digit year gets `century` (2000), as gpsd 3.22
///   does, not a pivot year. Undated epochs follow the last date, moving to the next day when the time of day
///   goes back more than 12 hours. Epochs before the first date are held (up to `maximumHeldEpochs`) and dropped
///   when it comes: gpsd learns the year from the same sentence and reported them without a time. A log without
///   any date starts on `referenceDate` (1970-01-01 by default), and so do held epochs that overflow the hold.
/// - Unlike gpsd, the reader does not move dates before 2017 forward by 1024 weeks: gpsd 3.22 does so to repair
///   receivers hit by the GPS week rollover, which turns every older recorded log into a date in 2027...2036.
///
/// Feed either bytes (`read(bytes:)`, which finds the line ends) or whole lines (`read(line:)`), not both.
public struct NMEAReader: Sendable {
    /// Names the input in the problems recorded in `statistics` (a path, "stdin", a device).
    public let source: String
    /// The choices the reader was made with.
    public let configuration: NMEAReaderConfiguration
    /// Counts of everything read so far.
    public private(set) var statistics = NMEAReadStatistics()

    private var splitter: LineSplitter
    private var dating: NMEAEpochDating
    private var current: NMEAEpoch?
    /// Where gpsd's reports fall: which sentences' content reaches the daemon.
    private var cycleEnd = NMEACycleEnd()
    /// Complete epochs waiting for a date: dropped when one comes, dated from the reference day when none does.
    private var held: [NMEAEpoch] = []
    private var datedFromReference = false
    private let referenceDay: Int
    /// The latest HDOP of any sentence (GGA, GNS, GSA), across epochs as in gpsd.
    private var hdopInForce: Double?
    /// The previous fix gpsd derives a missing speed from.
    private var derivedSpeed = NMEADerivedSpeed()

    public init(source: String = "NMEA", configuration: NMEAReaderConfiguration = NMEAReaderConfiguration()) {
        self.source = source
        self.configuration = configuration
        splitter = LineSplitter(maximumLength: configuration.maximumLineLength)
        dating = NMEAEpochDating(century: configuration.century)
        referenceDay = CivilCalendar.day(of: configuration.referenceDate)
    }

    /// Reads a chunk of a byte stream (any size, line ends anywhere) and returns the observations it completes.
    public mutating func read(bytes: some Sequence<UInt8>) -> [Observation] {
        var lines: [LineSplitter.Line] = []
        splitter.split(bytes, into: &lines)
        return read(lines)
    }

    /// Reads one line, without its line end, and returns the observations it completes.
    public mutating func read(line: some Collection<UInt8>) -> [Observation] {
        let tooLong = line.count > configuration.maximumLineLength
        return read([tooLong ? .overlong(byteCount: line.count) : .text(Array(line))])
    }

    /// Reads one line of text, without its line end.
    public mutating func read(line: String) -> [Observation] {
        read(line: Array(line.utf8))
    }

    /// Ends the input: reads a last line that had no line end, completes the last epoch and dates any held epochs
    /// by the reference date. The reader can be fed again afterwards, as a new log with the same dating state.
    public mutating func finish() -> [Observation] {
        var lines: [LineSplitter.Line] = []
        splitter.finish(into: &lines)
        var output = read(lines)
        if let epoch = current {
            complete(epoch, into: &output)
            current = nil
        }
        releaseHeldOnReferenceDay(into: &output)
        return output
    }

    private mutating func read(_ lines: [LineSplitter.Line]) -> [Observation] {
        var output: [Observation] = []
        for line in lines {
            statistics.lines += 1
            switch line {
            case .overlong(let count):
                statistics.malformedLines += 1
                record("line of \(count) bytes is longer than \(configuration.maximumLineLength)")
            case .text(let bytes):
                classify(NMEALine(bytes: bytes), into: &output)
            }
        }
        return output
    }

    private mutating func classify(_ line: NMEALine, into output: inout [Observation]) {
        switch line {
        case .ignored:
            statistics.ignoredLines += 1
        case .checksumMismatch(let reason):
            statistics.checksumFailures += 1
            record(reason)
        case .malformed(let reason):
            statistics.malformedLines += 1
            record(reason)
        case .sentence(let sentence):
            // gpsd sees every sentence, whatever the talker and whether the reader uses it; the report it sends
            // holds this sentence's content too.
            let decision = cycleEnd.take(sentence)
            defer { if decision.sendsReport { current?.markReported() } }
            // The epoch began before gpsd's cycle did (at a ZDA of its time, which registers none): what came in
            // between belongs to gpsd's previous cycle, and gpsd clears it now.
            if let time = decision.startsCycleAt, current?.timeOfDay == time { current?.gpsdStartsCycle() }
            guard configuration.talkers.contains(sentence.talker) || NMEAReport.readsFromAnyTalker(sentence.type) else {
                statistics.unsupportedSentences += 1
                return
            }
            do throws(NMEAFieldError) {
                guard let report = try NMEAReport.decode(sentence) else {
                    statistics.unsupportedSentences += 1
                    return
                }
                accept(report, into: &output)
            } catch {
                statistics.malformedLines += 1
                record("\(sentence.talker)\(sentence.type) \(error.message)")
            }
        }
    }

    private mutating func accept(_ report: NMEAReport, into output: inout [Observation]) {
        hdopInForce = report.hdop ?? hdopInForce
        if let timeOfDay = report.timeOfDay {
            if let epoch = current, epoch.timeOfDay != timeOfDay {
                complete(epoch, into: &output)
                current = nil
            }
            current = current ?? NMEAEpoch(timeOfDay: timeOfDay)
        } else if report.expectsTime || current == nil {
            statistics.untimedSentences += 1
            return
        }
        current?.merge(report, hdopInForce: hdopInForce)
        statistics.usedSentences += 1
    }

    private mutating func complete(_ epoch: NMEAEpoch, into output: inout [Observation]) {
        if let date = epoch.date, let day = dating.day(of: date, timeOfDay: epoch.timeOfDay) {
            datedFromReference = false
            dropHeld()
            emit(epoch, day: day, into: &output)
        } else if let day = dating.dayFollowingAnchor(timeOfDay: epoch.timeOfDay) {
            emit(epoch, day: day, into: &output)
        } else if epoch.reportsFixStatus {
            held.append(epoch)
            if held.count > configuration.maximumHeldEpochs { releaseHeldOnReferenceDay(into: &output) }
        } else if epoch.saysFixStatus {
            statistics.epochsWithoutReport += 1
        }
    }

    /// The first date has come: the held epochs before it are dropped. gpsd learns the year from the same sentence
    /// (RMC, ZDA), and it reported those epochs without a time, which no client can place.
    private mutating func dropHeld() {
        statistics.epochsWithoutReport += held.count
        held.removeAll()
    }

    /// The log gave no date in time: the first held epoch falls on the reference day and the rest follow it.
    private mutating func releaseHeldOnReferenceDay(into output: inout [Observation]) {
        guard let first = held.first else { return }
        dating.anchor(atDay: referenceDay, timeOfDay: first.timeOfDay)
        datedFromReference = true
        derivedSpeed.forget()
        let epochs = held
        held.removeAll()
        for epoch in epochs {
            if let day = dating.dayFollowingAnchor(timeOfDay: epoch.timeOfDay) { emit(epoch, day: day, into: &output) }
        }
    }

    private mutating func emit(_ epoch: NMEAEpoch, day: Int, into output: inout [Observation]) {
        let time = CivilCalendar.date(day: day, nanosecondsIntoDay: epoch.timeOfDay)
        // gpsd times the epochs the log dates, reported or not, and derives speeds from them; not those the
        // reader dates by its reference day. An epoch that said nothing of a fix (only GST, ZDA or VTG) leaves
        // the previous fix as it was.
        defer {
            if datedFromReference {
                derivedSpeed.forget()
            } else if epoch.saysFixStatus {
                derivedSpeed.epochEnded(at: time, finalCoordinate: epoch.finalCoordinate)
            }
        }
        guard epoch.reportsFixStatus else {
            if epoch.saysFixStatus { statistics.epochsWithoutReport += 1 }
            return
        }
        let observation = epoch.observation(at: time, derivedSpeed: derivedSpeed)
        if observation.fix != nil { statistics.fixes += 1 } else { statistics.noFixes += 1 }
        if datedFromReference { statistics.referenceDatedObservations += 1 }
        if CivilCalendar.isLeapSecond(nanosecondsIntoDay: epoch.timeOfDay) { statistics.leapSecondObservations += 1 }
        output.append(observation)
    }

    private mutating func record(_ reason: String) {
        guard statistics.problems.count < configuration.maximumRecordedProblems else { return }
        statistics.problems.append(TrackReadError(source: source, line: statistics.lines, message: reason))
    }
}
