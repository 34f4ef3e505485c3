/// Strict reading and shortest writing of the decimal numbers in fence files.
///
/// Reading accepts only `[+-] digits [. digits] [(e|E) [+-] digits]` with at least one mantissa digit (".5" and "5."
/// included), after the caller has trimmed the spaces around the cell. Everything that `Double("...")` would also
/// take — "nan", "inf", "0x1p3", trailing junk cut off by C's strtod — is refused, so a typo cannot become a fence.
package enum FenceNumber {
    /// Cells longer than this are not numbers anyone wrote by hand (a double needs at most 24 characters).
    static let maximumLength = 64

    /// The value of `bytes` when they are a decimal number by the grammar above; nil otherwise. The result may be
    /// infinite when the exponent is too large ("1e400"): the caller checks the range.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count <= maximumLength, isDecimal(bytes) else { return nil }
        // Short strings are stored inline (no allocation); Double(_:) is locale-independent and correctly rounded.
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    private static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        func isDigit(_ i: Int) -> Bool { i < count && bytes[i] &- UInt8(ascii: "0") < 10 }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var mantissaDigits = 0
        while isDigit(index) { index += 1; mantissaDigits += 1 }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while isDigit(index) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == count
    }

    /// The shortest text that reads back as exactly `value`: "100" for whole numbers below 10^15, otherwise Swift's
    /// shortest round-trip form ("153.019079", "1e-05"), which the grammar above accepts. Non-finite values come out
    /// as "nan" / "inf", which the readers refuse (the writers are given validated regions).
    package static func shortest(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
