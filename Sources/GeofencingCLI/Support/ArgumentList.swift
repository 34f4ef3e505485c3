/// The arguments of one subcommand, consumed as the command asks for them: options (`--name VALUE` or
/// `--name=VALUE`), flags (`--name`), then positionals. `finish()` rejects whatever was not asked for, so a typo
/// never passes silently.
struct ArgumentList: Sendable {
    let command: String
    private var arguments: [String]

    init(command: String, _ arguments: [String]) {
        self.command = command
        self.arguments = arguments
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool { arguments.contains("--help") || arguments.contains("-h") }

    /// Removes and returns the value of `--name`; nil when absent. The value may not be another option ("-" alone is
    /// a value: standard input).
    mutating func option(_ name: String) throws(CLIError) -> String? {
        for index in arguments.indices {
            let argument = arguments[index]
            if argument.hasPrefix(name + "=") {
                arguments.remove(at: index)
                return String(argument.dropFirst(name.count + 1))
            }
            if argument == name {
                guard index + 1 < arguments.count, !Self.isOption(arguments[index + 1]) else {
                    throw usageError("\(name) needs a value")
                }
                let value = arguments[index + 1]
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

    /// Removes `--name` and tells whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = arguments.firstIndex(of: name) else { return false }
        arguments.remove(at: index)
        return true
    }

    /// Removes and returns the next positional argument (call after all options), or throws naming `what`.
    mutating func positional(_ what: String) throws(CLIError) -> String {
        guard let value = optionalPositional() else { throw usageError("missing \(what)") }
        return value
    }

    mutating func optionalPositional() -> String? {
        guard let index = arguments.firstIndex(where: { !Self.isOption($0) }) else { return nil }
        return arguments.remove(at: index)
    }

    /// Throws a usage error for anything left over.
    func finish() throws(CLIError) {
        guard let first = arguments.first else { return }
        throw usageError(Self.isOption(first) ? "unknown option \(first)" : "unexpected argument \(first)")
    }

    func usageError(_ message: String) -> CLIError {
        .usage(command: command, message: "geofence \(command): \(message)")
    }

    /// A negative number ("-5") or point ("-27.5,153.0", for `geofence convert`) is a value, not an option.
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && Double(argument.prefix { $0 != "," }) == nil
    }
}
