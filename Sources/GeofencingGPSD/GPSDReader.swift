#if GPSD
import CGPS
import Foundation

/// The reader thread of a `GPSDSource`: connect, watch, read until the connection ends, wait, reconnect; until a
/// stop is requested. Runs on its own thread and blocks only there.
struct GPSDReader {
    let core: ReaderCore
    let libgps: LibGPS
    let configuration: GPSDConfiguration

    init(core: ReaderCore) {
        self.core = core
        self.configuration = core.configuration
        #if DEBUG
        self.libgps = LibGPS(faultHook: core.faultHook)
        #else
        self.libgps = LibGPS()
        #endif
    }

    /// How one connection ended.
    enum SessionEnd {
        case stopped
        case failed(GPSDError)
    }

    /// The thread's body.
    func run() {
        Self.blockSignals()
        // Attempts that failed without a word from gpsd since the start or since gpsd last answered. A gpsd that
        // answered is alive (restarted, or its receiver went quiet): the next attempt comes after the shortest
        // wait. Only refusals and silence make the wait grow.
        var silentFailures = 0
        while !core.isStopRequested {
            core.publish(.connecting(attempt: silentFailures + 1))
            var heardFromGPSD = false
            let end = session(heardFromGPSD: &heardFromGPSD)
            guard case .failed(let error) = end else { break }
            // An oversized line is gpsd (or what poses as it) misbehaving, not answering: it counts as silence.
            silentFailures = heardFromGPSD && error != .oversizedMessage ? 0 : silentFailures + 1
            core.count { $0.failures += 1 }
            let delay = configuration.backoff.delay(afterFailures: max(1, silentFailures))
            core.publish(.waitingToReconnect(delay: delay, reason: error))
            if waitForStop(timeout: delay) { break }
        }
        core.finish()
    }

    /// One connection: open, watch, read reports until it fails, stalls or a stop is requested; always closed on
    /// the way out.
    private func session(heardFromGPSD: inout Bool) -> SessionEnd {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        defer {
            data.deinitialize(count: 1)
            data.deallocate()
        }
        let host = configuration.host
        let port = String(configuration.port)
        if case .failure(let error) = libgps.call(.open, { gps_open(host, port, data) }) {
            return .failed(error)  // gps_open closes its socket itself when it fails
        }
        defer { _ = libgps.call(.close) { gps_close(data) } }

        let socket = data.pointee.gps_fd
        // libgps sets O_NONBLOCK (relied on below: gps_read returns 0 instead of blocking) but not FD_CLOEXEC;
        // set both, so a child process never inherits the connection.
        let flags = libgps.call(.fcntl) { fcntl(socket, F_GETFL) }
            .flatMap { flags in libgps.call(.fcntl) { fcntl(socket, F_SETFL, flags | O_NONBLOCK) } }
            .flatMap { _ in libgps.call(.fcntl) { fcntl(socket, F_SETFD, FD_CLOEXEC) } }
        if case .failure(let error) = flags { return .failed(error) }

        if case .failure(let error) = libgps.call(.stream, { gps_stream(data, WATCH_ENABLE | WATCH_JSON, nil) }) {
            Self.discardPendingSIGPIPE()
            return .failed(error)
        }
        core.count { $0.connections += 1 }
        core.publish(.connected)

        var epochs = TPVEpochAssembler()
        defer { if let held = epochs.flush() { deliver(held) } }  // the connection's last epoch
        let clock = ContinuousClock()
        var lastMessage = clock.now
        while !core.isStopRequested {
            data.pointee.set = 0  // libgps only ORs bits into `set`, except for TPV (see deliverReport)
            switch libgps.call(.read, { gps_read(data, nil, 0) }) {
            case .failure(.connectionClosed) where !isAtEnd(socket):
                // libgps fails the same way (-1, errno 0) at the end of the connection and when its buffer is full
                // without a whole line; the socket tells them apart.
                return .failed(.oversizedMessage)
            case .failure(let error):
                Self.discardPendingSIGPIPE()
                return .failed(error)
            case .success(let length) where length > 0:
                lastMessage = clock.now
                heardFromGPSD = true
                if data.pointee.set & STATUS_SET != 0 {
                    accept(TPVReport(data.pointee.fix), into: &epochs)
                } else if data.pointee.set & GST_SET != 0, let done = epochs.add(GSTReport(data.pointee.gst)) {
                    deliver(done)
                }
                continue  // more may be buffered: read until libgps has no whole line left
            case .success:
                break  // no whole line buffered and nothing more on the socket yet
            }
            let silence = clock.now - lastMessage
            if silence >= configuration.stallTimeout { return .failed(.stalled(after: configuration.stallTimeout)) }
            switch waitForData(on: socket, timeout: configuration.stallTimeout - silence) {
            case .success(true): return .stopped
            case .success(false): continue
            case .failure(let error): return .failed(error)
            }
        }
        return .stopped
    }

    /// Counts one TPV report and hands it to the epoch assembler, which passes on the previous epoch once this one
    /// begins it; a report without a usable time or with an invalid mode has no epoch and ends here. libgps's
    /// JSON unpacker sets `set = STATUS_SET | ...` for a TPV report and only ORs bits in for the other classes
    /// (libgps_json.c since gpsd 3.20; seen with 3.22), so with `set` cleared before `gps_read`, `STATUS_SET`
    /// means "this message was a TPV" (and `GST_SET` alone a GST). Its fields are defaulted (NaN, time 0) before
    /// each TPV is unpacked, so nothing is carried over from the previous report.
    private func accept(_ report: TPVReport, into epochs: inout TPVEpochAssembler) {
        let reading = report.reading
        core.count { statistics in
            statistics.reports += 1
            switch reading {
            case .observation(.fix): statistics.fixes += 1
            case .observation(.noFix): statistics.noFixes += 1
            case .untimed: statistics.untimedReports += 1
            case .invalid: statistics.invalidReports += 1
            }
        }
        guard case .observation = reading, let done = epochs.add(report) else { return }
        deliver(done)
    }

    /// Passes on the report of a completed epoch (with its GST, if any).
    private func deliver(_ report: TPVReport) {
        if case .observation(let observation) = report.reading { core.deliver(observation) }
    }

    /// Whether gpsd closed its end of the connection: a peek at the socket reads end-of-file (0 bytes) or fails as
    /// a closed connection does. Bytes waiting, or none yet on an open connection, mean it was not the end.
    private func isAtEnd(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        switch libgps.call(.peek, { Int32(clamping: recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))) }) {
        case .success(let count): return count == 0
        case .failure(.callFailed(_, let code, _)): return code != EAGAIN && code != EWOULDBLOCK && code != EINTR
        case .failure: return true
        }
    }

    /// Waits until gpsd's socket is readable (false) or a stop is requested (true), at most `timeout`.
    private func waitForData(on socket: Int32, timeout: Duration) -> Result<Bool, GPSDError> {
        var descriptors = [
            pollfd(fd: core.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
        ]
        let result = libgps.call(.poll) { poll(&descriptors, nfds_t(descriptors.count), timeout.pollMilliseconds) }
        switch result {
        case .success:
            return .success(descriptors[0].revents != 0)
        case .failure(.callFailed(_, EINTR, _)):
            return .success(core.isStopRequested)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Sleeps `timeout` unless a stop is requested first; true if it was.
    private func waitForStop(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !core.isStopRequested {
            let left = deadline - ContinuousClock.now
            if left <= .zero { return false }
            var descriptor = pollfd(fd: core.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            let result = libgps.call(.poll) { poll(&descriptor, 1, left.pollMilliseconds) }
            if case .failure(.callFailed(_, let code, _)) = result, code != EINTR {
                // poll itself failing (it cannot, short of a bug): still wait, in slices, rather than spin.
                Thread.sleep(forTimeInterval: min(left.seconds, 0.1))
            }
        }
        return true
    }

    /// Blocks every signal on the reader thread: process signals (SIGINT, SIGTERM, ...) go to the application's
    /// threads, and a SIGPIPE raised by libgps writing to a socket gpsd has closed (libgps uses write(2), without
    /// MSG_NOSIGNAL) stays pending on this thread instead of killing the process; the write then fails with EPIPE.
    private static func blockSignals() {
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
    }

    /// Consumes a SIGPIPE left pending on this thread by a failed write (see `blockSignals`).
    private static func discardPendingSIGPIPE() {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        guard sigismember(&pending, SIGPIPE) == 1 else { return }
        var noWait = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &noWait)
    }
}
#endif
