import Geofencing
import GeofencingInputs

/// Reads `--fences FILE` for a command: the regions, with the reader's warnings (duplicate identifiers) on
/// standard error.
enum FenceLoading {
    /// - Parameter datum: the datum of the file's coordinates (`--datum`); a CSV row's `datum` cell or a GeoJSON
    ///   feature's `properties.datum` overrides it. Centres are converted to WGS-84 as they are read.
    static func regions(
        from path: String, defaultRadius: Double = 100, datum: Datum = .wgs84
    ) throws -> [Region] {
        let contents: FenceFileContents
        do {
            contents = try FenceFile.read(path: path, defaultRadius: defaultRadius, datum: datum)
        } catch {
            throw CLIError.failure(error.description)
        }
        for warning in contents.warnings { Console.error("warning: \(warning)") }
        return contents.regions
    }

    /// Removes `--datum NAME` and returns the datum (WGS-84 when absent).
    static func datumOption(_ arguments: inout ArgumentList, name: String = "--datum") throws(CLIError) -> Datum {
        guard let text = try arguments.option(name) else { return .wgs84 }
        guard let datum = Datum(name: text) else {
            throw arguments.usageError("\(name) \(text): expected \(Datum.acceptedNames)")
        }
        return datum
    }

    /// Removes `--approach SECONDS` and returns the approach alarm it gives every loaded fence (nil when absent):
    /// fence files have no column for one yet.
    static func approachOption(_ arguments: inout ArgumentList) throws(CLIError) -> ApproachAlarm? {
        guard let text = try arguments.option("--approach") else { return nil }
        let limit = Int(ApproachAlarm.maximumLeadTime)
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= ApproachAlarm.maximumLeadTime else {
            throw arguments.usageError("--approach \(text): expected seconds, more than 0 and at most \(limit)")
        }
        return ApproachAlarm(leadTime: seconds)
    }

    /// `regions` with `alarm` as every one's approach alarm (unchanged when nil).
    /// Changed in place: 10^6 regions are not held twice.
    static func withApproach(_ regions: consuming [Region], _ alarm: ApproachAlarm?) -> [Region] {
        guard let alarm else { return regions }
        var regions = regions
        for index in regions.indices { regions[index].approach = alarm }
        return regions
    }
}
