// Shared test support: starting a server (gpsfake, mosquitto) as a child that signals can stop.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum ServerSpawn {
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Starts `arguments[0]` (a path) with stdin from /dev/null and stdout and stderr into `output`, and no other
    /// descriptor of this process.
    ///
    /// posix_spawn with an empty signal mask and default SIGINT/SIGTERM/SIGPIPE: a child of `swift test` otherwise
    /// inherits a mask that blocks SIGINT and SIGTERM and ignores every attempt to stop it
    /// (../shared/notes/gpsd-testing.md). With `newProcessGroup`, the child leads a group of its own, so it and its
    /// children can be killed together; with `appending`, `output` keeps what earlier runs wrote.
    public static func start(
        _ arguments: [String], output: String, appending: Bool = false, newProcessGroup: Bool = false
    ) throws(Failure) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, output, O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC), 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Foundation opens pipes and files without close-on-exec: a server that lives through other tests would
        // otherwise hold, for instance, the write end of a daemon's standard input, which then never ends.
        guard closeFrom(&actions, 3) == 0 else { throw Failure(message: "posix_spawn_file_actions_addclosefrom_np failed") }

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw Failure(message: "posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return processID
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34), which Swift's Glibc module does not declare: looked
    /// up at run time, like the pseudo-terminal functions of the input tests.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc without posix_spawn_file_actions_addclosefrom_np (2.34 or later needed)")
        }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
