/// Turns a `FenceJSONSyntaxError` into a `FenceFileError` with the line and column of the file.
///
/// An error with an offset is reported at its line and column: `invalid JSON at column 16: Invalid value around
/// character 48.`; one without (the text ends inside a value) at the last line, as a probably cut-off file.
enum FenceJSONSyntax {
    static func error(
        _ error: FenceJSONSyntaxError, in bytes: UnsafeBufferPointer<UInt8>, file: String
    ) -> FenceFileError {
        if let offset = error.offset {
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            return FenceFileError(file: file, line: line, message: "invalid JSON at column \(column): \(error.reason)")
        }
        let lastLine = lineAndColumn(of: bytes.count, in: bytes).line
        let ending = error.reason.contains("end of file") ? " (is the file cut off?)" : ""
        return FenceFileError(file: file, line: lastLine, message: "invalid JSON: \(error.reason)\(ending)")
    }

    /// 1-based line (LF, CRLF or CR end a line) and 1-based column in Unicode scalars.
    private static func lineAndColumn(
        of offset: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> (line: Int, column: Int) {
        var line = 1, column = 1, index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), index + 1 < offset, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new scalar
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}
