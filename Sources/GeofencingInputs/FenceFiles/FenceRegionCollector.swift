import Geofencing

/// Gathers the regions of one file in order, letting a repeated identifier replace the earlier region in its
/// place (dictionary semantics) and recording a warning that names both places.
struct FenceRegionCollector {
    /// Where a region came from: a line of a CSV/GTFS file or a feature of a GeoJSON file (both 1-based).
    enum Origin {
        case line(Int)
        case feature(Int)

        var text: String {
            switch self {
            case .line(let line): "line \(line)"
            case .feature(let feature): "feature \(feature)"
            }
        }
    }

    let file: String
    private(set) var regions: [Region] = []
    private(set) var warnings: [FenceFileWarning] = []
    /// Index in `regions` and origin of the latest region with each identifier.
    private var latest: [String: (index: Int, origin: Origin)] = [:]

    init(file: String, expectedCount: Int = 0) {
        self.file = file
        regions.reserveCapacity(expectedCount)
        latest.reserveCapacity(expectedCount)
    }

    mutating func add(_ region: Region, from origin: Origin) {
        if let previous = latest[region.identifier] {
            regions[previous.index] = region
            latest[region.identifier] = (previous.index, origin)
            let message = "duplicate identifier \(FenceText.quotedIdentifier(region.identifier)) "
                + "replaces \(previous.origin.text)"
            switch origin {
            case .line(let line):
                warnings.append(FenceFileWarning(file: file, line: line, message: message))
            case .feature(let feature):
                warnings.append(FenceFileWarning(file: file, feature: feature, message: message))
            }
        } else {
            latest[region.identifier] = (regions.count, origin)
            regions.append(region)
        }
    }

    mutating func warn(_ warning: FenceFileWarning) {
        warnings.append(warning)
    }
}
