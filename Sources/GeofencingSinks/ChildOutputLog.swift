/// What a command prints on its standard output and error, for the daemon's log: line by line, each line prefixed
/// with the sink, the command and the stream, control characters escaped (`PrintableText`), and at most `limit`
/// bytes of it per run. Past the limit the output is still read (so the command never blocks on a full pipe) but
/// dropped, and one closing line says how many bytes were.
///
///     exec: "notify" #17 stdout: sent to 3 recipients
///     exec: "notify" #17 stderr: warning: slow server
///     exec: "notify" #17: 1048576 more bytes of output dropped (over 8192 per event)
///
/// Memory: at most `limit` bytes of partial lines.
struct ChildOutputLog {
    enum Stream: String {
        case standardOutput = "stdout"
        case standardError = "stderr"
    }

    private let prefix: String
    private let limit: Int
    private let write: (String) -> Void
    /// Bytes of output taken into the log so far, newlines included.
    private var kept = 0
    private var dropped = 0
    private var partialLines: [Stream: [UInt8]] = [:]

    /// - Parameters:
    ///   - prefix: what each line starts with, e.g. `exec: "notify" #17`.
    ///   - limit: the most bytes of output logged.
    ///   - write: takes one finished log line, without a newline.
    init(prefix: String, limit: Int, write: @escaping (String) -> Void) {
        self.prefix = prefix
        self.limit = limit
        self.write = write
    }

    /// Takes bytes the command wrote on `stream`: complete lines are logged at once.
    mutating func take(_ bytes: some Collection<UInt8>, from stream: Stream) {
        let room = max(0, limit - kept)
        let taken = bytes.prefix(room)
        dropped += bytes.count - taken.count
        kept += taken.count
        var line = partialLines[stream] ?? []
        for byte in taken {
            if byte == UInt8(ascii: "\n") {
                log(line, from: stream)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        partialLines[stream] = line
    }

    /// Logs the unfinished last lines, and how much was dropped.
    mutating func finish() {
        for stream in [Stream.standardOutput, .standardError] {
            if let line = partialLines[stream], !line.isEmpty { log(line, from: stream) }
        }
        partialLines = [:]
        if dropped > 0 { write("\(prefix): \(dropped) more bytes of output dropped (over \(limit) per event)") }
    }

    private func log(_ line: [UInt8], from stream: Stream) {
        // Invalid UTF-8 becomes U+FFFD; a line cut at the limit may end in one.
        write("\(prefix) \(stream.rawValue): \(PrintableText.escaped(String(decoding: line, as: UTF8.self)))")
    }
}
