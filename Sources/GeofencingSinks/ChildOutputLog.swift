/// What a command prints on its standard output and error, for the daemon's log: line by line, each line prefixed
/// with the sink, the command and the stream, control characters escaped (`PrintableText`), and at most `limit`
/// bytes and `lineLimit` lines of it per run (so a flood of empty lines cannot make the prefixes fill the log). Past
/// a limit the output is still read (so the command never blocks on a full pipe) but dropped, and one closing line
/// says how many bytes were.
///
///     exec: "notify" #17 stdout: sent to 3 recipients
///     exec: "notify" #17 stderr: warning: slow server
///     exec: "notify" #17: 1048576 more bytes of output dropped (over 8192 bytes or 100 lines per event)
///
/// Memory: at most `limit` bytes of partial lines. Log: at most `lineLimit` + 3 lines, each its prefix and at most
/// 6 characters per byte of output (`\u{1f}`).
struct ChildOutputLog {
    enum Stream: String {
        case standardOutput = "stdout"
        case standardError = "stderr"
    }

    private let prefix: String
    private let limit: Int
    private let lineLimit: Int
    private let write: (String) -> Void
    /// Bytes of output taken into the log so far, newlines included.
    private var kept = 0
    private var dropped = 0
    /// Complete lines logged so far.
    private var lines = 0
    private var partialLines: [Stream: [UInt8]] = [:]

    /// - Parameters:
    ///   - prefix: what each line starts with, e.g. `exec: "notify" #17`.
    ///   - limit: the most bytes of output logged.
    ///   - lineLimit: the most complete lines logged (the unfinished last line of each stream comes on top).
    ///   - write: takes one finished log line, without a newline.
    init(prefix: String, limit: Int, lineLimit: Int, write: @escaping (String) -> Void) {
        self.prefix = prefix
        self.limit = limit
        self.lineLimit = lineLimit
        self.write = write
    }

    /// Takes bytes the command wrote on `stream`: complete lines are logged at once.
    mutating func take(_ bytes: some Collection<UInt8>, from stream: Stream) {
        var line = partialLines[stream] ?? []
        defer { partialLines[stream] = line }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            guard kept < limit && lines < lineLimit else {
                dropped += bytes.distance(from: index, to: bytes.endIndex)
                return
            }
            let byte = bytes[index]
            index = bytes.index(after: index)
            kept += 1
            if byte == UInt8(ascii: "\n") {
                log(line, from: stream)
                lines += 1
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
    }

    /// Logs the unfinished last lines, and how much was dropped.
    mutating func finish() {
        for stream in [Stream.standardOutput, .standardError] {
            if let line = partialLines[stream], !line.isEmpty { log(line, from: stream) }
        }
        partialLines = [:]
        if dropped > 0 {
            write(
                "\(prefix): \(dropped) more bytes of output dropped (over \(limit) bytes or \(lineLimit) lines per event)")
        }
    }

    private func log(_ line: [UInt8], from stream: Stream) {
        // Invalid UTF-8 becomes U+FFFD; a line cut at the limit may end in one.
        write("\(prefix) \(stream.rawValue): \(PrintableText.escaped(String(decoding: line, as: UTF8.self)))")
    }
}
