import GeofencingSinks

/// `--format text|jsonl`: how events are printed on standard output.
enum EventFormat: String, Sendable, CaseIterable {
    case text, jsonl

    init(parsing text: String?, in arguments: ArgumentList) throws(CLIError) {
        guard let text else { self = .text; return }
        guard let format = EventFormat(rawValue: text) else {
            throw arguments.usageError("--format \(text): expected text or jsonl")
        }
        self = format
    }

    /// The sink that prints events in this format on standard output.
    func standardOutputSink() -> any EventSink {
        switch self {
        case .text: TextSink(fileDescriptor: 1, name: "stdout")
        case .jsonl: JSONLinesSink(fileDescriptor: 1, name: "stdout")
        }
    }
}
