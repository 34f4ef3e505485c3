import Geofencing

/// One unacceptable value; the reader that found it adds the file, the line or feature, and the field.
struct FenceFieldProblem: Error {
    let message: String
}

/// The limits every fence from a file must keep: those of `RegionMonitor`, so a file that reads without error
/// also monitors without error.
enum FenceValidation {
    /// The geofence core works within 85 degrees of the equator (contract 1 in ARCHITECTURE.md).
    static let maximumLatitude = 85.0
    /// The smallest radius the monitor accepts, in metres.
    static let minimumRadius = 1.0
    /// The largest radius the monitor accepts, in metres (the bound of the core's accuracy contract).
    static let maximumRadius = RegionMonitor.maximumRegionMonitoringDistance

    /// The longest identifier accepted, in UTF-8 bytes: room for any real name or key, while a runaway field (a
    /// file with a line of a gigabyte) is refused at once instead of being stored, sent to every sink and drawn.
    static let maximumIdentifierBytes = 1_024

    static func identifier(_ identifier: String) throws(FenceFieldProblem) {
        let length = identifier.utf8.count
        if length > maximumIdentifierBytes {
            throw FenceFieldProblem(
                message: "the identifier is \(length) bytes long, more than the \(maximumIdentifierBytes) allowed")
        }
        if let offset = identifier.utf8.firstIndex(of: 0) {
            // Sinks pass identifiers as C strings (GEOFENCE_REGION, arguments), which end at a NUL.
            let position = identifier.utf8.distance(from: identifier.utf8.startIndex, to: offset)
            throw FenceFieldProblem(message: "the identifier contains U+0000 (NUL) at byte \(position), which no "
                + "identifier may")
        }
        if identifier.allSatisfy(\.isWhitespace) {
            throw FenceFieldProblem(message: identifier.isEmpty ? "the identifier is empty" : "the identifier is blank")
        }
    }

    static func latitude(_ latitude: Double) throws(FenceFieldProblem) {
        guard latitude.isFinite else { throw FenceFieldProblem(message: "latitude \(latitude) is not a finite number") }
        guard abs(latitude) <= maximumLatitude else {
            throw FenceFieldProblem(message: "latitude \(FenceNumber.shortest(latitude)) is beyond ±85°, "
                + "the limit of the geofence core (no fences nearer the poles)")
        }
    }

    static func longitude(_ longitude: Double) throws(FenceFieldProblem) {
        guard longitude.isFinite else {
            throw FenceFieldProblem(message: "longitude \(longitude) is not a finite number")
        }
        guard abs(longitude) <= 180 else {
            throw FenceFieldProblem(message: "longitude \(FenceNumber.shortest(longitude)) is outside -180 ... 180°")
        }
    }

    static func radius(_ radius: Double) throws(FenceFieldProblem) {
        guard radius.isFinite, radius >= minimumRadius, radius <= maximumRadius else {
            throw FenceFieldProblem(message: "radius \(FenceNumber.shortest(radius)) m is outside "
                + "\(FenceNumber.shortest(minimumRadius)) ... \(FenceNumber.shortest(maximumRadius)) m")
        }
    }

    /// A corridor's half-width: the same limits as a radius (the core's 1 m ... 50 km).
    static func halfWidth(_ halfWidth: Double) throws(FenceFieldProblem) {
        guard halfWidth.isFinite, halfWidth >= minimumRadius, halfWidth <= maximumRadius else {
            throw FenceFieldProblem(message: "half-width \(FenceNumber.shortest(halfWidth)) m is outside "
                + "\(FenceNumber.shortest(minimumRadius)) ... \(FenceNumber.shortest(maximumRadius)) m")
        }
    }

    /// The datum a cell or property names (`Datum(name:)`: wgs84, gcj02, tokyo, in any case, hyphens allowed).
    static func datum(_ text: String) throws(FenceFieldProblem) -> Datum {
        guard let datum = Datum(name: text) else {
            throw FenceFieldProblem(message: "\(FenceText.quotedValue(text)) is not a datum: expected "
                + Datum.acceptedNames)
        }
        return datum
    }

    /// The WGS-84 centre of a centre written in `datum` (already range-checked as written). A shift can carry a
    /// point near ±85° over the limit, so the converted latitude is checked again.
    static func wgs84Center(_ written: Coordinate, in datum: Datum) throws(FenceFieldProblem) -> Coordinate {
        let center = datum.toWGS84(written)
        guard abs(center.latitude) <= maximumLatitude else {
            throw FenceFieldProblem(message: "latitude \(FenceNumber.shortest(written.latitude)) in \(datum) is "
                + "\(FenceNumber.shortest(center.latitude)) in WGS-84, beyond ±85°, the limit of the geofence core")
        }
        return center
    }

    /// Dwell time (seconds) and hysteresis (metres): finite and not negative.
    static func nonNegative(_ value: Double, unit: String) throws(FenceFieldProblem) {
        guard value.isFinite, value >= 0 else {
            throw FenceFieldProblem(message: "\(FenceNumber.shortest(value)) \(unit) is negative or not finite")
        }
    }
}
