/// gpsd 3.22's end-of-cycle detection, so that the reader gives each epoch the state gpsd reports for it: the daemon
/// (`geofence run --gpsd`) keeps the last TPV of each time, and that TPV holds the sentences gpsd had merged when it
/// sent it, not necessarily all the sentences of that time.
///
/// gpsd cannot know where a receiver's reporting cycle ends; it learns it. The rule, measured on gpsd 3.22: its cycle
/// ends agree sentence by sentence with `gpsdecode -D 7` on every shared log, and which reports go out as TPVs with
/// `gpsd -D 7` under gpsfake on bundg_zeus_9.log and on a sample of every sentence type gpsd decodes:
///
/// - Registered times. Only GGA, GLL, GNS and GBS with a time field, and RMC with status A, a time and a date,
///   register a time; ZDA, GST, RMC with status V and all other sentences do not. A registered time other than the
///   previous registered one starts a new cycle: gpsd clears its fix and merges from there.
/// - Learning. When a cycle starts, the type of the last sentence that registered a time (the one that ended the
///   previous cycle) becomes a cycle ender; the set only grows. A sentence that registers a time reports (ends a
///   cycle) when its type is a cycle ender. A receiver with a fixed order is learnt after one cycle; one whose last
///   sentence varies reports at several of them.
/// - Continuation. A DBT (depth) with its six fields, from any talker, switches the stream to continuation for
///   good: gpsd takes it for an instrument bus that sends data after the fix. From then on no ender is learnt at a
///   cycle start; instead every sentence that registers no time takes over from the last timed type: that type
///   stops being an ender, the sentence's own type becomes one, and the sentence reports. So on such a bus almost
///   every untimed sentence reports, and a GGA, GLL or RMC at the end of a cycle often does not.
/// - TPVs. A report goes out as a TPV only when the sentence gave gpsd data (`gpsdTakesData`): a GLC, XTE or
///   depth-below-keel DPT reports but adds nothing, and the client gets no TPV for it. So a position that only such
///   sentences follow before the next time never reaches a client.
/// - Start. Until some ender is known, the daemon reports every sentence that sets a position or fix mode (GGA,
///   GLL, RMC, GNS, GSA); `gpsdecode` does not.
///
/// Not modelled: gpsd drops sentences shorter than its minimum field count for their type before this detection
/// (only DBT's count is checked here), and proprietary sentences ($P...) are taken to give no data.
struct NMEACycleEnd: Sendable {
    private var enders: Set<String> = []
    /// Type of the last sentence that registered a time.
    private var lastTimedType: String?
    private var lastRegisteredTime: Int64?
    private var continuation = false
    /// Whether gpsd has ever known an ender (its `cycle_end_reliable`); until then it reports position and mode.
    private var enderKnown = false

    /// What gpsd does on one sentence.
    struct Decision: Equatable {
        /// gpsd ends a reporting cycle on it (`gpsdecode` prints a TPV for each).
        var endsCycle: Bool
        /// The daemon sends a TPV to its clients: a cycle end on a sentence that gave data, or, until an ender is
        /// known, a sentence that sets the position or fix mode.
        var sendsReport: Bool
        /// The time of day of a new cycle that the sentence starts: gpsd clears its fix before merging it.
        var startsCycleAt: Int64? = nil
    }

    /// Takes the next sentence (any talker and type, checksum valid) and says what gpsd does on it.
    mutating func take(_ sentence: NMEASentence) -> Decision {
        let type = sentence.type
        if type == "DBT" && sentence.fields.count >= 6 { continuation = true }
        let time = Self.registeredTime(of: sentence)
        var startsCycleAt: Int64?
        if let time {
            if time != lastRegisteredTime {
                startsCycleAt = time
                if let ended = lastTimedType, !continuation { enders.insert(ended) }
            }
            lastRegisteredTime = time
            lastTimedType = type
        } else if continuation {
            if let last = lastTimedType { enders.remove(last) }
            enders.insert(type)
        }
        let endsCycle = (time != nil || continuation) && enders.contains(type)
        enderKnown = enderKnown || !enders.isEmpty
        let sends = enderKnown ? endsCycle && Self.gpsdTakesData(from: sentence) : Self.setsPositionOrMode(sentence)
        return Decision(endsCycle: endsCycle, sendsReport: sends, startsCycleAt: startsCycleAt)
    }

    /// The time of day gpsd registers from a sentence (see the type's comment), nil when it registers none. A time
    /// field that does not read as hhmmss counts as none.
    static func registeredTime(of sentence: NMEASentence) -> Int64? {
        let field: Int
        switch sentence.type {
        case "GGA", "GNS", "GBS": field = 1
        case "GLL": field = 5
        case "RMC" where sentence[field: 2] == "A" && !sentence[field: 9].isEmpty: field = 1
        default: return nil
        }
        return (try? sentence.timeOfDay(field)) ?? nil
    }

    /// Whether gpsd 3.22 takes data from the sentence, so that a report on it goes out as a TPV (measured with
    /// `gpsd -D 7`: the sentence's changed-data mask has more than its online and packet bits).
    static func gpsdTakesData(from sentence: NMEASentence) -> Bool {
        switch sentence.type {
        case "GGA", "GLL", "RMC", "GNS", "GBS", "GSA", "GST", "MWD": true
        case "VTG": !sentence[field: 1].isEmpty && !sentence[field: 5].isEmpty      // course and knots
        case "ZDA": !sentence[field: 2].isEmpty && !sentence[field: 3].isEmpty && !sentence[field: 4].isEmpty
        case "GSV": sentence[field: 1] == sentence[field: 2] && !sentence[field: 4].isEmpty   // last part, a satellite
        case "MWV": sentence[field: 2] == "R" && sentence[field: 5] == "A"                     // relative wind, valid
        case "HDG", "HDT": !sentence[field: 1].isEmpty
        case "DBT": !sentence[field: 1].isEmpty || !sentence[field: 3].isEmpty || !sentence[field: 5].isEmpty
        default: false
        }
    }

    /// The sentences that set gpsd's position or fix mode, on which the daemon reports until it knows an ender.
    static func setsPositionOrMode(_ sentence: NMEASentence) -> Bool {
        ["GGA", "GLL", "RMC", "GNS", "GSA"].contains(sentence.type)
    }
}
