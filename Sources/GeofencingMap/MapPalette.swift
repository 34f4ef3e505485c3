import GeofencingEvents

/// The map's colours, one place for the page's CSS, its legend, and the screenshot check
/// (scripts/check-map-screenshot.py looks for these exact values, so change them together).
public enum MapPalette {
    /// An RGB colour, 8 bits a channel.
    public struct Color: Sendable, Hashable {
        public var red: UInt8, green: UInt8, blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// "#rrggbb", for CSS.
        public var hex: String {
            "#" + [red, green, blue].map { value in
                let digits = String(value, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        }

        /// "r,g,b", the form the screenshot check takes.
        public var triple: String { "\(red),\(green),\(blue)" }
    }

    /// Fence outlines (filled with the same colour at low opacity).
    public static let fence = Color(red: 0x1f, green: 0x5f, blue: 0xbf)
    /// The fence colour at the page's 10 % tint over white, for the legend's corridor swatch (drawn opaque).
    public static let fenceTint = Color(red: 0xe9, green: 0xef, blue: 0xf9)
    /// The track where the vehicle was outside every region.
    public static let trackOutside = Color(red: 0x1a, green: 0x96, blue: 0x41)
    /// The track where the vehicle was inside at least one region.
    public static let trackInside = Color(red: 0xd7, green: 0x19, blue: 0x1c)
    /// The page's background, where nothing is drawn.
    public static let background = Color(red: 0xf7, green: 0xf7, blue: 0xf4)

    /// Event markers by kind; each kind also has its own shape, so the legend reads without colour vision.
    public static func event(_ kind: EventRecord.Kind) -> Color {
        switch kind {
        case .enter: Color(red: 0xff, green: 0x7f, blue: 0x00)
        case .exit: Color(red: 0x6a, green: 0x3d, blue: 0x9a)
        case .dwell: Color(red: 0xb1, green: 0x59, blue: 0x28)
        case .approach: Color(red: 0xe7, green: 0x29, blue: 0x8a)
        case .state: Color(red: 0x52, green: 0x52, blue: 0x52)
        case .overspeed: Color(red: 0xe3, green: 0x1a, blue: 0x1c)
        case .overspeedEnd: Color(red: 0x1f, green: 0x78, blue: 0xb4)
        }
    }
}
