import CGeofence
import Foundation

/// The speed-limit rule (`SpeedLimit`, `RegionEvent.Kind.overspeed`): per region with a limit that the vehicle is
/// inside, an episode state, kept out of line (an entry only while the region is watched, so regions without a
/// limit cost nothing). Nothing is allocated per fix once the regions' entries exist.
struct SpeedLimitRule {
    struct Episode {
        /// m/s.
        var limit: Double
        var threshold: Double
        var duration: Double
        /// First fix above limit + tolerance of the current candidate or episode.
        var overSince: Date?
        /// The episode has been reported (`overspeed`), its end not yet.
        var firing = false
        /// First fix of the current stretch at or under the limit during an episode.
        var underSince: Date?
        var maximumSpeed = 0.0
        /// GNSS time of the latest fix in the zone while the episode (or candidate) lasts; nil: none under way.
        var latestFix: Date?
        /// `latestFix` when the episode was last reported changed (`OverspeedEpisode.refreshInterval`).
        var storedLatestFix: Date?

        init(_ speedLimit: SpeedLimit) {
            limit = speedLimit.limit
            threshold = speedLimit.limit + speedLimit.tolerance
            duration = speedLimit.duration
        }

        /// A stored episode, going on under `speedLimit` (the region's limit now, which a fence set may have
        /// changed meanwhile, as `update` does for a live one).
        init(_ speedLimit: SpeedLimit, restoring stored: OverspeedEpisode) {
            self.init(speedLimit)
            overSince = stored.overSince
            firing = stored.reported
            underSince = stored.reported ? stored.underSince : nil
            maximumSpeed = stored.maximumSpeed
            latestFix = stored.latestFix
            storedLatestFix = stored.latestFix
        }

        mutating func reset() {
            overSince = nil
            firing = false
            underSince = nil
            maximumSpeed = 0
            latestFix = nil
            storedLatestFix = nil
        }

        /// What a state record keeps of it (`RegionStateRecord.overspeed`): nil when nothing is under way.
        var stored: OverspeedEpisode? {
            guard let overSince, let latestFix else { return nil }
            return OverspeedEpisode(overSince: overSince, maximumSpeed: maximumSpeed, reported: firing,
                                    underSince: underSince, latestFix: latestFix)
        }

        /// Whether the store's copy is out of date now that `before` became this (the rule of
        /// `OverspeedEpisode`); when it is, `storedLatestFix` becomes the latest fix.
        mutating func needsStoring(after before: Episode) -> Bool {
            guard let latestFix else { return before.latestFix != nil }
            let stale = overSince != before.overSince || firing != before.firing
                || maximumSpeed != before.maximumSpeed || underSince != before.underSince
                || storedLatestFix.map { latestFix.timeIntervalSince($0) >= OverspeedEpisode.refreshInterval } ?? true
            if stale { storedLatestFix = latestFix }
            return stale
        }
    }

    private(set) var episodes: [Int: Episode] = [:]
    /// Regions with a limit that are inside, or whose episode has not ended yet.
    private(set) var watched = SlotList()
    /// How many regions have a limit: the position history is kept only while some do.
    private(set) var limitedRegions = 0
    var positions = PositionHistory()

    /// The region entered (or was found inside): its episode starts being tracked (an existing one goes on).
    mutating func watch(_ slot: Int, _ speedLimit: SpeedLimit) {
        if episodes[slot] == nil { episodes[slot] = Episode(speedLimit) }
        watched.insert(slot)
    }

    /// A region was added, replaced or removed: `old` and `new` are its limits before and after.
    mutating func update(_ slot: Int, from old: SpeedLimit?, to new: SpeedLimit?) {
        limitedRegions += (new == nil ? 0 : 1) - (old == nil ? 0 : 1)
        guard let new else {
            episodes[slot] = nil
            watched.remove(slot)
            return
        }
        if var episode = episodes[slot] {
            let fresh = Episode(new)
            episode.limit = fresh.limit
            episode.threshold = fresh.threshold
            episode.duration = fresh.duration
            episodes[slot] = episode
        }
    }

    mutating func stopWatching(_ slot: Int) {
        episodes[slot]?.reset()
        watched.remove(slot)
    }

    mutating func setEpisode(_ slot: Int, _ episode: Episode) { episodes[slot] = episode }

    /// A restored region's stored episode: watched from the first fix on, so that it goes on, or ends (with its
    /// `overspeedEnd`) when that fix finds the vehicle gone or the gap too long.
    mutating func restore(_ slot: Int, _ speedLimit: SpeedLimit, _ stored: OverspeedEpisode) {
        episodes[slot] = Episode(speedLimit, restoring: stored)
        watched.insert(slot)
    }

    /// A time base adopted backwards: the episodes' clocks move with it (see `MonitorEngine.shiftTimeBase`).
    mutating func shiftTimeBase(by step: TimeInterval) {
        for slot in watched.slots {
            episodes[slot]?.overSince? += step
            episodes[slot]?.underSince? += step
            episodes[slot]?.latestFix? += step
            episodes[slot]?.storedLatestFix? += step
        }
        positions.shiftTimeBase(by: step)
    }
}

/// The last few usable fixes' times, positions and accuracies, for a speed when the receiver gives none: a fixed
/// ring, filled only while some region has a speed limit.
struct PositionHistory {
    private struct Sample {
        var time: Date
        var coordinate: Coordinate
        var accuracy: Double
    }

    /// The baseline is the oldest sample at most this many seconds old: long enough that a parked receiver's jitter
    /// (a few metres) is small against the distance, short enough to follow braking.
    static let span: TimeInterval = 10
    /// Accuracy assumed for a fix that states none, metres (95 %): a consumer receiver's open-sky figure.
    static let assumedAccuracy = 5.0
    private static let capacity = 16
    private var samples: [Sample] = []
    private var next = 0

    /// Appends a fix and returns the speed measured from positions, m/s: distance from the oldest sample within
    /// `span` (at least 1 s old), less the two fixes' 95 % radii combined (so jitter inside them reads as 0),
    /// divided by the time between them; nil without such a sample. It errs low by up to that allowance / time
    /// (about 0.7 m/s over 10 s at 5 m accuracy), never high from jitter within the accuracies.
    mutating func speed(appending fix: Fix) -> Double? {
        let sample = Sample(time: fix.timestamp, coordinate: fix.coordinate,
                            accuracy: fix.horizontalAccuracy ?? Self.assumedAccuracy)
        var baseline: Sample?
        for old in samples {
            let age = sample.time.timeIntervalSince(old.time)
            guard age >= 1, age <= Self.span else { continue }
            if baseline == nil || old.time < baseline!.time { baseline = old }
        }
        if samples.count < Self.capacity {
            samples.append(sample)
        } else {
            samples[next] = sample
            next = (next + 1) % Self.capacity
        }
        guard let baseline else { return nil }
        let plane = LocalTangentPlane(latitude: baseline.coordinate.latitude)
        let offset = plane.offset(of: sample.coordinate, from: baseline.coordinate)
        let distance = (offset.east * offset.east + offset.north * offset.north).squareRoot()
        let allowance = (sample.accuracy * sample.accuracy + baseline.accuracy * baseline.accuracy).squareRoot()
        return max(0, distance - allowance) / sample.time.timeIntervalSince(baseline.time)
    }

    mutating func shiftTimeBase(by step: TimeInterval) {
        for index in samples.indices { samples[index].time += step }
    }
}

extension MonitorEngine {
    /// The overspeed events of this fix, after its transitions (so an exit at this fix comes before the end of the
    /// episode it ends). `speed` is the fix's speed, or the one measured from positions. A region whose episode
    /// changed as its state record keeps it (`OverspeedEpisode`) is marked changed.
    mutating func reportOverspeeds(at fix: Fix, point: gf_point, speed: Double?) {
        var index = speedRule.watched.count - 1
        while index >= 0 {
            let slot = speedRule.watched.slots[index]
            index -= 1
            guard regions.isOccupied(slot), let before = speedRule.episodes[slot] else { continue }
            let state = regions.flags[slot].state
            var episode = before
            let time = fix.timestamp
            if let latest = episode.latestFix, time.timeIntervalSince(latest) > configuration.outageTimeout {
                // No fix of the episode for longer than the outage rule waits (an outage, or a restart after a long
                // stop): the speed meanwhile is not known, so the episode ends where its fixes did. A reported one
                // ends at this fix, over the limit until its last fix before the gap (or its stretch under the
                // limit began); a candidate is dropped. A speed still too high starts a new candidate below.
                if episode.firing, let since = episode.overSince {
                    emitOverspeed(.overspeedEnd, slot, fix: fix, point: point, maximum: episode.maximumSpeed,
                                  over: (episode.underSince ?? latest).timeIntervalSince(since))
                }
                episode.reset()
            }
            let inZone = state == .inside && schedules.isActive(slot)
            if !inZone {
                if episode.firing, let since = episode.overSince {
                    emitOverspeed(.overspeedEnd, slot, fix: fix, point: point, maximum: episode.maximumSpeed,
                                  over: time.timeIntervalSince(since))
                }
                speedRule.stopWatching(slot)
                if state == .inside { speedRule.watch(slot, regions.speedLimit(slot)!) }
                if before.latestFix != nil { changed.insert(slot) }
                continue
            }
            if let speed { judgeSpeed(speed, of: &episode, slot, fix: fix, point: point) }
            if episode.overSince != nil { episode.latestFix = time }
            if episode.needsStoring(after: before) { changed.insert(slot) }
            speedRule.setEpisode(slot, episode)
        }
    }

    /// The rule for one fix in the zone with a known speed: a candidate fires after the duration above limit +
    /// tolerance, a reported episode ends after the duration at or under the limit.
    private mutating func judgeSpeed(
        _ speed: Double, of episode: inout SpeedLimitRule.Episode, _ slot: Int, fix: Fix, point: gf_point
    ) {
        let time = fix.timestamp
        if !episode.firing {
            if speed > episode.threshold {
                let since = episode.overSince ?? time
                episode.overSince = since
                episode.maximumSpeed = max(episode.maximumSpeed, speed)
                if time.timeIntervalSince(since) >= episode.duration {
                    episode.firing = true
                    emitOverspeed(.overspeed, slot, fix: fix, point: point, maximum: episode.maximumSpeed,
                                  over: time.timeIntervalSince(since))
                }
            } else {
                episode.reset()
            }
        } else {
            episode.maximumSpeed = max(episode.maximumSpeed, speed)
            if speed > episode.limit {
                episode.underSince = nil
            } else {
                let under = episode.underSince ?? time
                episode.underSince = under
                if time.timeIntervalSince(under) >= episode.duration, let since = episode.overSince {
                    emitOverspeed(.overspeedEnd, slot, fix: fix, point: point, maximum: episode.maximumSpeed,
                                  over: under.timeIntervalSince(since))
                    episode.reset()
                }
            }
        }
    }

    /// The speed the rule judges this fix by: the receiver's when it gives one, else measured from positions.
    mutating func ruleSpeed(of fix: Fix) -> Double? {
        let measured = speedRule.positions.speed(appending: fix)
        if let speed = fix.speed, speed.isFinite, speed >= 0 { return speed }
        return measured
    }

    private mutating func emitOverspeed(
        _ kind: RegionEvent.Kind, _ slot: Int, fix: Fix, point: gf_point, maximum: Double, over: Double
    ) {
        emit(kind, slot, state: regions.flags[slot].state, time: fix.timestamp, at: fix.coordinate,
             distance: distanceFromBoundary(point, slot), maximumSpeed: maximum, overLimitDuration: over)
    }
}
