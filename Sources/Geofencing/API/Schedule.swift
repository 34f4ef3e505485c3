import Foundation

/// Weekly time windows in an IANA time zone during which a region is active (a school zone: Mon–Fri 07:00–09:00 and
/// 14:30–16:00 in Australia/Brisbane). Outside its windows a region produces no event; `RegionEvent.Kind` says what
/// happens when a window opens or closes with the vehicle inside.
///
/// Text form (fence files' `schedule`, the store, `geofence fences list`): the zone, then rules separated by `;`,
/// each rule days and times: `Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00; Sa 08:00-12:00`. Days are Mo Tu We
/// Th Fr Sa Su, single or as ranges (`Sa-Mo` wraps), separated by commas. A window across midnight is written with
/// an end past 24:00 (`Fr 22:00-26:00` is Friday 22:00 to Saturday 02:00), so a window that ends before it starts
/// is a mistake and refused. `text` writes the canonical form, which `init(parsing:)` reads back to an equal value.
///
/// Edges are local wall-clock times, computed from the fix's GNSS time (never the wall clock) with the system's
/// tzdata: an edge in a daylight-saving gap (02:30 on a spring-forward night in Europe/Berlin) moves forward by the
/// gap's length (03:30 CEST); an edge in the overlap (02:30 on the autumn night) is the first of the two (02:30
/// CEST). A window keeps its clock times across a change, so a 22:00-26:00 window lasts 3 h or 5 h that night.
public struct Schedule: Sendable, Hashable, CustomStringConvertible {
    /// One window: on each of `days`, from `start` to `end`, in minutes after local midnight.
    public struct Window: Sendable, Hashable {
        /// Bit d (0 = Monday ... 6 = Sunday) set for each day the window starts on.
        public var days: UInt8
        /// 0 ... 1439 minutes after midnight.
        public var start: Int
        /// start < end <= start + 1440 and end <= 2880: past 1440 the window ends on the next day.
        public var end: Int

        public init(days: UInt8, start: Int, end: Int) {
            self.days = days
            self.start = start
            self.end = end
        }
    }

    /// The IANA zone the windows' times are in ("Australia/Brisbane").
    public var timeZoneIdentifier: String
    public var windows: [Window]

    public init(timeZoneIdentifier: String, windows: [Window]) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.windows = windows
    }

    /// Reads the text form (see the type's description).
    /// - Throws: `ScheduleError` saying what is wrong; the zone is checked against the system's tzdata.
    public init(parsing text: String) throws(ScheduleError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            throw ScheduleError(trimmed.isEmpty ? "it is empty: expected a time zone and windows, e.g. "
                + "\"Australia/Brisbane Mo-Fr 07:00-09:00\"" : "it has no windows after the time zone")
        }
        let zone = String(trimmed[..<space])
        var windows: [Window] = []
        for rule in trimmed[space...].split(separator: ";") {
            let parts = rule.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2 else {
                throw ScheduleError("\"\(rule.trimmingCharacters(in: .whitespaces))\" is not days and times, e.g. "
                    + "\"Mo-Fr 07:00-09:00,14:30-16:00\"")
            }
            let days = try Self.days(parts[0])
            for range in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
                let ends = range.split(separator: "-", omittingEmptySubsequences: false)
                guard ends.count == 2 else { throw ScheduleError("\"\(range)\" is not a time range HH:MM-HH:MM") }
                windows.append(Window(days: days, start: try Self.minutes(ends[0]), end: try Self.minutes(ends[1])))
            }
        }
        self.init(timeZoneIdentifier: zone, windows: windows)
        if let problem { throw problem }
    }

    /// The canonical text form: one rule per window, days as a bit list (`Mo,Tu,We`) or a range where they are
    /// consecutive from Monday.
    public var text: String {
        timeZoneIdentifier + " " + windows.map { window in
            Self.dayText(window.days) + " " + Self.clock(window.start) + "-" + Self.clock(window.end)
        }.joined(separator: "; ")
    }

    public var description: String { text }

    /// The windows as a person reads them (the map's tooltip): consecutive windows on the same days in one rule,
    /// `Mo-Fr 07:00-09:00,14:30-16:00; Sa 08:00-12:00` (the zone not included). `init(parsing:)` reads it back
    /// after the zone to an equal value.
    public var windowsText: String {
        var rules: [(days: UInt8, times: [String])] = []
        for window in windows {
            let times = Self.clock(window.start) + "-" + Self.clock(window.end)
            if rules.last?.days == window.days { rules[rules.count - 1].times.append(times) } else {
                rules.append((window.days, [times]))
            }
        }
        return rules.map { Self.dayText($0.days) + " " + $0.times.joined(separator: ",") }.joined(separator: "; ")
    }

    /// Why this schedule cannot be monitored, or nil: an unknown zone, no windows, a window with no days, a time
    /// out of range or one that ends before (or when) it starts.
    public var problem: ScheduleError? {
        guard TimeZone(identifier: timeZoneIdentifier) != nil else {
            return ScheduleError("unknown time zone \"\(timeZoneIdentifier)\" (not in the system's tzdata; an IANA "
                + "name such as \"Australia/Brisbane\" is expected)")
        }
        guard !windows.isEmpty else { return ScheduleError("it has no windows") }
        guard windows.count <= Self.maximumWindows else {
            return ScheduleError("it has \(windows.count) windows, more than the \(Self.maximumWindows) allowed")
        }
        for window in windows {
            let range = Self.clock(window.start) + "-" + Self.clock(window.end)
            guard window.days & 0x7F != 0, window.days & 0x80 == 0 else {
                return ScheduleError("the window \(range) has no valid days")
            }
            guard (0..<1440).contains(window.start) else {
                return ScheduleError("the window \(range) starts outside 00:00 ... 23:59")
            }
            guard window.end > window.start else {
                return ScheduleError("the window \(range) ends before it starts (a window across midnight ends past "
                    + "24:00, e.g. 22:00-26:00)")
            }
            guard window.end <= 2880, window.end - window.start <= 1440 else {
                return ScheduleError("the window \(range) is longer than 24 hours or ends after 48:00")
            }
        }
        return nil
    }

    /// The most windows one schedule may have: far more than any real timetable, while a runaway fence file cannot
    /// make every fix's edge computation long.
    public static let maximumWindows = 64

    // MARK: - Text

    private static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    private static func days(_ text: Substring) throws(ScheduleError) -> UInt8 {
        var bits: UInt8 = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            let indices = ends.map { dayNames.firstIndex(of: String($0)) }
            guard (1...2).contains(indices.count), let first = indices[0], let last = indices.last! else {
                throw ScheduleError("\"\(item)\" is not a day or a range of days (Mo Tu We Th Fr Sa Su, e.g. Mo-Fr)")
            }
            var day = first
            while true {
                bits |= 1 << UInt8(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return bits
    }

    private static func minutes(_ text: Substring) throws(ScheduleError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60 else {
            throw ScheduleError("\"\(text)\" is not a time HH:MM")
        }
        return hours * 60 + minutes
    }

    private static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    private static func dayText(_ bits: UInt8) -> String {
        let set = (0..<7).filter { bits & (1 << UInt8($0)) != 0 }
        if set.count > 2, set == Array(set[0]...set[set.count - 1]) {
            return dayNames[set[0]] + "-" + dayNames[set[set.count - 1]]
        }
        return set.map { dayNames[$0] }.joined(separator: ",")
    }
}

/// What is wrong with a schedule's text or values.
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
