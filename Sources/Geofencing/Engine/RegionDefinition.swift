/// A region's definition as the engine keeps it for each record: a plain circle (an identifier, a centre, a radius
/// and the two notify flags; nothing else set, as nearly all the 10^6 fences of a big unit) in 42 bytes, and any
/// other region behind one reference to a box out of line. `region` gives back a `Region` equal (`==`) to the one
/// stored: a plain circle is one that its rebuilt `Region` equals, so a field `Region` gains later is boxed until
/// this type learns to pack it.
enum RegionDefinition {
    case circle(identifier: String, center: Coordinate, radius: Double, notifyOnEntry: Bool, notifyOnExit: Bool)
    case boxed(RegionBox)

    init(_ region: Region) {
        if case .circle(let center, let radius) = region.shape {
            let plain = RegionDefinition.circle(
                identifier: region.identifier, center: center, radius: radius, notifyOnEntry: region.notifyOnEntry,
                notifyOnExit: region.notifyOnExit)
            if plain.region == region {
                self = plain
                return
            }
        }
        self = .boxed(RegionBox(region))
    }

    /// The region, rebuilt (a plain circle: no allocation, the identifier's storage shared).
    var region: Region {
        switch self {
        case .circle(let identifier, let center, let radius, let notifyOnEntry, let notifyOnExit):
            Region(center: center, radius: radius, identifier: identifier, notifyOnEntry: notifyOnEntry,
                   notifyOnExit: notifyOnExit)
        case .boxed(let box): box.region
        }
    }

    var identifier: String {
        switch self {
        case .circle(let identifier, _, _, _, _): identifier
        case .boxed(let box): box.region.identifier
        }
    }

    var notifyOnEntry: Bool {
        switch self {
        case .circle(_, _, _, let notifyOnEntry, _): notifyOnEntry
        case .boxed(let box): box.region.notifyOnEntry
        }
    }

    var notifyOnExit: Bool {
        switch self {
        case .circle(_, _, _, _, let notifyOnExit): notifyOnExit
        case .boxed(let box): box.region.notifyOnExit
        }
    }

    var dwellTime: Double? {
        switch self {
        case .circle: nil
        case .boxed(let box): box.region.dwellTime
        }
    }

    /// The zone rules (never a plain circle's: `Region`'s equality counts them).
    var speedLimit: SpeedLimit? {
        switch self {
        case .circle: nil
        case .boxed(let box): box.region.speedLimit
        }
    }

    var schedule: Schedule? {
        switch self {
        case .circle: nil
        case .boxed(let box): box.region.schedule
        }
    }

    /// The centre and radius of a circle (plain or not), nil for a polygon or a corridor.
    var circle: (center: Coordinate, radius: Double)? {
        switch self {
        case .circle(_, let center, let radius, _, _): (center, radius)
        case .boxed(let box):
            if case .circle(let center, let radius) = box.region.shape { (center, radius) } else { nil }
        }
    }

    var isCircle: Bool { circle != nil }
}

/// A region that is not a plain circle, out of line (see `RegionDefinition`).
final class RegionBox {
    let region: Region

    init(_ region: Region) {
        self.region = region
    }
}
