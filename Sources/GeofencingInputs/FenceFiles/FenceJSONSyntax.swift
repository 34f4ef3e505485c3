import Foundation

/// Turns JSONSerialization's syntax errors into a line and column of the file.
///
/// Foundation on Linux reports "Invalid value around character N." with N a 0-based byte offset into the UTF-8 text
/// after its byte order mark (measured, Swift 6.3), or "Unexpected end of file during JSON parse." without one
/// (reported at the last line: the file is probably cut off).
enum FenceJSONSyntax {
    static func error(_ error: any Error, in data: Data, file: String) -> FenceFileError {
        let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            if let offset = offset(in: reason).map({ $0 + bom }), offset <= bytes.count {
                let (line, column) = lineAndColumn(of: offset, in: bytes)
                return FenceFileError(file: file, line: line, message: "invalid JSON at column \(column): \(reason)")
            }
            let lastLine = lineAndColumn(of: bytes.count, in: bytes).line
            let ending = reason.localizedCaseInsensitiveContains("end of file") ? " (is the file cut off?)" : ""
            return FenceFileError(file: file, line: lastLine, message: "invalid JSON: \(reason)\(ending)")
        }
    }

    /// N of "... character N ..." in Foundation's message.
    private static func offset(in reason: String) -> Int? {
        guard let range = reason.range(of: "character ") else { return nil }
        return Int(reason[range.upperBound...].prefix { $0.isNumber })
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
