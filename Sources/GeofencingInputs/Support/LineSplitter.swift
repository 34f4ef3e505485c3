/// Cuts a byte stream that arrives in arbitrary chunks (a serial port, a pipe, a file) into lines.
///
/// LF, CRLF and a lone CR all end a line, so logs written on any system (and CR-only receivers) read alike. Lines are
/// bytes, not strings: a log can hold binary noise, and decoding belongs to whoever knows the format. A line longer
/// than `maximumLength` is not kept in memory: its bytes are dropped as they come and only its length is reported,
/// so a stream without any line terminator cannot exhaust memory.
struct LineSplitter {
    enum Line: Equatable {
        /// A line without its terminator.
        case text([UInt8])
        /// A line longer than the maximum; its content was discarded.
        case overlong(byteCount: Int)
    }

    let maximumLength: Int
    private var pending: [UInt8] = []
    private var droppedBytes = 0
    /// The previous chunk ended in CR: an LF at the start of the next chunk belongs to the same CRLF.
    private var afterCarriageReturn = false

    init(maximumLength: Int) {
        precondition(maximumLength > 0, "a line must be allowed at least one byte")
        self.maximumLength = maximumLength
    }

    /// Appends `bytes` and adds every line they complete to `lines`.
    mutating func split(_ bytes: some Sequence<UInt8>, into lines: inout [Line]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if afterCarriageReturn {
                    afterCarriageReturn = false
                } else {
                    lines.append(takeLine())
                }
            case UInt8(ascii: "\r"):
                afterCarriageReturn = true
                lines.append(takeLine())
            default:
                afterCarriageReturn = false
                if droppedBytes > 0 || pending.count == maximumLength {
                    droppedBytes += 1
                } else {
                    pending.append(byte)
                }
            }
        }
    }

    /// The last line when the stream ends without a terminator.
    mutating func finish(into lines: inout [Line]) {
        if !pending.isEmpty || droppedBytes > 0 {
            lines.append(takeLine())
        }
        afterCarriageReturn = false
    }

    private mutating func takeLine() -> Line {
        defer {
            pending.removeAll(keepingCapacity: true)
            droppedBytes = 0
        }
        if droppedBytes > 0 { return .overlong(byteCount: pending.count + droppedBytes) }
        return .text(pending)
    }
}
