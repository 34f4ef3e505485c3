/// Appends the page's embedded data as JSON text, fast enough for 100k-fix tracks: numbers are written from
/// scaled integers instead of through `String(format:)`, strings through `MapEscaping.scriptJSONString`.
struct MapJSONWriter {
    private(set) var text = ""

    init(reservingCapacity capacity: Int) {
        text.reserveCapacity(capacity)
    }

    mutating func raw(_ fragment: String) {
        text += fragment
    }

    mutating func string(_ value: String) {
        text += MapEscaping.scriptJSONString(value)
    }

    /// `value` rounded to `decimals` (0 ... 9) places, trailing zeros dropped ("12.5", "-3", "0"); null when it is
    /// not finite or too large to scale into an Int64 (beyond ±9.2e9 at 9 decimals; the map's values are < 1e8).
    mutating func number(_ value: Double, decimals: Int) {
        precondition((0...9).contains(decimals), "decimals out of range")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard value.isFinite, abs(scaled) < 9.0e18 else {
            text += "null"
            return
        }
        var units = Int64(scaled)
        if units < 0 {
            text += "-"
            units = -units
        }
        let divisor = Int64(scale)
        text += String(units / divisor)
        var fraction = units % divisor
        guard fraction != 0 else { return }
        var places = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: places - digits.count) + digits
    }

    mutating func optionalNumber(_ value: Double?, decimals: Int) {
        if let value { number(value, decimals: decimals) } else { text += "null" }
    }

    /// `[a,b,c]` with `element` writing each item.
    mutating func array<Element>(_ items: some Sequence<Element>, _ element: (inout MapJSONWriter, Element) -> Void) {
        text += "["
        var first = true
        for item in items {
            if !first { text += "," }
            first = false
            element(&self, item)
        }
        text += "]"
    }
}
