#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's standard output and error, written with whole-line write(2) calls: a line is never interleaved
/// with another thread's, and what is written is out of the process at once (no stdio buffer a kill -9 would lose).
enum Console {
    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }
    static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Writes `text` plus a newline unless it ends with one. Errors (a closed pipe) are ignored: there is nowhere
    /// left to report them.
    private static func write(_ text: String, to descriptor: Int32) {
        var line = text
        if !line.hasSuffix("\n") { line += "\n" }
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
