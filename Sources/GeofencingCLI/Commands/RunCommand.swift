import Dispatch
import Foundation
import GeofencingSinks
#if canImport(Glibc)
import Glibc
#endif

/// `geofence run`: the daemon (see `Daemon`). Stops cleanly on SIGTERM and SIGINT; SIGHUP re-reads the store's
/// regions (after `geofence fences import`) and, at the next MQTT connection, the MQTT certificates and password.
enum RunCommand {
    static let command = GeofenceCLI.Command(
        name: "run", summary: "the daemon: fixes from gpsd, durable events to stdout, a command, MQTT",
        help: """
            Usage: geofence run --store PATH [--gpsd HOST[:PORT] | --nmea PATH|-]
                                [--fences FILE [--radius M] [--datum D] [--approach T]]
                                [--format text|jsonl] [--exec CMD]
                                [--mqtt mqtt[s]://HOST[:PORT]/BASE [--mqtt-ca FILE]
                                 [--mqtt-cert FILE --mqtt-key FILE] [--mqtt-user NAME --mqtt-password-file FILE]
                                 [--mqtt-format geofence|owntracks [--mqtt-tid ID]]
                                 [--status-interval S] [--max-fence-set-bytes N]]
                                [--config FILE]

            Restores the regions and their states from the store (created if missing, mode 0600; one daemon per
            store: a second exits 1 naming the one that holds it, through PATH.lock beside it), imports
            --fences if given, reads fixes and prints every event on standard output. Each event is stored before
            it is delivered and is delivered at least once to every sink, in order, with its sequence number (drop
            repeats by 'seq'); what a sink could not take is delivered after a restart. After a restart no enter is
            repeated for a region the vehicle was already inside, and an exit that happened while the daemon was
            down is reported on the first fix, flagged inferred.

            States ('type' "state"): a region's state is stored for every region, but reported only for regions
            found inside (at the first fix, and when an outage makes the state of a region the vehicle was inside
            unknown); a region found outside says nothing until the vehicle enters it. A store of 10^6 regions
            thus starts with a handful of events, not 10^6.

              --store PATH      the SQLite store (regions, states, event outbox)
              --gpsd HOST:PORT  gpsd to read (default localhost:2947)
              --nmea PATH|-     read NMEA 0183 from a serial device (9600 baud), a FIFO or '-' (standard input)
                                instead of gpsd; the daemon stops at the end of the input
              --fences FILE     regions to add or replace first (GeoJSON with circles, polygons and
                                corridors; CSV; GTFS stops.txt)
              --radius M        radius for GTFS stops, metres (default 100)
              --datum D         the datum of --fences' coordinates: wgs84 (default), gcj02 or tokyo
              --approach T      an approach alarm T seconds ahead on every fence of --fences (stored with them)
              --format F        text (default) or jsonl, on standard output
              --exec CMD        run CMD for each event (not through a shell): the event as JSON on standard input
                                and in GEOFENCE_SEQ, GEOFENCE_TYPE, GEOFENCE_REGION, GEOFENCE_TIME,
                                GEOFENCE_CROSSED_AT, GEOFENCE_LAT, GEOFENCE_LON, GEOFENCE_DISTANCE_M, GEOFENCE_STATE,
                                GEOFENCE_INFERRED, GEOFENCE_INTERPOLATED, GEOFENCE_MAX_SPEED_KMH,
                                GEOFENCE_OVER_LIMIT_S (overspeed events); a non-zero exit is retried; what it prints goes to
                                standard error (each line prefixed, escaped; 8192 bytes or 100 lines per event)
              --mqtt URL        publish each event (JSON) with QoS 1 (MQTT 5) to BASE/events under
                                mqtt://HOST[:PORT]/BASE, or over TLS 1.2+ under mqtts://HOST[:PORT]/BASE (port 8883
                                by default): the broker's certificate verified and its name checked against HOST;
                                the unit's status retained on BASE/status (the Last Will: offline)
              --mqtt-ca FILE    the CA certificates (PEM) for mqtts://; default: the system's
              --mqtt-cert FILE  a client certificate (PEM) for mqtts://, with --mqtt-key (mode 0600)
              --mqtt-user NAME  the user name, with --mqtt-password-file FILE (its first line; mode 0600)
              --mqtt-format F   geofence (default): each event's JSON line; owntracks: OwnTracks transition
                                messages for enters and exits to BASE/event, BASE being owntracks/USER/DEVICE
                                (dwell, approach and state events are not published: OwnTracks has no form for them)
              --mqtt-tid ID     OwnTracks' tracker id (tid); default: the last two characters of DEVICE
              --status-interval S  seconds between two statuses on BASE/status (default 60; 0: only at
                                connection and on change)
              --max-fence-set-bytes N  the largest fence set or patch taken from the back-end (default
                                67108864): a larger one is rejected unread, and the broker is asked (MQTT 5 maximum
                                packet size N + 65552) not to send one
              --config FILE     read options from FILE: 'key = value' lines, the keys the long options without
                                '--' ('store = /var/lib/geofence/store.db'), '#' comments, 'true'/'false' for
                                flags; options given on the command line win

            Signals: SIGTERM/SIGINT stop after delivering what is queued (up to 10 s); a --exec command still
            running then gets SIGTERM, and SIGKILL 2 s later; SIGHUP re-reads the regions, and the MQTT files
            (certificates, key, password) at the next connection.
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        if let path = try arguments.option("--config") {
            arguments.include(try ConfigurationFile(path: path, command: "run"))
        }
        let storePath = try arguments.option("--store")
        let input = try ObservationInput(
            gpsd: try arguments.option("--gpsd"), nmea: try arguments.option("--nmea"), arguments: arguments)
        var options = Daemon.Options(storePath: storePath ?? "", input: input)
        options.fencesPath = try arguments.option("--fences")
        options.radius = try arguments.number("--radius", in: 1...50_000) ?? 100
        options.datum = try FenceLoading.datumOption(&arguments)
        options.approach = try FenceLoading.approachOption(&arguments)
        options.format = try EventFormat(parsing: try arguments.option("--format"), in: arguments)
        if let exec = try arguments.option("--exec") {
            do { options.execCommand = try CommandWords.split(exec) } catch {
                throw arguments.usageError("--exec: \(error.message)")
            }
        }
        options.mqttURL = try arguments.option("--mqtt")
        options.mqttSecurity = try mqttSecurity(&arguments, url: options.mqttURL)
        options.mqttFormat = try mqttFormat(&arguments, url: options.mqttURL)
        options.statusInterval = Int(try arguments.number("--status-interval", in: 0...86_400) ?? 60)
        options.maxFenceSetBytes = Int(
            try arguments.number("--max-fence-set-bytes", in: 1...256_000_000)
                ?? Double(FenceSetApplier.defaultMaximumBytes))
        try arguments.finish()
        guard storePath != nil else { throw arguments.usageError("--store PATH is required") }

        // Signals are taken with sigwait on a thread of their own: blocked here, before the daemon starts any
        // thread, so every thread inherits the block and none dies of SIGTERM. (A parent's blocked mask, such as
        // a test runner's, cannot hide them from sigwait either.)
        SignalWaiter.block([SIGTERM, SIGINT, SIGHUP])
        // A consumer that goes away must not kill the daemon with SIGPIPE: the write fails and is retried.
        signal(SIGPIPE, SIG_IGN)
        let daemon = Daemon(options: options)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        let task = Task {
            do { try await daemon.run() } catch { outcome.record(error) }
            finished.signal()
        }
        SignalWaiter.start([SIGTERM, SIGINT, SIGHUP]) { number in
            if number == SIGHUP { daemon.requestReload() } else { task.cancel() }
        }
        finished.wait()
        if let error = outcome.error { throw error }
    }
}

extension RunCommand {
    /// --mqtt-ca, --mqtt-cert, --mqtt-key, --mqtt-user, --mqtt-password-file, checked against --mqtt's URL (its
    /// files are read when the sink is made, still before the store is opened).
    static func mqttSecurity(_ arguments: inout ArgumentList, url: String?) throws -> MQTTSecurity {
        let security = MQTTSecurity(
            caFile: try arguments.option("--mqtt-ca"), certificateFile: try arguments.option("--mqtt-cert"),
            keyFile: try arguments.option("--mqtt-key"), user: try arguments.option("--mqtt-user"),
            passwordFile: try arguments.option("--mqtt-password-file"))
        guard let url else {
            if security != MQTTSecurity() { throw arguments.usageError("the --mqtt-... options need --mqtt URL") }
            return security
        }
        let address: MQTTAddress
        do { address = try MQTTAddress(url: url) } catch { throw arguments.usageError("--mqtt: \(error.message)") }
        if !address.usesTLS, security.caFile != nil || security.certificateFile != nil || security.keyFile != nil {
            throw arguments.usageError("--mqtt-ca, --mqtt-cert and --mqtt-key need an mqtts:// URL")
        }
        if (security.certificateFile == nil) != (security.keyFile == nil) {
            throw arguments.usageError(
                security.certificateFile == nil ? "--mqtt-key needs --mqtt-cert" : "--mqtt-cert needs --mqtt-key")
        }
        if (security.user == nil) != (security.passwordFile == nil) {
            throw arguments.usageError(
                security.user == nil
                    ? "--mqtt-password-file needs --mqtt-user" : "--mqtt-user needs --mqtt-password-file")
        }
        return security
    }
}

extension RunCommand {
    /// --mqtt-format and --mqtt-tid, checked against --mqtt's URL (owntracks needs owntracks/USER/DEVICE).
    static func mqttFormat(_ arguments: inout ArgumentList, url: String?) throws -> MQTTFormat {
        let name = try arguments.option("--mqtt-format")
        let trackerID = try arguments.option("--mqtt-tid")
        guard let url else {
            if name != nil || trackerID != nil { throw arguments.usageError("the --mqtt-... options need --mqtt URL") }
            return .geofence
        }
        if trackerID != nil && name != "owntracks" {
            throw arguments.usageError("--mqtt-tid needs --mqtt-format owntracks")
        }
        if let trackerID, trackerID.isEmpty || trackerID.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw arguments.usageError("--mqtt-tid \"\(PrintableText.escaped(trackerID))\": expected a short name")
        }
        do {
            return try MQTTFormat(name: name ?? "geofence", trackerID: trackerID, address: try MQTTAddress(url: url))
        } catch {
            throw arguments.usageError("--mqtt-format: \(error.message)")
        }
    }
}

/// The daemon task's error, handed from the task to the waiting main thread.
private final class Outcome: @unchecked Sendable {
    // @unchecked: written once by the task before it signals; read by the main thread after the wait.
    private(set) var error: (any Error)?
    func record(_ error: any Error) { self.error = error }
}

/// Signals taken synchronously: blocked in every thread, received by one thread in sigwait(3).
enum SignalWaiter {
    /// Blocks `signals` in the calling thread (and so in every thread it creates afterwards).
    static func block(_ signals: [Int32]) {
        var set = Self.set(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts a thread that calls `handler` with each of `signals` as it arrives (they must be blocked).
    static func start(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            var set = Self.set(signals)
            while true {
                var number: Int32 = 0
                if sigwait(&set, &number) == 0 { handler(number) }
            }
        }
        thread.name = "signals"
        thread.start()
    }

    private static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
