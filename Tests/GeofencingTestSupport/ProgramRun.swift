// Shared test support: running a helper program (mount, systemd-analyze, a sandbox script) to its end.
import Foundation

public enum ProgramRun {
    /// Runs `executable` with `arguments` to its end; its exit status and what it printed on standard output and
    /// error together (one pipe, read to its end before the wait, so a chatty program cannot block on it).
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
