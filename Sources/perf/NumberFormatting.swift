/// Fixed-point text for a Double ("12.30"), without Foundation: the report and the JSON need stable, locale-free
/// digits (perf uses Foundation only for the monitor engine's `Date` timestamps). Non-finite values print as "-"
/// (they never reach the JSON: see JSONReport).
func fixed(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return value.description }  // beyond Int64 precision: let Swift choose the digits
    let units = Int64(scaled)
    let whole = units / Int64(scale)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard places > 0 else { return sign + String(whole) }
    let fraction = String(units % Int64(scale))
    return sign + String(whole) + "." + String(repeating: "0", count: places - fraction.count) + fraction
}

/// "1000000" -> "10^6" for the powers of ten the benchmark uses; other counts print plainly.
func fenceCountLabel(_ count: Int) -> String {
    var power = 0
    var rest = count
    while rest >= 10, rest % 10 == 0 {
        rest /= 10
        power += 1
    }
    return rest == 1 && power >= 3 ? "10^\(power)" : String(count)
}

/// Pads on the left (numbers) or right (words) to a column width.
func padded(_ text: String, to width: Int, alignRight: Bool) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return alignRight ? padding + text : text + padding
}
