import Foundation

/// Which scheduled regions are active at the current fix's GNSS time (`Region.schedule`), kept out of line: an entry
/// only for the regions that have a schedule.
///
/// Each entry remembers the interval of GNSS time over which its answer holds (between two consecutive window edges),
/// so a fix costs one comparison against the earliest edge of all entries; the windows are recomputed (with the
/// zone's offsets from tzdata) only when a fix passes an edge, or time goes back before an entry's interval. Nothing
/// is allocated per fix.
struct ScheduleWindows {
    private struct Entry {
        let zone: TimeZone
        let windows: [Schedule.Window]
        /// nil until the first fix evaluates it.
        var active: Bool?
        /// The answer holds for from <= t < until (Unix seconds).
        var from = Double.infinity
        var until = -Double.infinity
    }

    private var entries: [Int: Entry] = [:]
    private var slots = SlotList()
    /// min(until) and max(from) of every entry: outside this interval some entry must be recomputed.
    private var earliestUntil = -Double.infinity
    private var latestFrom = Double.infinity
    /// Regions whose window opened at the current fix (cleared by the engine after it reported them).
    private(set) var opened = SlotList()

    var isEmpty: Bool { slots.count == 0 }

    /// Whether region `slot` is active; regions without a schedule always are, and so is a scheduled one before the
    /// first fix (nothing happens before it anyway).
    func isActive(_ slot: Int) -> Bool {
        entries[slot]?.active ?? true
    }

    /// Starts, replaces or (with nil) forgets region `slot`'s schedule. A replaced schedule keeps its last answer,
    /// so the next fix reports an opening only if the new windows open where the old ones were closed.
    mutating func update(_ slot: Int, schedule: Schedule?) {
        guard let schedule, let zone = TimeZone(identifier: schedule.timeZoneIdentifier) else {
            entries[slot] = nil
            slots.remove(slot)
            opened.remove(slot)
            return
        }
        let previous = entries[slot]?.active
        entries[slot] = Entry(zone: zone, windows: schedule.windows, active: previous)
        slots.insert(slot)
        earliestUntil = -Double.infinity  // recompute at the next fix
    }

    /// Brings every entry to GNSS time `time`; a region that goes from closed to open is added to `opened`.
    mutating func advance(to time: Date) {
        let t = time.timeIntervalSince1970
        guard t >= earliestUntil || t < latestFrom else { return }
        var earliest = Double.infinity, latest = -Double.infinity
        for slot in slots.slots {
            var entry = entries[slot]!
            if t >= entry.until || t < entry.from {
                let (active, from, until) = Self.activity(at: t, windows: entry.windows, zone: entry.zone)
                if active, entry.active == false { opened.insert(slot) }
                entry.active = active
                entry.from = from
                entry.until = until
                entries[slot] = entry
            }
            earliest = min(earliest, entry.until)
            latest = max(latest, entry.from)
        }
        earliestUntil = earliest
        latestFrom = latest
    }

    mutating func clearOpened() { opened.removeAll() }

    /// A time base adopted backwards: every entry is recomputed at the next fix (an interval is in GNSS time).
    mutating func shiftTimeBase() {
        for slot in slots.slots { entries[slot]!.until = -Double.infinity }
        earliestUntil = -Double.infinity
    }

    // MARK: - Window edges

    /// Whether a window holds Unix time `t`, and the interval [from, until) around `t` in which no window edge lies.
    /// Windows are at most 24 h long and end by 48:00 of their day, so those starting in the 7 local days before
    /// t's and the 8 after hold every edge near `t`; with at least one window a week, `until` is at most 8 days away.
    static func activity(at t: Double, windows: [Schedule.Window], zone: TimeZone) -> (Bool, Double, Double) {
        let offset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
        let localDay = Int(((t + offset) / 86_400).rounded(.down))
        var active = false, from = -Double.infinity, until = Double.infinity
        for day in (localDay - 7)...(localDay + 8) {
            let weekday = ((day + 3) % 7 + 7) % 7  // 1970-01-01, day 0, was a Thursday (Monday = 0)
            for window in windows where window.days & (1 << UInt8(weekday)) != 0 {
                let start = instant(localDay: day, minute: window.start, zone: zone)
                let end = instant(localDay: day, minute: window.end, zone: zone)
                if start <= t, t < end { active = true }
                for edge in [start, end] {
                    if edge <= t { from = max(from, edge) } else { until = min(until, edge) }
                }
            }
        }
        return (active, from, until)
    }

    /// The Unix time of local wall-clock `minute` (may pass 1440) after the midnight of local day `localDay` (days
    /// since 1970-01-01). In a gap the time moves forward by the gap (the offset before it applies); in an overlap
    /// it is the earlier of the two instants.
    static func instant(localDay: Int, minute: Int, zone: TimeZone) -> Double {
        let local = Double(localDay) * 86_400 + Double(minute) * 60
        let before = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local - 86_400)))
        let after = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local + 86_400)))
        var best: Double?
        for offset in [before, after] {
            let candidate = local - offset
            if Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: candidate))) == offset {
                best = min(best ?? candidate, candidate)
            }
        }
        return best ?? local - before
    }
}
