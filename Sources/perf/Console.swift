import Glibc

/// Where text goes. With --json, stdout carries exactly one JSON object and nothing else, so every line meant for
/// people (progress, notes, the table) goes to stderr; without it the table and notes go to stdout.
struct Console {
    let reportToStandardOutput: Bool

    /// Progress while measuring: always stderr, so redirecting stdout captures only the report.
    func progress(_ line: String) {
        writeToStandardError(line + "\n")
    }

    /// The human report: the table and the checks under it.
    func report(_ line: String) {
        if reportToStandardOutput {
            print(line)
        } else {
            writeToStandardError(line + "\n")
        }
    }
}

/// Unbuffered, so that it interleaves sensibly with a child process writing to the same stream.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
