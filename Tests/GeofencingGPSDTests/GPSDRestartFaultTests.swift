import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@testable import GeofencingGPSD
import GeofencingWriters

/// gpsd killed with SIGKILL and restarted 20 times during a drive, with `geofence run --gpsd` (the built executable)
/// as its client: the daemon never dies, reconnects after every restart, follows the outage rules exactly, exits no
/// region the vehicle is inside, and prints the events that `geofence replay` gives for the fixes gpsd reported.
///
/// The drive: 12 km east at car speeds with three 100 s stops, 1 Hz, a receiver with 1.6 m σ per axis and no
/// outliers (so every transition is true to within the 10 m hysteresis, and the truth check below can be strict).
/// Fences: 48 small ones (r 40 m) on the road every 250 m, a large one (r 500 m) round each stop, three off the road.
/// gpsd reads NMEA from UDP (`UDPFedGPSD`): while it is dead the sentences sent are lost, as a receiver's are; each
/// kill lands inside an epoch (some of its sentences sent, the rest lost). Outages: 13 short ones (2–40 s of GNSS
/// time, the states stand) and 7 long ones (61–95 s, over the 60 s `outageTimeout`: states unknown, then
/// determined again).
///
/// What the daemon got is what a second libgps client in this process got (a `GPSDSource` watching the same gpsd):
/// before each kill the feed pauses, so no report is in flight, and after each restart it waits until both clients
/// are connected and watching. That recording, written as gpsd JSON, is the replay's input.
@Suite(.enabled(if: GPSDSource.isAvailable && TestEnvironment.executable("gpsd") != nil && GeofenceExecutable.isBuilt,
                "needs libgps (trait GPSD), gpsd (Debian: gpsd) and the geofence executable"))
struct GPSDRestartFaultTests {
    static let restarts = 20
    /// GNSS seconds without a fix after which the monitor makes every state unknown (`MonitorConfiguration`).
    static let outageTimeout = MonitorConfiguration().outageTimeout

    @Test func daemonSurvivesTwentyGPSDCrashes() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let drive = try Self.drive()
        let regions = Self.regions()
        let fencesFile = directory.appendingPathComponent("fences.csv")
        try Self.writeFences(regions, to: fencesFile)
        let writer = NMEAWriter()
        let epochs = drive.observations.map { writer.sentences(for: $0) }
        let plan = try #require(KillPlan(epochs: epochs.count, kills: Self.restarts, seed: 20_261_129),
                                "the drive is too short for the planned outages")

        let gpsd = try UDPFedGPSD()
        defer { gpsd.stop() }
        try await gpsd.start()
        let recorderSource = GPSDSource(configuration: GPSDConfiguration(
            host: "127.0.0.1", port: gpsd.port,
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(100))))
        let recorded = Recorder(recorderSource.observations)
        let recorderStates = Recorder(recorderSource.connectionStates)
        try recorderSource.start()
        defer { recorderSource.stop() }

        let output = directory.appendingPathComponent("daemon.jsonl")
        let errors = directory.appendingPathComponent("daemon.err")
        let daemon = try FieldTestThroughGPSDTests.start(
            GeofenceExecutable.path,
            ["run", "--gpsd", "127.0.0.1:\(gpsd.port)", "--store", directory.appendingPathComponent("unit.db").path,
             "--fences", fencesFile.path, "--format", "jsonl"],
            output: output, errors: errors)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let connectedLine = "geofence run: gpsd 127.0.0.1:\(gpsd.port): connected"
        let connections = { FieldTestThroughGPSDTests.text(errors).components(separatedBy: connectedLine).count - 1 }

        /// Waits until the daemon and the recorder have each connected `count` times, then lets gpsd take their
        /// WATCH commands.
        func waitForClients(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while connections() < count
                || recorderStates.elements.filter({ $0 == .connected }).count < count {
                guard ContinuousClock.now < deadline, daemon.isRunning else {
                    let recorderCount = recorderStates.elements.filter { $0 == .connected }.count
                    let log = String(FieldTestThroughGPSDTests.text(errors).suffix(2000))
                    let message = "clients did not connect \(count) times: daemon \(connections()), recorder "
                        + "\(recorderCount); daemon running \(daemon.isRunning): \(log)"
                    Issue.record(Comment(rawValue: message))
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(300))
        }

        let clock = ContinuousClock()
        let started = clock.now
        try await waitForClients(1)
        var listening: [ProcessSockets.Socket] = []
        var gpsdConnections = 0
        var next = 0
        for run in 0...Self.restarts {
            for epoch in next..<(next + plan.runs[run]) {
                for sentence in epochs[epoch] { gpsd.send(sentence) }
                try await Task.sleep(for: .milliseconds(40))
            }
            next += plan.runs[run]
            if run == 0 {
                // While the daemon is connected and reading: its sockets, none of them listening.
                let sockets = ProcessSockets.of(processID: daemon.processIdentifier)
                listening += sockets.filter(\.isListening)
                gpsdConnections = sockets.filter {
                    $0.table.hasPrefix("tcp") && $0.state == "01" && $0.local.hasPrefix("0100007F:")
                }.count
            }
            guard run < Self.restarts else { break }
            // A kill inside an epoch: the first sentences of the next epoch reach gpsd, the rest are lost.
            for sentence in epochs[next].prefix(plan.partial[run]) { gpsd.send(sentence) }
            try await Task.sleep(for: .milliseconds(150))  // what gpsd reported has reached both clients
            gpsd.crash()
            next += 1 + plan.gaps[run]
            try await gpsd.start()
            try await waitForClients(run + 2)
        }
        // The end of the drive: gpsd is killed once more, so that each client has every report of the last run when
        // it sees its connection close (the end of a connection comes after what gpsd sent on it).
        try await Task.sleep(for: .milliseconds(150))  // what gpsd reported has reached both clients
        gpsd.crash()
        let recorderClosed = await recorderStates.wait(timeout: .seconds(120)) { states in
            guard let last = states.lastIndex(of: .connected) else { return false }
            return states[last...].contains(where: \.isWaiting)
        }
        #expect(recorderClosed, "the recorder saw gpsd go \(Self.restarts + 1) times: \(recorderStates.elements.suffix(5))")
        recorderSource.stop()
        await recorderSource.waitUntilStopped()
        #expect(await recorded.waitForEnd(timeout: .seconds(120)))

        // The daemon's events are the replay's of the fixes gpsd reported.
        let observations = recorded.elements
        let recording = directory.appendingPathComponent("recording.json")
        try Self.gpsdJSON(observations).write(to: recording, atomically: true, encoding: .utf8)
        let replay = try GeofenceExecutable.run(
            ["replay", recording.path, "--fences", fencesFile.path, "--format", "jsonl"])
        #expect(replay.status == 0, "\(replay.standardError)")
        let replayed = replay.standardOutput.split(separator: "\n").map(String.init)
        // The daemon got the same reports and works through them at its own pace: it is stopped once it has
        // written as many events as the replay. The deadline only bounds a daemon that writes fewer; the
        // comparison below says what differs.
        let caughtUp = ContinuousClock.now + .seconds(120)
        while FieldTestThroughGPSDTests.text(output).split(separator: "\n").count < replayed.count
            && ContinuousClock.now < caughtUp && daemon.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(daemon.isRunning, "the daemon is still running after \(Self.restarts + 1) gpsd crashes")
        daemon.interrupt()  // SIGINT: the daemon delivers what is queued and exits 0
        let deadline = ContinuousClock.now + .seconds(20)
        while daemon.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!daemon.isRunning && daemon.terminationReason == .exit && daemon.terminationStatus == 0,
                "\(FieldTestThroughGPSDTests.text(errors).suffix(2000))")
        let elapsed = clock.now - started

        // Reconnection after every restart, as the daemon logged it; and nothing listening.
        #expect(connections() == Self.restarts + 1, "connected \(connections()) times")
        #expect(listening.isEmpty, "the daemon listens: \(listening)")
        #expect(gpsdConnections == 1, "one TCP connection to gpsd while running")

        let live = FieldTestThroughGPSDTests.text(output).split(separator: "\n").map(String.init)
        #expect(live == replayed, "first difference: \(Self.firstDifference(live, replayed))")

        // The outage rules, checked on the daemon's own events against the fixes it got.
        let events = try live.map(DaemonEvent.init)
        let fixes = observations.compactMap(\.fix)
        let check = OutageRuleCheck(events: events, fixes: fixes, outageTimeout: Self.outageTimeout)
        #expect(check.violations.isEmpty, "\(check.violations.prefix(10))")
        #expect(check.longOutages >= 5, "long outages seen by the daemon: \(check.longOutages)")
        #expect(check.insideAcrossOutage >= 1, "a long outage while inside a region, confirmed inside after it")
        // After each start gpsd reports the first epoch it can date more than once (measured: 2 extra reports per
        // start, RMC and then the sentences completing it); the repeats are the same position, which the monitor
        // takes as the same fix again and which changes nothing.
        var firstReport: [Date: Coordinate] = [:]
        var repeats = 0
        for fix in fixes {
            if let earlier = firstReport[fix.timestamp] {
                repeats += 1
                #expect(earlier == fix.coordinate, "a repeated epoch at another position: \(fix)")
            } else {
                firstReport[fix.timestamp] = fix.coordinate
            }
        }
        #expect(repeats <= 2 * connections(), "gpsd repeated \(repeats) reports over \(connections()) starts")

        // No false transition: every enter and exit (inferred ones included) agrees with where the vehicle truly was.
        let index = try RegionIndex(regions: regions)
        var transitions = 0
        for event in events where (event.type == "enter" || event.type == "exit") && !event.interpolated {
            transitions += 1
            let truth = drive.truth(at: event.date)
            let inside = index.regions(containing: truth.coordinate).contains { $0.region.identifier == event.region }
            #expect(inside == (event.type == "enter"),
                    "\(event.type) \(event.region) at \(event.time) while the vehicle was \(inside ? "in" : "out")side")
        }
        #expect(transitions >= 40, "the drive goes in and out of fences: \(transitions) transitions")
        let unknown = events.filter { $0.state == "unknown" }.count
        print("gpsd SIGKILL x\(Self.restarts): \(connections()) connections, \(fixes.count) fixes (\(repeats) repeated) "
            + "of \(epochs.count) epochs reached the daemon; \(events.count) events (\(transitions) enter/exit, "
            + "\(events.filter(\.inferred).count) inferred, \(unknown) unknown) equal to the replay; "
            + "\(check.longOutages) long outages, \(check.insideAcrossOutage) regions inside across one; \(elapsed)")
    }

    // MARK: - The drive and its fences

    /// `metres` east and `north` of (-27.5, 153.0) (flat approximation: fences are placed with the same function,
    /// so its error does not matter).
    static func point(east metres: Double, north: Double = 0) -> Coordinate {
        Coordinate(latitude: -27.5 + north / 110_574,
                   longitude: 153.0 + metres / (111_320 * cos(27.5 * .pi / 180)))
    }

    static func drive() throws -> SimulatedDrive {
        let route = try SimulatedRoute(waypoints: [
            RouteWaypoint(point(east: 0)), RouteWaypoint(point(east: 3_000), dwell: 100),
            RouteWaypoint(point(east: 6_000), dwell: 100), RouteWaypoint(point(east: 9_000), dwell: 100),
            RouteWaypoint(point(east: 12_000)),
        ])
        let receiver = GNSSErrorModel(biasSigma: 1.5, biasCorrelationTime: 60, noiseSigma: 0.5)
        return try DriveSimulator(route: route, profile: .car, errors: receiver, sampleRate: 1, seed: 8).run()
    }

    static func regions() -> [Region] {
        (0..<48).map { Region(center: point(east: 150 + 250 * Double($0)), radius: 40, identifier: "road-\($0)") }
            + [3_000.0, 6_000, 9_000].map { Region(center: point(east: $0), radius: 500, identifier: "stop-\(Int($0))") }
            + (1...3).map { Region(center: point(east: 3_000 * Double($0), north: 1_500), radius: 100,
                                           identifier: "away-\($0)") }
    }

    static func writeFences(_ regions: [Region], to url: URL) throws {
        var text = "id,lat,lon,radius_m\n"
        for region in regions {
            text += "\(region.identifier),\(region.center.latitude),\(region.center.longitude),\(region.radius ?? 0)\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Observations as gpsd TPV reports, one a line, with every number as Swift prints it (shortest text that reads
    /// back as the same Double), so the replay's fixes are the daemon's bit for bit. Time as seconds since 1970,
    /// which the gpsd JSON reader takes as gpsd's older protocols wrote it.
    static func gpsdJSON(_ observations: [Observation]) -> String {
        observations.map { observation -> String in
            switch observation {
            case .fix(let fix):
                var line = "{\"class\":\"TPV\",\"mode\":3,\"time\":\(fix.timestamp.timeIntervalSince1970)"
                line += ",\"lat\":\(fix.coordinate.latitude),\"lon\":\(fix.coordinate.longitude)"
                if let accuracy = fix.horizontalAccuracy { line += ",\"eph\":\(accuracy)" }
                if let speed = fix.speed { line += ",\"speed\":\(speed)" }
                if let course = fix.course { line += ",\"track\":\(course)" }
                if let altitude = fix.altitude { line += ",\"altMSL\":\(altitude)" }
                return line + "}\n"
            case .noFix(let time):
                return "{\"class\":\"TPV\",\"mode\":1,\"time\":\(time.timeIntervalSince1970)}\n"
            }
        }.joined()
    }

    static func firstDifference(_ a: [String], _ b: [String]) -> String {
        guard let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return a.count == b.count ? "none" : "counts \(a.count) and \(b.count)"
        }
        return "line \(index + 1): daemon \(a[index]) / replay \(b[index])"
    }
}

/// Where gpsd is killed: `runs[k]` whole epochs are sent before kill k (the last run goes to the end of the drive),
/// then `partial[k]` sentences of the next epoch; that epoch and the `gaps[k]` after it are lost. Every third gap is
/// longer than the outage timeout.
struct KillPlan {
    var runs: [Int]
    var partial: [Int]
    var gaps: [Int]

    /// nil when `epochs` leaves fewer than 8 epochs for a run.
    init?(epochs: Int, kills: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }
        gaps = (0..<kills).map { $0 % 3 == 1 ? uniform(61...95) : uniform(2...40) }
        partial = (0..<kills).map { _ in uniform(1...3) }  // of GSA, RMC, GGA, GST
        let minimum = 8
        let spare = epochs - gaps.reduce(0, +) - kills - (kills + 1) * minimum
        guard spare >= 0 else { return nil }
        // Split what is left at kills random cut points.
        let cuts = ((0..<kills).map { _ in uniform(0...spare) } + [0, spare]).sorted()
        runs = (0...kills).map { minimum + cuts[$0 + 1] - cuts[$0] }
    }
}

/// One line of the daemon's `--format jsonl` output.
struct DaemonEvent {
    var sequence: Int
    var type: String
    var region: String
    var time: String
    var distance: Double?
    var state: String
    var inferred: Bool
    var interpolated: Bool

    init(_ line: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let sequence = object["seq"] as? NSNumber, let type = object["type"] as? String,
              let region = object["region"] as? String, let time = object["time"] as? String,
              let state = object["state"] as? String, let inferred = object["inferred"] as? Bool,
              let interpolated = object["interpolated"] as? Bool
        else { throw GPSFakeError(message: "not an event line: \(line)") }
        self.sequence = sequence.intValue
        self.type = type
        self.region = region
        self.time = time
        self.distance = (object["distance_m"] as? NSNumber)?.doubleValue
        self.state = state
        self.inferred = inferred
        self.interpolated = interpolated
    }

    var date: Date { ISO8601DateFormatter().date(from: time) ?? .distantPast }
}

/// The README's outage rule, checked on a daemon's events and the fixes it got (all usable here):
/// - a gap of more than `outageTimeout` seconds between two fixes makes, at the fix after it, every known state
///   unknown, and the daemon reports that for the regions inside (a `state` event with state unknown and no
///   distance) and then determines each such region again at that fix: inside as before (a `state` event), or
///   outside as an `inferred` exit; a region outside before says nothing, or is entered (`inferred`);
/// - no state becomes unknown and nothing is inferred at any other time;
/// - sequence numbers run 1, 2, 3, ... without a gap.
struct OutageRuleCheck {
    var violations: [String] = []
    /// Gaps longer than the timeout.
    var longOutages = 0
    /// Regions inside before a long outage and confirmed inside after it.
    var insideAcrossOutage = 0

    init(events: [DaemonEvent], fixes: [Fix], outageTimeout: Double) {
        let formatter = ISO8601DateFormatter()
        var outageEnds = Set<String>()
        for (before, after) in zip(fixes, fixes.dropFirst())
        where after.timestamp.timeIntervalSince(before.timestamp) > outageTimeout {
            outageEnds.insert(formatter.string(from: after.timestamp))
        }
        longOutages = outageEnds.count
        for (index, event) in events.enumerated() where event.sequence != index + 1 {
            violations.append("sequence \(event.sequence) at line \(index + 1)")
        }
        var state: [String: String] = [:]
        var index = 0
        while index < events.count {
            let time = events[index].time
            var group: [DaemonEvent] = []
            while index < events.count && events[index].time == time {
                group.append(events[index])
                index += 1
            }
            if outageEnds.contains(time) {
                check(outageEnd: group, at: time, states: state)
            } else {
                for event in group where event.state == "unknown" || event.inferred {
                    violations.append("\(event.type) \(event.region) \(event.state) inferred \(event.inferred) at "
                        + "\(time), which ends no outage")
                }
            }
            for event in group { state[event.region] = event.state }
        }
        // An outage end with no events is one where no region was inside (the daemon reports only those).
        let seenEnds = Set(events.map(\.time)).intersection(outageEnds)
        for time in outageEnds.subtracting(seenEnds).sorted() {
            let end = formatter.date(from: time) ?? .distantFuture
            var last: [String: String] = [:]
            for event in events where event.date < end { last[event.region] = event.state }
            if last.values.contains("inside") {
                violations.append("no events at \(time), the first fix after an outage, with a region inside")
            }
        }
    }

    private mutating func check(outageEnd group: [DaemonEvent], at time: String, states: [String: String]) {
        // The daemon reports states only for regions inside: those are the ones it reports unknown.
        let known = states.filter { $0.value == "inside" }
        // First every state inside becomes unknown, in one block, without a distance...
        let unknown = group.prefix { $0.state == "unknown" }
        if Set(unknown.map(\.region)) != Set(known.keys) || unknown.count != known.count
            || unknown.contains(where: { $0.type != "state" || $0.distance != nil })
        {
            violations.append("at \(time): \(unknown.count) unknown events for \(known.count) regions inside")
        }
        // ...then each is determined again, once: its old state stands, or the other one is an inferred transition.
        let again = group.dropFirst(unknown.count)
        for (region, before) in known {
            let found = again.filter { $0.region == region }
            guard found.count == 1, let event = found.first else {
                violations.append("at \(time): \(region) determined \(found.count) times after the outage")
                continue
            }
            let stands = event.type == "state" && event.state == before && !event.inferred
            let changed = (event.type == "enter" || event.type == "exit") && event.state != before && event.inferred
            if !(stands || changed) {
                violations.append("at \(time): \(region) was \(before), then \(event.type) \(event.state) "
                    + "inferred \(event.inferred)")
            }
            if stands && before == "inside" { insideAcrossOutage += 1 }
        }
        // A region outside before: entered while the fixes were missing (inferred), or one never determined before
        // found inside (its first determination).
        for event in again where known[event.region] == nil
            && !(event.type == "enter" && event.inferred) && !(event.type == "state" && !event.inferred)
        {
            violations.append("at \(time): \(event.region), not inside before, got \(event.type) inferred "
                + "\(event.inferred)")
        }
    }
}
