import Foundation
import Geofencing
import GeofencingEvents

/// Why a field of an otherwise well-formed sentence cannot be read, e.g. `field 3 (latitude): "12x7.5" is not a
/// number`.
struct NMEAFieldError: Error, Equatable {
    let message: String

    init(field number: Int, _ name: String, _ value: some StringProtocol, _ problem: String) {
        message = "field \(number) (\(name)): \(InputText.doubleQuoted(value)) \(problem)"
    }

    init(_ message: String) {
        self.message = message
    }
}

/// Readers for the field formats of NMEA 0183 (numbers, hhmmss.ss, ddmmyy, ddmm.mmmm + hemisphere).
///
/// An empty field means "not available" and reads as nil; a field with content that does not fit its format throws,
/// so that a corrupted sentence is counted as bad instead of yielding a wrong value.
extension NMEASentence {
    /// A plain decimal number: optional sign, digits, optional fraction. Swift's `Double(String)` is not used alone
    /// because it also accepts "nan", "inf" and hexadecimal floats, none of which belong in a sentence.
    func decimal(_ number: Int, _ name: String) throws(NMEAFieldError) -> Double? {
        let text = self[field: number]
        if text.isEmpty { return nil }
        guard Self.isDecimal(text), let value = Double(text) else {
            throw NMEAFieldError(field: number, name, text, "is not a number")
        }
        return value
    }

    /// `hhmmss` or `hhmmss.sss` as nanoseconds since midnight; the leap second `235960.sss` as 86_400 s and more
    /// (`CivilCalendar.date` maps it into the last millisecond of the day). Second 60 at another time is refused.
    func timeOfDay(_ number: Int) throws(NMEAFieldError) -> Int64? {
        let text = self[field: number]
        if text.isEmpty { return nil }
        let digits = Array(text.utf8)
        guard digits.count >= 6, digits[0..<6].allSatisfy(Self.isDigit),
              digits.count == 6
                  || (digits.count > 7 && digits[6] == UInt8(ascii: ".") && digits[7...].allSatisfy(Self.isDigit))
        else { throw NMEAFieldError(field: number, "time", text, "is not hhmmss.ss") }
        let hours = Self.value(digits[0..<2]), minutes = Self.value(digits[2..<4]), seconds = Self.value(digits[4..<6])
        guard hours < 24, minutes < 60, seconds < 60 || (seconds == 60 && hours == 23 && minutes == 59) else {
            throw NMEAFieldError(field: number, "time", text, "is not a time of day")
        }
        var nanoseconds: Int64 = 0
        var scale: Int64 = 100_000_000
        for digit in digits.dropFirst(7).prefix(9) {
            nanoseconds += Int64(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return Int64(hours * 3600 + minutes * 60 + seconds) * 1_000_000_000 + nanoseconds
    }

    /// `ddmmyy`, with the century left to the reader.
    func twoDigitYearDate(_ number: Int) throws(NMEAFieldError) -> NMEADate? {
        let text = self[field: number]
        if text.isEmpty { return nil }
        let digits = Array(text.utf8)
        guard digits.count == 6, digits.allSatisfy(Self.isDigit) else {
            throw NMEAFieldError(field: number, "date", text, "is not ddmmyy")
        }
        let day = Self.value(digits[0..<2]), month = Self.value(digits[2..<4]), year = Self.value(digits[4..<6])
        // Any century will do for the check: 2000 is a leap year like every year divisible by 4 in 1901...2099.
        guard CivilCalendar.daysSince1970(year: 2000 + year, month: month, day: day) != nil else {
            throw NMEAFieldError(field: number, "date", text, "is not a calendar date")
        }
        return .twoDigitYear(year, month: month, day: day)
    }

    /// Latitude `ddmm.mmmm` + N/S and longitude `dddmm.mmmm` + E/W from four consecutive fields starting at
    /// `number`; nil when all four are empty (no position).
    func coordinate(from number: Int) throws(NMEAFieldError) -> Coordinate? {
        let fields = (number..<number + 4).map { self[field: $0] }
        if fields.allSatisfy(\.isEmpty) { return nil }
        let latitude = try angle(number, "latitude", maximum: 90, hemispheres: ("N", "S"))
        let longitude = try angle(number + 2, "longitude", maximum: 180, hemispheres: ("E", "W"))
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Degrees and decimal minutes: the degrees are the digits before the last two of the integer part, so any
    /// number of leading degree digits (and a missing fraction) reads correctly.
    private func angle(
        _ number: Int, _ name: String, maximum: Double, hemispheres: (Character, Character)
    ) throws(NMEAFieldError) -> Double {
        let text = self[field: number]
        let hemisphere = self[field: number + 1]
        guard !text.isEmpty, !text.hasPrefix("-"), !text.hasPrefix("+"), Self.isDecimal(text),
              let value = Double(text)
        else { throw NMEAFieldError(field: number, name, text, "is not ddmm.mmmm") }
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        let result = Self.asGPSDReportsIt(degrees + minutes / 60)
        guard minutes < 60, result <= maximum else {
            throw NMEAFieldError(field: number, name, text, "is out of range")
        }
        switch hemisphere.first {
        case hemispheres.0 where hemisphere.count == 1: return result
        case hemispheres.1 where hemisphere.count == 1: return -result
        default:
            throw NMEAFieldError(field: number + 1, "hemisphere", hemisphere,
                                 "is not \(hemispheres.0) or \(hemispheres.1)")
        }
    }

    /// An angle in degrees as gpsd's TPV carries it (printed with 9 decimals, 0.1 mm): the value a live fix has
    /// once libgps has read the report back, so the replay of a log and the daemon fed it through gpsd compute
    /// with the same coordinates (crossing times are interpolated to the millisecond, and a difference of 1e-10°
    /// moves some of them by one). k / 1e9 is the double nearest the decimal k·10⁻⁹, which is what strtod makes of
    /// gpsd's text. Exact for minutes with up to 7 decimals: their angle in units of 10⁻⁹° has a fraction of 0,
    /// ⅓ or ⅔, never near the ½ where the rounding could go the other way than gpsd's.
    static func asGPSDReportsIt(_ degrees: Double) -> Double {
        (degrees * 1e9).rounded() / 1e9
    }

    /// A speed in metres per second as gpsd's TPV carries it (printed with 3 decimals, then read back by libgps):
    /// the value a live fix has, for the same reason as `asGPSDReportsIt` (the crossing time's path follows the
    /// fixes' speeds). Formatted as gpsd's printf does, from the exact binary value: 4.05 knots is 2.0834999... m/s,
    /// which prints as 2.083, where rounding 2083.5 (the product with 1000, rounded up) would give 2.084.
    static func speedAsGPSDReportsIt(_ metresPerSecond: Double) -> Double {
        asGPSDPrintsIt(metresPerSecond, format: "%.3f")
    }

    /// A course in degrees as gpsd's TPV carries it (printed with 4 decimals, then read back by libgps), formatted
    /// from the exact binary value as gpsd's printf does, for the reason of `speedAsGPSDReportsIt`.
    static func courseAsGPSDReportsIt(_ degrees: Double) -> Double {
        asGPSDPrintsIt(degrees, format: "%.4f")
    }

    /// `value` printed with gpsd's printf format and read back.
    private static func asGPSDPrintsIt(_ value: Double, format: String) -> Double {
        Double(String(format: format, value)) ?? value
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isDecimal(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits = 0
        var points = 0
        for byte in bytes {
            if isDigit(byte) { digits += 1 } else if byte == UInt8(ascii: ".") { points += 1 } else { return false }
        }
        return digits > 0 && points <= 1
    }

    private static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
