import Foundation
import Geofencing
import Synchronization

/// The third engine: the whole Swift path of `RegionMonitor.process(_:)` (the core's queries, the per-region states
/// and rules, the events), over the same fences and fix streams as the core. No delegate and no event stream is
/// attached while timing, so delivering an event costs only the monitor's own enqueue and drain bookkeeping.
///
/// Each fence is a `Region` "f<index>" with the fence's centre and radius; each fix a `Fix` with horizontal
/// accuracy 5 m and a deterministic GNSS timestamp (1.2e9 s after 1970 for the first fix, then `secondsPerFix` after
/// the previous one). One monitor serves every workload of a fence count, so its clock runs on across them; between
/// two passes over a stream it pauses `pauseBetweenPasses` (see there).
final class MonitorBench {
    static let firstTimestamp = 1.2e9
    static let horizontalAccuracy = 5.0
    /// Seconds of GNSS time added before each pass over a stream: the jump from the last fix of one pass to the
    /// first of the next is a vehicle reappearing elsewhere, not a drive. 30 s is longer than the default
    /// `maximumInterpolationGap` (10 s), so the jump is not interpolated as a pass through the fences between, and
    /// shorter than the default `outageTimeout` (60 s), so no state becomes unknown.
    static let pauseBetweenPasses = 30.0

    /// GNSS seconds between two fixes of a workload's stream. The drive is a 1 Hz receiver. Random fixes (and
    /// boundary probes, which jump from fence to fence just the same) are
    /// hundreds of kilometres apart: 1 s apart, every pair would be a "fast pass" within `maximumInterpolationGap`,
    /// and each fix would pay a sparse-pass query at the core's largest margin (50 km), which measures a teleporting
    /// receiver rather than the monitor. 30 s apart (beyond the gap, within `outageTimeout`) each random fix is judged
    /// on its own, like the core's random query: a cold-cache fix anywhere.
    static func secondsPerFix(_ workload: Workload) -> Double {
        switch workload {
        case .drive: 1
        case .random, .boundary: 30
        }
    }

    let monitor: RegionMonitor
    /// Time and heap bytes of creating the monitor and starting every region (its core table included).
    let buildCost: BuildCost
    /// Whether the monitor has seen a fix yet: the first one determines every region.
    private(set) var hasSeenFix = false
    /// Seconds after `firstTimestamp` of the next fix.
    private var clock = 0.0
    /// Seconds from one fix to the next, set for each stream.
    var secondsPerFix = 1.0
    private let probe = SequenceProbe()
    private var probeEvents = 0
    private let probeRegion: Region

    init(fences: [Fence]) throws(RegionMonitorError) {
        var configuration = MonitorConfiguration()
        configuration.capacity = max(fences.count, 1)  // as the core engine's table
        let (monitor, cost) = try measureBuild { () throws(RegionMonitorError) -> RegionMonitor in
            let monitor = try RegionMonitor(configuration: configuration)
            for index in fences.indices {
                try monitor.startMonitoringOrThrow(for: Self.region(fences[index], index: index))
            }
            return monitor
        }
        self.monitor = monitor
        buildCost = cost
        probeRegion = Self.region(fences[0], index: 0)
    }

    private static func region(_ fence: Fence, index: Int) -> Region {
        Region(center: Coordinate(latitude: fence.centre.latitudeDegrees,
                                          longitude: fence.centre.longitudeDegrees),
                       radius: fence.radiusMetres, identifier: "f\(index)")
    }

    /// Feeds one fix, `secondsPerFix` after the previous one. This is the call the benchmark times.
    @inline(__always)
    func process(_ position: Position) {
        monitor.process(Fix(
            coordinate: Coordinate(latitude: position.latitudeDegrees, longitude: position.longitudeDegrees),
            timestamp: Date(timeIntervalSince1970: Self.firstTimestamp + clock),
            horizontalAccuracy: Self.horizontalAccuracy))
        clock += secondsPerFix
    }

    func pause() {
        clock += Self.pauseBetweenPasses
    }

    /// Region events (enter, exit, dwell, determined) the monitor has produced so far, counted without a delegate
    /// or stream attached while the fixes run: events are numbered without gaps, so the next sequence number tells
    /// how many there were. Reading it costs one event itself (a `requestState` answer, seen by a delegate attached
    /// only for that call), which is left out of the count. Needs a fix processed before.
    func eventsSoFar() -> Int {
        precondition(hasSeenFix, "requestState before any fix is answered only after the next one")
        monitor.delegate = probe
        monitor.requestState(for: probeRegion)
        monitor.delegate = nil
        guard let sequence = probe.lastDetermined.withLock({ $0 }) else {
            preconditionFailure("requestState(for:) after a usable fix was not answered at once")
        }
        probeEvents += 1
        return Int(sequence + 1 - monitor.configuration.firstSequence) - probeEvents
    }

    /// What the first fix of the monitor costs: every region is undetermined until then, so that fix determines
    /// all of them (one determined event each).
    struct FirstFix {
        let nanoseconds: Int
        let events: Int
        let allocations: UInt64
        /// Heap bytes still held after it (the event buffers keep the capacity of this burst of events).
        let heapBytesKept: Int
    }

    func processFirstFix(_ position: Position) -> FirstFix {
        precondition(!hasSeenFix)
        let heapBefore = HeapUsage.bytesInUse()
        let allocationsBefore = AllocationCounter.count
        let begin = monotonicNanoseconds()
        process(position)
        let end = monotonicNanoseconds()
        let allocationsAfter = AllocationCounter.count
        let heapAfter = HeapUsage.bytesInUse()
        hasSeenFix = true
        let events = eventsSoFar()
        return FirstFix(nanoseconds: end - begin, events: events, allocations: allocationsAfter &- allocationsBefore,
                        heapBytesKept: heapAfter - heapBefore)
    }

    /// The timed passes over a stream, in batches as the core's: per-fix times, region events over the first pass,
    /// and the allocator calls per fix of each batch (read outside the timed interval).
    struct TimedPasses {
        var timings: BatchTimings
        var events = 0
        var allocationsPerFixByBatch: [Double] = []
    }

    func timePasses(_ fixes: [Position], repetitions: Int, batchSize: Int) -> TimedPasses {
        var passes = TimedPasses(timings: BatchTimings(fixCount: fixes.count, batchSize: batchSize,
                                                       repetitions: repetitions))
        passes.allocationsPerFixByBatch.reserveCapacity(repetitions * ((fixes.count + batchSize - 1) / batchSize))
        for repetition in 0..<repetitions {
            pause()
            let eventsBefore = repetition == 0 ? eventsSoFar() : 0
            for start in stride(from: 0, to: fixes.count, by: batchSize) {
                let batch = start..<min(start + batchSize, fixes.count)
                let allocationsBefore = AllocationCounter.count
                let begin = monotonicNanoseconds()
                for index in batch {
                    process(fixes[index])
                }
                let end = monotonicNanoseconds()
                let allocations = AllocationCounter.count &- allocationsBefore
                passes.timings.record(nanoseconds: end - begin, fixes: batch.count)
                passes.allocationsPerFixByBatch.append(Double(allocations) / Double(batch.count))
            }
            if repetition == 0 { passes.events = eventsSoFar() - eventsBefore }
        }
        return passes
    }

    /// Allocator calls of fixes that caused no event and of fixes that did, from one untimed pass with a counting
    /// delegate attached (a delegate that only counts allocates nothing; the events are found by it).
    struct AllocationSplit {
        var fixesWithoutEvents = 0
        var allocationsWithoutEvents: UInt64 = 0
        var fixesWithEvents = 0
        var allocationsWithEvents: UInt64 = 0
        var events = 0
    }

    func splitAllocations(_ fixes: [Position]) -> AllocationSplit {
        let counter = EventCounter()
        monitor.delegate = counter
        defer { monitor.delegate = nil }
        var split = AllocationSplit()
        pause()
        for fix in fixes {
            let eventsBefore = counter.count.withLock { $0 }
            let allocationsBefore = AllocationCounter.count
            process(fix)
            let allocations = AllocationCounter.count &- allocationsBefore
            let events = counter.count.withLock { $0 } - eventsBefore
            split.events += events
            if events == 0 {
                split.fixesWithoutEvents += 1
                split.allocationsWithoutEvents += allocations
            } else {
                split.fixesWithEvents += 1
                split.allocationsWithEvents += allocations
            }
        }
        return split
    }
}

/// Remembers the sequence number of the last determined event: `MonitorBench.eventsSoFar()`'s delegate.
private final class SequenceProbe: RegionMonitorDelegate {
    let lastDetermined = Mutex<UInt64?>(nil)

    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
        lastDetermined.withLock { $0 = event.sequence }
    }
}

/// Counts region events (enter, exit, dwell, determined).
private final class EventCounter: RegionMonitorDelegate {
    let count = Mutex(0)

    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {
        count.withLock { $0 += 1 }
    }

    func regionMonitor(_ monitor: RegionMonitor, didExitRegion region: Region, event: RegionEvent) {
        count.withLock { $0 += 1 }
    }

    func regionMonitor(_ monitor: RegionMonitor, didDwellIn region: Region, event: RegionEvent) {
        count.withLock { $0 += 1 }
    }

    func regionMonitor(
        _ monitor: RegionMonitor, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
        count.withLock { $0 += 1 }
    }
}
