import Glibc

/// Numbers from unoptimised code say nothing about the core or about Swift, so perf never reports them: a debug build
/// rebuilds the package's perf product in release and replaces itself with that binary (same arguments), and refuses
/// to run if it cannot.
enum ReleaseBuild {
    #if DEBUG
    static let isDebugBuild = true
    #else
    static let isDebugBuild = false
    #endif

    /// The package root, from this file's compile-time path (<root>/Sources/perf/ReleaseBuild.swift).
    static let packageRoot: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// In a release build: returns at once. In a debug build: runs `swift build -c release --product perf` in the
    /// package root, with the scratch path this debug binary was built in (its output goes to stderr, keeping stdout
    /// clean for --json), then execs <scratch>/release/perf with `arguments`. Returns only with the reason it could
    /// not do that.
    static func replaceDebugProcess(arguments: [String]) -> String? {
        guard isDebugBuild else { return nil }
        let scratch = scratchPath()
        writeToStandardError("perf: this is a debug build; building perf in release (swift build -c release "
            + "--product perf --scratch-path \(scratch) in \(packageRoot)) and running that instead\n")
        if let failure = failureOfCommand(["swift", "build", "-c", "release", "--product", "perf",
                                           "--package-path", packageRoot, "--scratch-path", scratch]) {
            return "the release build failed (\(failure)); build it yourself with "
                + "`swift build -c release --product perf` and run .build/release/perf"
        }
        let releaseBinary = scratch + "/release/perf"
        writeToStandardError("perf: exec \(releaseBinary)\n")
        var cArguments = ([releaseBinary] + arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(releaseBinary, &cArguments)
        let reason = String(cString: strerror(errno))  // execv returns only on failure
        cArguments.forEach { free($0) }
        return "could not run \(releaseBinary): \(reason)"
    }

    /// The scratch directory this binary was built in: SwiftPM puts it at <scratch>/<triple>/debug/perf (with
    /// <scratch>/debug a link to <triple>/debug), so `swift build --scratch-path DIR` and the default .build both
    /// work. Falls back to <root>/.build when the binary is not where SwiftPM puts it.
    private static func scratchPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return packageRoot + "/.build" }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var components = executable.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 3, components[components.count - 2] == "debug" else { return packageRoot + "/.build" }
        components.removeLast(3)
        return components.joined(separator: "/")
    }

    /// Runs a command found on PATH, its stdout sent to our stderr, and waits for it. Returns nil when it exited
    /// with status 0, else how it failed.
    private static func failureOfCommand(_ command: [String]) -> String? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)

        var cArguments = command.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawnError = posix_spawnp(&child, command[0], &actions, nil, &cArguments, environ)
        guard spawnError == 0 else { return "cannot start \(command[0]): \(String(cString: strerror(spawnError)))" }

        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS are macros Swift cannot see; this is their glibc definition.
        let signal = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        if signal != 0 { return "killed by signal \(signal)" }
        return exitStatus == 0 ? nil : "exit status \(exitStatus)"
    }
}
