import Foundation

/// One JSON value of one GeoJSON feature, as `FenceJSONScanner` builds it: a feature at a time, so memory holds one
/// feature's tree, never the whole document's.
indirect enum FenceJSONValue {
    case null
    case boolean(Bool)
    /// A number as the file wrote it (RFC 8259 grammar, checked by the scanner; its value is finite).
    case number(String)
    case string(String)
    case array([FenceJSONValue])
    case object(FenceJSONObject)

    var object: FenceJSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    var array: [FenceJSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of a number (correctly rounded); nil for anything else, booleans included.
    var number: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    var boolean: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    /// A string, or a number as text (see `FenceJSONNumberText`).
    var identifier: String? {
        switch self {
        case .string(let text): text
        case .number(let text): FenceJSONNumberText.shown(text)
        default: nil
        }
    }

    /// "a string", "an array", ... for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value itself when short (strings, numbers, booleans), else its kind; "missing" for nil.
    static func describe(_ value: FenceJSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .string(let text)?: "the string " + FenceText.quotedValue(text)
        case .boolean(let flag)?: flag ? "true" : "false"
        case .number(let text)?: FenceText.shortened(FenceJSONNumberText.shown(text))
        case let other?: other.kind
        }
    }
}

/// A JSON object's members in file order. A key given twice means its last value (as JSON parsers that build
/// dictionaries read it), so lookups search from the end; an object has a handful of members that are looked up, so
/// a linear search is cheaper than hashing and stays linear in the members for any object.
struct FenceJSONObject {
    struct Member {
        var key: String
        var value: FenceJSONValue
    }

    var members: [Member] = []

    subscript(key: String) -> FenceJSONValue? {
        members.last { $0.key == key }?.value
    }
}

/// How a number from a fence file is shown in messages and taken as an identifier: as Foundation's JSONSerialization
/// showed it before (so that numeric identifiers stay the same): integers in decimal ("17", "-0" as "0"); a number of
/// more than 17 characters that `Decimal` can hold as that decimal ("0.30000000000000004"); any other as its Double
/// ("1e2" as "100.0", "1e21" as "1e+21").
enum FenceJSONNumberText {
    static func shown(_ text: String) -> String {
        let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isInteger {
            if let value = Int64(text) { return String(value) }
            if let value = UInt64(text) { return String(value) }
        }
        if isInteger || text.utf8.count > 17, let decimal = Decimal(string: text, locale: nil), !decimal.isNaN {
            return NSDecimalNumber(decimal: decimal).stringValue
        }
        return Double(text).map { "\($0)" } ?? text
    }
}
