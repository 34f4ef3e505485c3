/// Which sentences the reader understands and from which talkers.
extension NMEAReport {
    /// Decodes a sentence of a supported type; nil for any other type (GSV, TXT, depth, wind, ...).
    static func decode(_ sentence: NMEASentence) throws(NMEAFieldError) -> NMEAReport? {
        switch sentence.type {
        case "RMC": try rmc(sentence)
        case "GGA": try gga(sentence)
        case "GNS": try gns(sentence)
        case "GLL": try gll(sentence)
        case "GST": try gst(sentence)
        case "GSA": try gsa(sentence)
        case "VTG": try vtg(sentence)
        case "ZDA": try zda(sentence)
        case "HDG": hdg(sentence)
        default: nil
        }
    }

    /// Whether the reader takes the sentence type from any talker: a compass's heading (HDG) comes from the heading
    /// sensor's own talker (HC, SD, II, ...), and gpsd takes it from every one.
    static func readsFromAnyTalker(_ type: String) -> Bool {
        type == "HDG"
    }

    /// Knots to metres per second (1 knot = 1852 m per hour).
    static let metresPerSecondPerKnot = 1852.0 / 3600.0
}
