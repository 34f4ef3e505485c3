// swift-tools-version: 6.1
// Geofencing: geofencing for on-vehicle Linux units. See README.md and ../shared/DESIGN.md for the architecture.
import PackageDescription

let package = Package(
    name: "Geofencing",
    products: [
        // The C core (include/geofence.h); the Swift façade joins this product when it lands.
        .library(name: "Geofencing", targets: ["CGeofence"]),
        .executable(name: "perf", targets: ["perf"]),
    ],
    targets: [
        // The C core. Sources in CSources/, public header in the top-level include/ (gf_ prefix).
        .target(
            name: "CGeofence",
            path: ".",
            sources: ["CSources"],
            publicHeadersPath: "include"
        ),
        // `swift run perf`: the benchmark. Not part of any library product.
        .executableTarget(
            name: "perf",
            dependencies: ["CGeofence"],
            path: "Sources/perf"
        ),
        .testTarget(
            name: "CGeofenceTests",
            dependencies: ["CGeofence"],
            path: "Tests/CGeofenceTests",
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
