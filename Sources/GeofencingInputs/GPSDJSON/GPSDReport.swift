import Foundation
import Geofencing
import GeofencingEvents

/// The fields of a gpsd JSON report that the reader uses; for a TPV (time-position-velocity) report, those of the
/// fix. gpsd leaves out what it does not know, and absent fields stay nil (never 0).
struct GPSDReport: Decodable {
    /// "TPV", "SKY", "VERSION", ...
    var reportClass: String
    /// 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional.
    var mode: Int?
    /// ISO 8601 text (gpsd protocol 3.10 and later) or seconds since 1970 (older protocols).
    var time: Date?
    /// Degrees for a TPV; for a GST, the standard deviations of the latitude and longitude errors in metres.
    var lat: Double?
    var lon: Double?
    var eph: Double?
    var epx: Double?
    var epy: Double?
    var speed: Double?
    var track: Double?
    /// Height above mean sea level (gpsd 3.20 and later)...
    var altMSL: Double?
    /// ...and its older name, which gpsd 3.22 still writes with the same value.
    var alt: Double?

    private enum CodingKeys: String, CodingKey {
        case reportClass = "class"
        case mode, time, lat, lon, eph, epx, epy, speed, track, altMSL, alt
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reportClass = try container.decode(String.self, forKey: .reportClass)
        mode = try container.decodeIfPresent(Int.self, forKey: .mode)
        if let text = try? container.decodeIfPresent(String.self, forKey: .time) {
            guard let time = ISO8601Time.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time, in: container,
                    debugDescription: "\(InputText.doubleQuoted(text)) is not an ISO 8601 time")
            }
            self.time = time
        } else if let seconds = try container.decodeIfPresent(Double.self, forKey: .time) {
            time = Date(timeIntervalSince1970: seconds)
        }
        lat = try Self.finite(container, .lat)
        lon = try Self.finite(container, .lon)
        eph = try Self.finite(container, .eph)
        epx = try Self.finite(container, .epx)
        epy = try Self.finite(container, .epy)
        speed = try Self.finite(container, .speed)
        track = try Self.finite(container, .track)
        altMSL = try Self.finite(container, .altMSL)
        alt = try Self.finite(container, .alt)
    }

    /// A number, or nil when absent, null or not finite.
    private static func finite(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Double? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key), value.isFinite else { return nil }
        return value
    }

    /// What this TPV says: a fix (mode 2 or 3 with a position), no fix (mode 0 or 1, or none), or nothing usable
    /// (no time or one before the GPS epoch 1980-01-06, a mode outside 0 ... 3, or a fix mode without a position),
    /// as `GPSDSource` reads a live gpsd's.
    var observation: Observation? {
        guard let time, time.timeIntervalSince1970 >= 315_964_800 else { return nil }
        if let mode, !(0...3).contains(mode) { return nil }
        guard let mode, mode >= 2 else { return .noFix(time) }
        guard let lat, let lon, case let coordinate = Coordinate(latitude: lat, longitude: lon), coordinate.isValid
        else { return nil }
        // The epoch's GST, when it has one, replaces this (GPSDJSONReader); negative errors count as absent.
        let accuracy = eph.flatMap { $0 >= 0 ? $0 : nil }
            ?? epx.flatMap { x in epy.flatMap { y in HorizontalAccuracyEstimate.fromAxisErrors95(x: x, y: y) } }
        return .fix(Fix(
            coordinate: coordinate, timestamp: time, horizontalAccuracy: accuracy,
            speed: speed, course: track, altitude: altMSL ?? alt))
    }
}
