import Foundation
import GeofencingSinks

/// A command's options in a file (`geofence run --config /etc/geofence/geofence.conf`): one `key = value` a line,
/// the key an option's long name without "--" (`store = /var/lib/geofence/store.db`), `true` or `false` for a flag;
/// an option the command takes more than once on more than one line. Blank lines and lines whose first non-blank
/// character is "#" are skipped; a "#" after a value is part of it (an --exec command may hold one). Spaces around
/// key and value are dropped; the value is taken literally otherwise (no quotes, no escapes).
///
/// This type reads the lines only: which keys are valid is the command's own business, through `ArgumentList`, so
/// the file always takes exactly the options the command line does. Credentials stay in their own files: a key
/// naming a password (`password`, `mqtt-password`) is refused; the file names the password file instead.
struct ConfigurationFile: Sendable {
    struct Line: Sendable, Hashable {
        /// The path as given.
        var path: String
        /// 1-based.
        var number: Int
        var key: String
        var value: String

        /// "FILE:LINE".
        var place: String { "\(path):\(number)" }

        /// "FILE:LINE: key "KEY": `message`".
        func problem(_ message: String) -> String { "\(place): key \"\(key)\": \(message)" }
    }

    /// A file larger than this is not a configuration file.
    static let maximumBytes = 1 << 20

    let path: String
    let lines: [Line]

    /// Reads and parses the file at `path`.
    /// - Throws: `CLIError.usage` for `command` naming the file (and the line and key, for a line that is wrong).
    init(path: String, command: String) throws(CLIError) {
        func fail(_ message: String) -> CLIError {
            .usage(command: command, message: "geofence \(command): \(message)")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()
        } catch {
            throw fail("\(path): cannot read the configuration file: \(Self.reason(error))")
        }
        guard data.count <= Self.maximumBytes else {
            throw fail("\(path): larger than \(Self.maximumBytes) bytes: not a configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw fail("\(path): not UTF-8 text") }
        try self.init(path: path, text: text, command: command)
    }

    /// Parses `text` as the file `path`.
    init(path: String, text: String, command: String) throws(CLIError) {
        func fail(_ message: String) -> CLIError {
            .usage(command: command, message: "geofence \(command): \(message)")
        }
        var lines: [Line] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if content.isEmpty || content.hasPrefix("#") { continue }
            let number = index + 1
            guard let equals = content.firstIndex(of: "=") else {
                throw fail("\(path):\(number): expected 'key = value', not \"\(PrintableText.escaped(content))\"")
            }
            let key = content[..<equals].trimmingCharacters(in: .whitespaces)
            let value = content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let line = Line(path: path, number: number, key: key, value: value)
            guard !key.isEmpty else { throw fail("\(path):\(number): no key before \"=\"") }
            guard !key.hasPrefix("-"), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else {
                throw fail(
                    "\(path):\(number): unknown key \"\(PrintableText.escaped(key))\" (keys are option names without "
                        + "\"--\")")
            }
            if key == "password" || key.hasSuffix("-password") {
                throw fail(line.problem("a password does not belong in the configuration file: put it in a file "
                    + "of its own (mode 0600) and name that file (mqtt-password-file = ...)"))
            }
            if key == "config" { throw fail(line.problem("a configuration file cannot name another")) }
            guard !value.isEmpty else { throw fail(line.problem("no value (for a flag: true or false)")) }
            lines.append(line)
        }
        self.path = path
        self.lines = lines
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain, let code = Int32(exactly: underlying.code) {
            return String(cString: strerror(code))
        }
        return error.localizedDescription
    }
}
