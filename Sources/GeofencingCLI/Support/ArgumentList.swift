/// The arguments of one subcommand, consumed as the command asks for them: options (`--name VALUE` or
/// `--name=VALUE`), flags (`--name`), then positionals. `finish()` rejects whatever was not asked for, so a typo
/// never passes silently.
///
/// A configuration file's lines (`include(_:)`) join the list as `--key=value` arguments that remember their line,
/// so the file takes exactly the options the command takes, and an error about one of them names the file, the
/// line and the key.
struct ArgumentList: Sendable {
    let command: String
    private var arguments: [Argument]
    /// The names the command asked for, as options or as flags: a line of a configuration file left over with one
    /// of these keys is a repeat or a bad flag value, not an unknown key.
    private var askedOptions: Set<String> = []
    private var askedFlags: Set<String> = []
    /// The configuration lines whose values the command took, by option name, for errors about those values.
    private var takenLines: [String: ConfigurationFile.Line] = [:]

    private struct Argument: Sendable {
        var text: String
        /// nil: from the command line.
        var line: ConfigurationFile.Line?
    }

    init(command: String, _ arguments: [String]) {
        self.command = command
        self.arguments = arguments.map { Argument(text: $0, line: nil) }
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool { arguments.contains { $0.line == nil && ($0.text == "--help" || $0.text == "-h") } }

    /// Adds the lines of a configuration file after the command line's arguments, except those whose key the command
    /// line gives itself (`--key` or `--key=...`): the command line wins, repeats and all.
    mutating func include(_ file: ConfigurationFile) {
        let onCommandLine = Set(arguments.compactMap { argument -> String? in
            guard argument.line == nil, argument.text.hasPrefix("--") else { return nil }
            return String(argument.text.dropFirst(2).prefix { $0 != "=" })
        })
        for line in file.lines where !onCommandLine.contains(line.key) {
            arguments.append(Argument(text: "--\(line.key)=\(line.value)", line: line))
        }
    }

    /// Removes and returns the value of `--name`; nil when absent. The value may not be another option ("-" alone is
    /// a value: standard input).
    mutating func option(_ name: String) throws(CLIError) -> String? {
        askedOptions.insert(name)
        for index in arguments.indices {
            let argument = arguments[index]
            if argument.text.hasPrefix(name + "=") {
                arguments.remove(at: index)
                if let line = argument.line { takenLines[name] = line }
                return String(argument.text.dropFirst(name.count + 1))
            }
            if argument.text == name {
                guard index + 1 < arguments.count, arguments[index + 1].line == nil,
                    !Self.isOption(arguments[index + 1].text)
                else {
                    throw usageError("\(name) needs a value")
                }
                let value = arguments[index + 1].text
                arguments.removeSubrange(index...index + 1)
                return value
            }
        }
        return nil
    }

    /// `option(name)` as a number within `range`.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw usageError("\(name) \(text): expected a number in \(range.lowerBound) ... \(range.upperBound)")
        }
        return value
    }

    /// Removes `--name` and tells whether it was there. In a configuration file the flag is `key = true` or
    /// `key = false`; any other value stays in the list for `finish()` to report.
    mutating func flag(_ name: String) -> Bool {
        askedFlags.insert(name)
        if let index = arguments.firstIndex(where: { $0.line == nil && $0.text == name }) {
            arguments.remove(at: index)
            return true
        }
        for value in ["true", "false"] {
            if let index = arguments.firstIndex(where: { $0.line != nil && $0.text == "\(name)=\(value)" }) {
                arguments.remove(at: index)
                return value == "true"
            }
        }
        return false
    }

    /// Removes and returns the next positional argument (call after all options), or throws naming `what`.
    mutating func positional(_ what: String) throws(CLIError) -> String {
        guard let value = optionalPositional() else { throw usageError("missing \(what)") }
        return value
    }

    mutating func optionalPositional() -> String? {
        guard let index = arguments.firstIndex(where: { $0.line == nil && !Self.isOption($0.text) }) else {
            return nil
        }
        return arguments.remove(at: index).text
    }

    /// Throws a usage error for anything left over.
    func finish() throws(CLIError) {
        guard let first = arguments.first else { return }
        guard let line = first.line else {
            throw usageError(
                Self.isOption(first.text) ? "unknown option \(first.text)" : "unexpected argument \(first.text)")
        }
        let name = "--" + line.key
        if askedFlags.contains(name) {
            throw usageError(line.problem("expected true or false, not \"\(line.value)\""))
        }
        if askedOptions.contains(name) { throw usageError(line.problem("given more than once")) }
        throw usageError("\(line.place): unknown key \"\(line.key)\"")
    }

    /// A usage error; one that begins with an option whose value came from a configuration file ("--radius 0: ...")
    /// names the file, the line and the key first.
    func usageError(_ message: String) -> CLIError {
        let name = String(message.prefix { $0 != " " && $0 != ":" && $0 != "=" })
        let text = takenLines[name].map { $0.problem(message) } ?? message
        return .usage(command: command, message: "geofence \(command): \(text)")
    }

    /// A negative number ("-5") or point ("-27.5,153.0", for `geofence convert`) is a value, not an option.
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && Double(argument.prefix { $0 != "," }) == nil
    }
}
