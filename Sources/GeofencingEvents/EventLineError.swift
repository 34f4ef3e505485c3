/// Why a line is not an event line; the description is the message (without the line's place).
public enum EventLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is not one JSON object.
    case notAnObject
    /// A required key is missing or its value has the wrong JSON type.
    case missingField(String)
    /// A key's value has the right JSON type but no meaning: the key, and what is wrong with it.
    case badField(String, String)

    public var description: String {
        switch self {
        case .notAnObject: "not a JSON object"
        case .missingField(let key): "field \(key) missing or of the wrong type"
        case .badField(let key, let problem): "field \(key): \(problem)"
        }
    }
}
