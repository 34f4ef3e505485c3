import Glibc

/// A command started with posix_spawnp for one event: its own process group, a clean signal state, standard input,
/// output and error on descriptors of ours (pipes), nothing else inherited.
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
    /// ("NAME=value") as its whole environment, with `standardInput`, `standardOutput` and `standardError` as its
    /// descriptors 0, 1 and 2.
    ///
    /// The child gets an empty signal mask and default dispositions for the signals a daemon may block or ignore:
    /// a child inherits both across exec, so without this a command started by a daemon that ignores SIGPIPE (ours
    /// does) or a test runner that blocks SIGTERM would not die of them. It runs in a process group of its own,
    /// so that a stop reaches whatever it started too.
    ///
    /// - Returns: the child, or the errno posix_spawnp gave (glibc reports exec failures such as ENOENT here).
    static func spawn(
        _ arguments: [String], environment: [String], standardInput: Int32, standardOutput: Int32,
        standardError: Int32
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
        // dup2 clears close-on-exec on descriptors 0, 1, 2; the pipes' own descriptors are close-on-exec and vanish.
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        let own: Set<Int32> = [standardInput, standardOutput, standardError]
        for descriptor in inheritableDescriptors() where !own.contains(descriptor) {
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

    /// Whether the child has ended, without reaping it (waitid with WNOWAIT): until `reap()`, the ended child stays
    /// a zombie that holds its process ID and so its process group's, so that `signalGroup` can never reach an
    /// unrelated process that got the number again.
    func hasEnded() -> Bool {
        var information = siginfo_t()
        while waitid(P_PID, id_t(processID), &information, WEXITED | WNOHANG | WNOWAIT) != 0 {
            if errno != EINTR { return true }  // ECHILD: reaped elsewhere; nothing left to wait for
        }
        return information.si_signo == SIGCHLD
    }

    /// Sends `signal` to the child's process group: the child and whatever it started that stayed in the group.
    func signalGroup(_ signal: Int32) {
        _ = Glibc.kill(-processID, signal)
    }

    /// Waits for the child to end (at once, when `hasEnded()`) and reaps it.
    func reap() -> Termination {
        var status: Int32 = 0
        while true {
            if waitpid(processID, &status, 0) == processID { return Self.termination(status) }
            if errno != EINTR { return .unknown(errno) }
        }
    }

    /// Decodes a wait status (the WIFEXITED / WEXITSTATUS / WTERMSIG macros, which Swift does not import).
    static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }
}
