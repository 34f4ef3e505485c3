// Writes observations as an NMEA 0183 log that gpsd (and gpsfake) read back to the same fixes.
import Foundation
import Geofencing
import GeofencingInputs

/// Turns observations into NMEA 0183 sentences, e.g. a simulated drive into a log for `gpsfake`, so field tests
/// can run through the real gpsd.
///
/// Each observation becomes one epoch, in this order (measured with gpsd 3.22's decoder, gpsdecode):
///
/// | sentence | fix | no fix |
/// |---|---|---|
/// | GSA | fix type 2 (3 with altitude), HDOP | fix type 1 |
/// | RMC | status A, position, speed (knots), course, date | status V, time and date |
/// | VTG | course and speed, if `includesVTG` | — |
/// | GGA | quality 1, position, HDOP, altitude | quality 0, time |
/// | GST | σ of latitude and longitude error | — |
///
/// - Why this order (each alternative measured with gpsdecode): with the HDOP only in a GGA that follows RMC,
///   gpsd reports every epoch with the previous epoch's `eph`; with GSA ahead of RMC, each epoch but the log's
///   first is reported once, with its own `eph`, and a no-fix epoch as mode 1 with its time. GGA before RMC would
///   also give the right `eph`, but an RMC with status V does not end gpsd's epoch, and every later epoch is then
///   reported twice. VTG, which has no time, is harmless after RMC. gpsd never reports a log's first epoch,
///   whatever the order: it learns from it which sentence ends an epoch.
/// - Accuracy travels two ways: GST's latitude and longitude sigmas are both `horizontalAccuracy` / 2.4477 (a
///   reader computing 2.4477 × √((σlat² + σlon²) / 2) gets it back within 1.2 mm), and HDOP is
///   `horizontalAccuracy` / 19, because gpsd 3.22 estimates `eph` as 19 m × HDOP (so a fix received through gpsd
///   reports the same accuracy within 1 mm). That HDOP is smaller than real receivers print; it is chosen for
///   the round trip, not for looks.
/// - Positions have 7 decimals of minutes (0.2 mm), times 3 decimals of seconds, speed 3 decimals of knots
///   (0.26 mm/s), course 2 decimals of degrees. Sentences can exceed NMEA's 82 characters; gpsd accepts them.
/// - Dates are written as ddmmyy: logs must lie in 2000–2099 for a reader's two-digit-year rule to agree.
public struct NMEAWriter: Sendable {
    /// The talker of every sentence, two capital letters ("GP" for GPS, "GN" for multi-constellation).
    public var talker: String
    /// Whether each fix also gets a VTG sentence (course and speed; RMC carries them too).
    public var includesVTG: Bool
    /// Satellites in use claimed by GGA and GSA (only for show: nothing derives accuracy from it).
    public var satellitesUsed: Int

    /// - Precondition: `talker` is two capital letters A–Z; `satellitesUsed` is 0 ... 12.
    public init(talker: String = "GP", includesVTG: Bool = false, satellitesUsed: Int = 10) {
        precondition(talker.utf8.count == 2 && talker.utf8.allSatisfy { (65...90).contains($0) },
                     "an NMEA talker is two capital letters")
        precondition((0...12).contains(satellitesUsed), "GSA lists at most 12 satellites")
        self.talker = talker
        self.includesVTG = includesVTG
        self.satellitesUsed = satellitesUsed
    }

    /// gpsd 3.22's 95 % horizontal error per unit of HDOP without differential corrections, metres.
    public static let gpsdMetresPerHDOP = 19.0

    /// The sentences of one epoch, each "$...*hh" without a line end.
    public func sentences(for observation: Observation) -> [String] {
        switch observation {
        case .fix(let fix): fixSentences(fix)
        case .noFix(let time): noFixSentences(time)
        }
    }

    /// A whole log: `comments` as lines starting with "# " (which gpsfake and gpsd skip), then every epoch; each
    /// line ends with CR LF.
    ///
    /// gpsfake treats comments containing "Serial:", "Transport: UDP", "Transport: TCP", "Delay-Cookie:" or
    /// "Date:" as instructions, so in comments those colons become " -"; line breaks become spaces.
    public func log(_ observations: some Sequence<Observation>, comments: [String] = []) -> String {
        var lines = comments.map { "# " + Self.harmlessComment($0) }
        for observation in observations {
            lines += sentences(for: observation)
        }
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// Writes `log(observations, comments:)` to `url` (replacing the file).
    public func write(_ observations: some Sequence<Observation>, comments: [String] = [], to url: URL) throws {
        try Data(log(observations, comments: comments).utf8).write(to: url)
    }

    /// "$" + `body` + "*" + the two-digit hex XOR of the body's bytes: a complete sentence.
    public static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    private func fixSentences(_ fix: Fix) -> [String] {
        let (time, date) = NMEAWriterFields.timeAndDate(fix.timestamp)
        let (latitude, north) = NMEAWriterFields.latitude(fix.coordinate.latitude)
        let (longitude, east) = NMEAWriterFields.longitude(fix.coordinate.longitude)
        let position = "\(latitude),\(north),\(longitude),\(east)"
        let knots = fix.speed.map { NMEAWriterFields.fixed($0 * 3600 / 1852, decimals: 3) } ?? ""
        let kilometresPerHour = fix.speed.map { NMEAWriterFields.fixed($0 * 3.6, decimals: 3) } ?? ""
        let course = fix.course.map(NMEAWriterFields.course) ?? ""
        let hdop = fix.horizontalAccuracy.map {
            NMEAWriterFields.fixed($0 / Self.gpsdMetresPerHDOP, decimals: 4)
        } ?? ""
        let altitude = fix.altitude.map { NMEAWriterFields.fixed($0, decimals: 1) } ?? ""
        let satellites = (1...max(1, satellitesUsed)).prefix(satellitesUsed).map { $0 < 10 ? "0\($0)" : "\($0)" }
        let satelliteFields = (satellites + Array(repeating: "", count: 12 - satellites.count)).joined(separator: ",")
        let used = satellitesUsed < 10 ? "0\(satellitesUsed)" : "\(satellitesUsed)"

        var bodies = [
            "\(talker)GSA,A,\(fix.altitude == nil ? 2 : 3),\(satelliteFields),,\(hdop),",
            "\(talker)RMC,\(time),A,\(position),\(knots),\(course),\(date),,,A",
        ]
        if includesVTG {
            bodies.append("\(talker)VTG,\(course),T,,M,\(knots),N,\(kilometresPerHour),K,A")
        }
        bodies.append("\(talker)GGA,\(time),\(position),1,\(used),\(hdop),\(altitude),M,,M,,")
        if let accuracy = fix.horizontalAccuracy {
            // Per-axis σ of a circular error whose 95 % radius is the accuracy; rms, major and minor say the same.
            let sigma = NMEAWriterFields.fixed(accuracy / GNSSErrorModel.radius95PerSigma, decimals: 3)
            bodies.append("\(talker)GST,\(time),\(sigma),\(sigma),\(sigma),0.0,\(sigma),\(sigma),")
        }
        return bodies.map(Self.sentence)
    }

    private func noFixSentences(_ timestamp: Date) -> [String] {
        let (time, date) = NMEAWriterFields.timeAndDate(timestamp)
        return [
            "\(talker)GSA,A,1,,,,,,,,,,,,,,,",
            "\(talker)RMC,\(time),V,,,,,,,\(date),,,N",
            "\(talker)GGA,\(time),,,,,0,00,,,M,,M,,",
        ].map(Self.sentence)
    }

    private static func harmlessComment(_ text: String) -> String {
        var line = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        for magic in ["Serial:", "Transport:", "Delay-Cookie:", "Date:"] {
            line = line.replacingOccurrences(of: magic, with: magic.dropLast() + " -")
        }
        return line
    }
}
