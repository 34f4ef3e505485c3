// swift-tools-version: 6.1
// Geofencing: geofencing for on-vehicle Linux units. See README.md and ../shared/DESIGN.md for the architecture.
import PackageDescription

let package = Package(
    name: "Geofencing",
    products: [
        // The Swift façade (RegionMonitor) over the C core (include/geofence.h, usable from C on its own).
        .library(name: "Geofencing", targets: ["Geofencing", "CGeofence"]),
        .library(name: "GeofencingInputs", targets: ["GeofencingInputs"]),
        // Fixes from gpsd through libgps; without the GPSD trait it builds, and GPSDSource.start() throws .disabled.
        .library(name: "GeofencingGPSD", targets: ["GeofencingGPSD"]),
        .executable(name: "perf", targets: ["perf"]),
    ],
    traits: [
        .default(enabledTraits: ["GPSD"]),
        .trait(
            name: "GPSD",
            description: "Read fixes from gpsd through libgps (Debian: libgps-dev). Off: "
                + "`swift build --disable-default-traits` builds without libgps; GPSDSource.start() then throws."
        ),
    ],
    targets: [
        // The C core. Sources in CSources/, public header in the top-level include/ (gf_ prefix).
        .target(
            name: "CGeofence",
            path: ".",
            sources: ["CSources"],
            publicHeadersPath: "include",
            // gf_point_from_degrees rounds with lround(): a client that links nothing else from libm needs it.
            linkerSettings: [.linkedLibrary("m")]
        ),
        // The Swift façade: regions, fixes, RegionMonitor, delegate and event stream. Knows nothing of gpsd or SQLite.
        .target(
            name: "Geofencing",
            dependencies: ["CGeofence"],
            path: "Sources/Geofencing"
        ),
        // Inputs without gpsd: NMEA 0183, GPX and gpsd JSON readers, and the drive simulator.
        .target(
            name: "GeofencingInputs",
            dependencies: ["Geofencing"],
            path: "Sources/GeofencingInputs"
        ),
        // libgps, gpsd's client library (pkg-config libgps); used only with the GPSD trait.
        .systemLibrary(
            name: "CGPS",
            path: "Sources/CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),
        // The gpsd input: GPSDSource, a reconnecting libgps reader on its own thread.
        .target(
            name: "GeofencingGPSD",
            dependencies: ["Geofencing", .target(name: "CGPS", condition: .when(traits: ["GPSD"]))],
            path: "Sources/GeofencingGPSD"
        ),
        // `swift run perf`: the benchmark. Not part of any library product.
        .executableTarget(
            name: "perf",
            dependencies: ["CGeofence", "CPerfSupport", "Geofencing", "GeofencingInputs"],
            path: "Sources/perf"
        ),
        // perf only: glibc heap readings and an exact allocation counter. It defines malloc & co. for the whole
        // process, so nothing but the perf executable may depend on it (see its include/perf_support.h).
        .target(
            name: "CPerfSupport",
            path: "Sources/CPerfSupport"
        ),
        // Test helpers shared by the test targets: the seeded generator, the shared-data locator.
        .target(
            name: "GeofencingTestSupport",
            dependencies: ["GeofencingInputs"],
            path: "Tests/GeofencingTestSupport"
        ),
        .testTarget(
            name: "CGeofenceTests",
            dependencies: ["CGeofence", "GeofencingInputs", "GeofencingTestSupport"],
            path: "Tests/CGeofenceTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GeofencingInputsTests",
            dependencies: ["GeofencingInputs", "Geofencing", "GeofencingTestSupport"],
            path: "Tests/GeofencingInputsTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GeofencingGPSDTests",
            dependencies: ["GeofencingGPSD", "GeofencingInputs", "Geofencing", "GeofencingTestSupport"],
            path: "Tests/GeofencingGPSDTests"
        ),
        .testTarget(
            name: "GeofencingTests",
            dependencies: ["Geofencing", "CGeofence", "GeofencingInputs", "GeofencingTestSupport"],
            path: "Tests/GeofencingTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
