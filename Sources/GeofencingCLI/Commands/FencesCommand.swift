import Foundation
import Geofencing
import GeofencingInputs
import GeofencingSinks
import GeofencingStore
import GeofencingWriters

/// `geofence fences import FILE | apply FILE | list | remove ID | export [--format geojson|csv] --store PATH`.
enum FencesCommand {
    static let command = GeofenceCLI.Command(
        name: "fences", summary: "manage the regions in a store: import, apply, list, remove, export",
        help: """
            Usage: geofence fences import FILE --store PATH [--radius M] [--datum wgs84|gcj02|tokyo]
                   geofence fences apply FILE --store PATH [--max-fence-set-bytes N]
                   geofence fences list --store PATH
                   geofence fences remove ID --store PATH
                   geofence fences export --store PATH [--format geojson|csv]

              import   adds the regions of FILE (GeoJSON: Point circles, Polygon and MultiPolygon polygons,
                       LineString corridors with properties.half_width_m; CSV id,lat,lon,radius_m; or GTFS stops.txt
                       with radius --radius, default 100 m), replacing regions with the same identifier (their state
                       is kept);
                       all or nothing: an invalid row rejects the file and leaves the store as it was;
                       --datum: the datum of FILE's coordinates (default wgs84; a CSV 'datum' column or a GeoJSON
                       properties.datum overrides it per fence); centres are stored in WGS-84 with their datum
              apply    applies a fence set or patch as the back-end sends it on BASE/fences (a FeatureCollection
                       with a "version"; or {"base_version", "version", "upsert", "remove"}) and prints the ack
                       JSON on standard output; a rejected one (exit 1) leaves the store as it was. Identifiers
                       that stay keep their state; --max-fence-set-bytes: the largest message (default 67108864)
              list     CSV on standard output: id,shape,lat,lon,radius_m,half_width_m,vertices,state,
                       speed_limit_kmh,schedule; shape is
                       circle, polygon or corridor, lat,lon the circle's centre or the centre of the shape's bounding
                       box (WGS-84), radius_m a circle's, half_width_m a corridor's, vertices a polygon's (all
                       rings, a closing vertex not counted) or a corridor's path's, speed_limit_kmh the limit
                       (+tolerance/duration when not the default 5 km/h for 5 s), schedule the zone and windows;
                       empty where they do not apply
              remove   removes one region (exit 1 if there is none with that identifier)
              export   the regions as GeoJSON (default) or CSV on standard output, each centre in the datum it was
                       imported in (named per fence when not all are WGS-84); 'import' reads it back. CSV holds
                       circles only: a store with a polygon or a corridor exports as GeoJSON (exit 1, nothing
                       written, for --format csv)

            Only import and apply create a store (mode 0600); list, export and remove exit 1 with "no store at
            PATH" when there is none. A running 'geofence run' picks up changes on SIGHUP.
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let storePath = try arguments.option("--store")
        let radius = try arguments.number("--radius", in: 1...50_000)
        let formatText = try arguments.option("--format")
        let datumGiven = try arguments.option("--datum")
        let maximumBytes = try arguments.number("--max-fence-set-bytes", in: 1...Double(Int32.max))
        guard let action = arguments.optionalPositional() else {
            throw arguments.usageError("missing an action: import, apply, list, remove or export")
        }
        var target: String?
        switch action {
        case "import": target = try arguments.positional("FILE to import")
        case "apply": target = try arguments.positional("FILE of the fence set or patch to apply")
        case "remove": target = try arguments.positional("ID of the region to remove")
        case "list", "export": break
        default:
            throw arguments.usageError("unknown action \(action): expected import, apply, list, remove or export")
        }
        try arguments.finish()
        guard let storePath else { throw arguments.usageError("--store PATH is required") }
        if radius != nil && action != "import" { throw arguments.usageError("--radius applies to import only") }
        if formatText != nil && action != "export" { throw arguments.usageError("--format applies to export only") }
        if datumGiven != nil && action != "import" { throw arguments.usageError("--datum applies to import only") }
        if maximumBytes != nil && action != "apply" {
            throw arguments.usageError("--max-fence-set-bytes applies to apply only")
        }
        var datum = Datum.wgs84
        if let datumGiven {
            guard let named = Datum(name: datumGiven) else {
                throw arguments.usageError("--datum \(datumGiven): expected \(Datum.acceptedNames)")
            }
            datum = named
        }

        // Only import creates a store: list and export only read it, and remove needs one that exists.
        let store = try Daemon.open(storePath, readOnly: action == "list" || action == "export",
                                    create: action == "import" || action == "apply")
        func call<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as CLIError { throw error } catch {
                throw CLIError.failure("geofence fences \(action): store \(storePath): \(error)")
            }
        }
        switch action {
        case "import":
            let regions = try FenceLoading.regions(from: target!, defaultRadius: radius ?? 100, datum: datum)
            let (added, replaced) = try call { try store.upsertRegions(regions) }
            Console.error("imported \(target!): \(added) added, \(replaced) replaced; the store holds "
                          + "\(try call { try store.regionCount() }) regions")
        case "apply":
            let payload: [UInt8]
            do { payload = Array(try Data(contentsOf: URL(fileURLWithPath: target!))) } catch {
                throw CLIError.failure("geofence fences apply: \(target!): \(error.localizedDescription)")
            }
            var applier = FenceSetApplier(store: store, messageName: target!)
            if let maximumBytes { applier.maximumBytes = Int(maximumBytes) }
            let ack = applier.apply(payload)
            Console.out(ack.json)
            if ack.status == .rejected { throw CLIError.failure("geofence fences apply: rejected: \(ack.error ?? "")") }
        case "list":
            var output = OutputBuffer()
            output.append(RegionListing.header)
            for entry in try call({ try store.regions() }) {
                output.append(RegionListing.row(entry.region, state: entry.stateRecord.state))
            }
            output.flush()
        case "remove":
            guard try call({ try store.removeRegion(identifier: target!) }) else {
                throw CLIError.failure(
                    "geofence fences remove: no region \(PrintableText.escaped(target!)) in \(storePath)")
            }
            Console.error("removed \(PrintableText.escaped(target!))")
        default:
            let regions = try call { try store.regions() }.map(\.region)
            switch formatText ?? "geojson" {
            case "geojson": Console.out(FenceFile.geojson(regions))
            case "csv":
                do {
                    Console.out(try FenceFile.csv(regions))
                } catch {
                    // The writer's message already says to use GeoJSON (--format geojson).
                    throw CLIError.failure("geofence fences export: store \(storePath): \(error) (--format geojson)")
                }
            case let other: throw arguments.usageError("--format \(other): expected geojson or csv")
            }
        }
    }
}
