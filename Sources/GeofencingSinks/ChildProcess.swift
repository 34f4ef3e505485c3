import Glibc

/// A command started with posix_spawnp for one event: its own process group, a clean signal state, standard input
/// from a descriptor of ours, standard output and error inherited.
struct ChildProcess {
    /// How a child ended, from its wait status.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// waitpid failed (ECHILD: something else in the process reaped the child).
        case unknown(Int32)
    }

    /// posix_spawnp's error number.
    struct SpawnFailure: Error {
        var code: Int32
    }

    let processID: pid_t

    /// Starts `arguments[0]`, looked up in PATH as execvp does, with `arguments` as argv and `environment`
    /// ("NAME=value") as its whole environment, reading `standardInput` as descriptor 0.
    ///
    /// The child gets an empty signal mask and default dispositions for the signals a daemon may block or ignore:
    /// a child inherits both across exec, so without this a command started by a daemon that ignores SIGPIPE (ours
    /// does) or a test runner that blocks SIGTERM would not die of them. It runs in a process group of its own,
    /// so that a timeout kills whatever it started too.
    ///
    /// - Returns: the child, or the errno posix_spawnp gave (glibc reports exec failures such as ENOENT here).
    static func spawn(
        _ arguments: [String], environment: [String], standardInput: Int32
    ) -> Result<ChildProcess, SpawnFailure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [
            SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU,
        ] {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on descriptor 0; the pipe's own descriptors are close-on-exec and vanish.
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        for descriptor in inheritableDescriptors() where descriptor != standardInput {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var processID: pid_t = 0
        let result = posix_spawnp(&processID, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(SpawnFailure(code: result)) }
        return .success(ChildProcess(processID: processID))
    }

    /// The process's descriptors above 2 without close-on-exec, from /proc/self/fd: a library that opened a socket
    /// or file without O_CLOEXEC would otherwise hand it to every command, which keeps it open for as long as it
    /// runs (a TCP connection we closed stays up; a script we are writing cannot be run: ETXTBSY). glibc's
    /// posix_spawn_file_actions_addclosefrom_np would do this, but Swift does not see it. A descriptor closed
    /// meanwhile by another thread is harmless: glibc ignores EBADF from a close action.
    private static func inheritableDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let descriptor = Int32(name), descriptor > 2, descriptor != own else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { descriptors.append(descriptor) }
        }
        return descriptors
    }

    /// Waits for the child to end, until `deadline`; nil if it is still running then. Polls waitpid(WNOHANG) with
    /// pauses growing from 0.5 ms to 20 ms: no SIGCHLD handler (process-wide) and no pidfd (Linux 5.3+) needed;
    /// the exit is seen within 20 ms.
    func waitForExit(until deadline: ContinuousClock.Instant) -> Termination? {
        var pause = Duration.microseconds(500)
        while true {
            var status: Int32 = 0
            let result = waitpid(processID, &status, WNOHANG)
            if result == processID { return Self.termination(status) }
            if result < 0 {
                if errno == EINTR { continue }
                return .unknown(errno)
            }
            let left = deadline - .now
            if left <= .zero { return nil }
            Self.sleep(min(pause, left))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// SIGKILL to the child's process group (the child and whatever it started), then reaps the child.
    func kill() {
        _ = Glibc.kill(-processID, SIGKILL)
        _ = Glibc.kill(processID, SIGKILL)
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
    }

    /// Decodes a wait status (the WIFEXITED / WEXITSTATUS / WTERMSIG macros, which Swift does not import).
    static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }

    private static func sleep(_ duration: Duration) {
        let parts = duration.components
        var request = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
