import Foundation
import Geofencing
import GeofencingTestSupport
import Testing

/// `geofence convert` and `--datum` on `fences import` / `export`, through the real executable.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct ConvertCommandTests {
    /// googollee/eviltransform's Beijing and Shanghai pairs (go/transform_test.go), WGS-84 → GCJ-02, and the
    /// Japanese datum origin (GSI: Tokyo 35°39'17.5148" N 139°44'40.5020" E; JGD2000 35°39'29.1572" N
    /// 139°44'28.8759" E, i.e. 35.6580992, 139.7413544), printed with 7 decimals.
    @Test func convertsArguments() throws {
        let outcome = try GeofenceExecutable.run(
            ["convert", "--from", "wgs84", "--to", "gcj02", "39.911954,116.377817", "31.1774276, 121.5272106",
             "-33.8688,151.2093"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // 39.91334545536069,116.38404722455657 and 31.17530398364597,121.531541859215 rounded; Sydney unchanged.
        #expect(outcome.standardOutput == "39.9133455,116.3840472\n31.1753040,121.5315419\n-33.8688000,151.2093000\n")

        let origin = try GeofenceExecutable.run(["convert", "--from", "tokyo", "--to", "wgs84",
                                                  "35.654865222,139.744583889"])
        #expect(origin.status == 0, "\(origin.standardError)")
        let fields = origin.standardOutput.split(separator: ",").map { Double($0.trimmingCharacters(in: .newlines))! }
        // Within 1 m of JGD2000 (measured 0.82 m): 1e-5° of latitude is 1.1 m.
        #expect(abs(fields[0] - 35.6580992) < 1e-5 && abs(fields[1] - 139.7413544) < 1e-5, "\(origin.standardOutput)")
    }

    @Test func readsStandardInputAndRoundTrips() throws {
        let input = "39.91334545536069,116.38404722455657\n\n31.17530398364597,121.531541859215\n"
        let outcome = try GeofenceExecutable.run(["convert", "--from", "GCJ-02", "--to", "wgs84"], input: Data(input.utf8))
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "39.9119540,116.3778170\n31.1774276,121.5272106\n")
        // GCJ-02 -> Tokyo -> GCJ-02 through WGS-84 gives the points back within the two printed roundings (1e-7°).
        let there = try GeofenceExecutable.run(["convert", "--from", "gcj02", "--to", "tokyo"], input: Data(input.utf8))
        let back = try GeofenceExecutable.run(["convert", "--from", "tokyo", "--to", "gcj02"],
                                              input: Data(there.standardOutput.utf8))
        let values = back.standardOutput.split(whereSeparator: { $0 == "," || $0 == "\n" }).compactMap { Double($0) }
        let expected = [39.91334545536069, 116.38404722455657, 31.17530398364597, 121.531541859215]
        #expect(values.count == 4, "\(back.standardOutput)")
        for (value, original) in zip(values, expected) { #expect(abs(value - original) <= 1.5e-7, "\(value)") }
    }

    @Test func badInputIsAUsageErrorNamingTheArgumentOrLine() throws {
        for (arguments, input, message) in [
            (["--from", "wgs84", "--to", "gcj02", "1,2", "91,0"], "", "argument 2: '91,0': field lat: 91 is outside"),
            (["--from", "wgs84", "--to", "gcj02", "1;2"], "", "argument 1: '1;2': expected LAT,LON, got 1 field"),
            (["--from", "wgs84", "--to", "gcj02"], "1,2\nabc,2\n", "stdin:2: 'abc,2': field lat: 'abc' is not a number"),
            (["--from", "bd09", "--to", "gcj02", "1,2"], "", "--from bd09: expected wgs84, gcj02 or tokyo"),
            (["--to", "gcj02", "1,2"], "", "--from is required"),
        ] as [([String], String, String)] {
            let outcome = try GeofenceExecutable.run(["convert"] + arguments, input: Data(input.utf8))
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty, "\(arguments)")
        }
    }

    /// A GCJ-02 CSV imported with --datum gcj02 is stored in WGS-84 and exported back in GCJ-02, with its datum;
    /// a bad --datum is a usage error that leaves the store as it was.
    @Test func fencesImportWithDatumAndExportInIt() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let file = directory.appendingPathComponent("gcj.csv")
        try "id,lat,lon,radius_m\nbeijing,39.91334545536069,116.38404722455657,80\n"
            .write(to: file, atomically: true, encoding: .utf8)

        let imported = try GeofenceExecutable.run(["fences", "import", file.path, "--store", store, "--datum", "gcj02"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let listed = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(listed.standardOutput.contains("beijing,circle,39.911954,116.377817,80,,,unknown"), "\(listed.standardOutput)")

        let exported = try GeofenceExecutable.run(["fences", "export", "--store", store, "--format", "csv"])
        let rows = exported.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.first == ["id", "lat", "lon", "radius_m", "datum"], "\(exported.standardOutput)")
        let row = try #require(rows.dropFirst().first)
        #expect(row[0] == "beijing" && row[4] == "gcj02" && row[3] == "80")
        #expect(abs(Double(row[1])! - 39.91334545536069) < 1e-8 && abs(Double(row[2])! - 116.38404722455657) < 1e-8)

        let refused = try GeofenceExecutable.run(["fences", "import", file.path, "--store", store, "--datum", "nad27"])
        #expect(refused.status == 2 && refused.standardError.contains("--datum nad27: expected wgs84, gcj02 or tokyo"))
        let still = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(still.standardOutput == listed.standardOutput)
    }

    /// query --datum: a fence given in the Tokyo datum contains the WGS-84 point of its centre.
    @Test func queryReadsFencesInADatum() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tokyo.csv")
        try "id,lat,lon,radius_m\norigin,35.654865222,139.744583889,50\n".write(to: file, atomically: true, encoding: .utf8)
        let point = Data("35.6580992,139.7413544\n".utf8)
        let shifted = try GeofenceExecutable.run(["query", "--fences", file.path, "--datum", "tokyo"], input: point)
        #expect(shifted.status == 0, "\(shifted.standardError)")
        #expect(shifted.standardOutput.contains("0,origin,"), "\(shifted.standardOutput)")
        // Read as WGS-84 the fence is ~450 m off, and the point is outside it.
        let unshifted = try GeofenceExecutable.run(["query", "--fences", file.path], input: point)
        #expect(unshifted.standardOutput == "point,region,distance_m\n")
    }
}
