/// The geodetic datum a coordinate was given in. The monitor, the core and the store work in WGS-84 only
/// (contract 1 in ARCHITECTURE.md); the other datums are converted to WGS-84 where coordinates come in (a fence file, the
/// `geofence convert` command, `Region(center:in:...)`) and back where they go out (exports).
///
/// | datum   | what it is                                              | WGS-84 → datum          | datum → WGS-84                     |
/// |---------|---------------------------------------------------------|-------------------------|------------------------------------|
/// | `wgs84` | GNSS positions; GeoJSON (RFC 7946)                      | identity                | identity                           |
/// | `gcj02` | the obfuscated datum of maps published in China         | the published formula   | fixed-point iteration, ≤ 1e-9°     |
/// | `tokyo` | Japan's datum before April 2002 (Bessel 1841 ellipsoid) | 3-parameter shift, ECEF | opposite shift, refined            |
///
/// Accuracy: see `GCJ02` (exact to the published algorithm; the inverse round-trips within 0.2 mm) and
/// `TokyoDatum` (the standard shift of the Geospatial Information Authority of Japan: 0.8 m at the datum origin and
/// 1.3 to 1.5 m at published points in Ibaraki and Yamanashi against GSI's grid; EPSG states up to 9 m on the main
/// islands, hundreds of metres on remote islands).
public enum Datum: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// WGS-84: what GNSS receivers and gpsd report, and the datum of everything inside the library.
    case wgs84
    /// GCJ-02, the datum of maps published in China (Amap/Gaode, Tencent, Google Maps in mainland China): WGS-84
    /// plus a position-dependent offset of up to ~700 m, inside the rough bounding box the published algorithm uses.
    case gcj02
    /// The Tokyo datum (EPSG:4301), of Japanese maps and data before JGD2000 (April 2002): 400 to 500 m off WGS-84
    /// in Tokyo.
    case tokyo

    /// The names accepted on the command line and in files, for messages: "wgs84, gcj02 or tokyo".
    public static let acceptedNames = "wgs84, gcj02 or tokyo"

    /// The datum named `name`: its raw value in any case, with or without a hyphen ("WGS-84", "GCJ-02", "Tokyo").
    /// nil for anything else.
    public init?(name: String) {
        let key = String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        self.init(rawValue: key)
    }

    /// `coordinate`, given in this datum, in WGS-84.
    ///
    /// Non-finite input comes back unchanged (the callers validate coordinates; nothing here traps). Longitudes come
    /// back in -180 ... 180.
    public func toWGS84(_ coordinate: Coordinate) -> Coordinate {
        switch self {
        case .wgs84: coordinate
        case .gcj02: GCJ02.toWGS84(coordinate).coordinate
        case .tokyo: TokyoDatum.toWGS84(coordinate)
        }
    }

    /// `coordinate`, given in WGS-84, in this datum. The inverse of `toWGS84` within the bound each datum states.
    public func fromWGS84(_ coordinate: Coordinate) -> Coordinate {
        switch self {
        case .wgs84: coordinate
        case .gcj02: GCJ02.fromWGS84(coordinate)
        case .tokyo: TokyoDatum.fromWGS84(coordinate)
        }
    }

    /// `coordinate`, given in this datum, in `target` (through WGS-84).
    public func convert(_ coordinate: Coordinate, to target: Datum) -> Coordinate {
        target == self ? coordinate : target.fromWGS84(toWGS84(coordinate))
    }

    public var description: String { rawValue }
}

extension Coordinate {
    /// The longitude brought back into -180 ... 180 after a shift that may have crossed the antimeridian.
    var wrappingLongitude: Coordinate {
        guard longitude.isFinite, abs(longitude) > 180 else { return self }
        var longitude = self.longitude.truncatingRemainder(dividingBy: 360)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
