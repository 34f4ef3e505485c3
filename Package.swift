// swift-tools-version: 6.1
// Geofencing: geofencing for on-vehicle Linux units. README.md says what it does; ARCHITECTURE.md has the rooms below,
// the arrows between them and a glossary.
import PackageDescription

let package = Package(
    name: "Geofencing",
    products: [
        // The Swift façade (RegionMonitor) over the C core (include/geofence.h, usable from C on its own).
        .library(name: "Geofencing", targets: ["Geofencing", "CGeofence"]),
        // The event's wire form: EventRecord and its JSON line (both ways), the one JSON string escaper, ISO 8601 time.
        .library(name: "GeofencingEvents", targets: ["GeofencingEvents"]),
        .library(name: "GeofencingInputs", targets: ["GeofencingInputs"]),
        // What the unit writes rather than reads: NMEA logs (for gpsfake) and fence files (GeoJSON, CSV).
        .library(name: "GeofencingWriters", targets: ["GeofencingWriters"]),
        // Fixes from gpsd through libgps; without the GPSD trait it builds, and GPSDSource.start() throws .disabled.
        .library(name: "GeofencingGPSD", targets: ["GeofencingGPSD"]),
        // The SQLite store of the daemon: regions, their states, and the event outbox.
        .library(name: "GeofencingStore", targets: ["GeofencingStore"]),
        // Where events go: JSON Lines, a command per event (no shell), MQTT (with the MQTT trait).
        .library(name: "GeofencingSinks", targets: ["GeofencingSinks"]),
        // A self-contained HTML map of fences, a track and events.
        .library(name: "GeofencingMap", targets: ["GeofencingMap"]),
        // The `geofence` command: demo, replay, query, run (the daemon), fences, map, simulate.
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "perf", targets: ["perf"]),
    ],
    traits: [
        .default(enabledTraits: ["GPSD", "MQTT"]),
        .trait(
            name: "GPSD",
            description: "Read fixes from gpsd through libgps (Debian: libgps-dev). Off: "
                + "`swift build --disable-default-traits` builds without libgps; GPSDSource.start() then throws."
        ),
        .trait(
            name: "MQTT",
            description: "Publish events to an MQTT broker through libmosquitto (Debian: libmosquitto-dev). Off: "
                + "MQTTSink.init throws, and `geofence run --mqtt` says so."
        ),
    ],
    targets: [
        // The C core. Sources in CSources/, public header in the top-level include/ (gf_ prefix).
        .target(
            name: "CGeofence",
            path: ".",
            sources: ["CSources"],
            publicHeadersPath: "include"
        ),
        // The Swift façade: regions, fixes, RegionMonitor, delegate and event stream. Knows nothing of gpsd or SQLite.
        .target(
            name: "Geofencing",
            dependencies: ["CGeofence"],
            path: "Sources/Geofencing"
        ),
        // EventRecord, its JSON Lines form written and read, JSONText and ISO8601Time: a leaf on the façade, so that
        // store, sinks, map and inputs share one escaper and one time format without depending on each other.
        .target(
            name: "GeofencingEvents",
            dependencies: ["Geofencing"],
            path: "Sources/GeofencingEvents"
        ),
        // Inputs without gpsd: NMEA 0183, GPX and gpsd JSON readers, fence file readers, and the drive simulator.
        .target(
            name: "GeofencingInputs",
            dependencies: ["Geofencing", "GeofencingEvents"],
            path: "Sources/GeofencingInputs"
        ),
        // Writers: NMEA 0183 logs of observations, GeoJSON and CSV fence files; they read back through the inputs.
        .target(
            name: "GeofencingWriters",
            dependencies: ["Geofencing", "GeofencingEvents", "GeofencingInputs"],
            path: "Sources/GeofencingWriters"
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
        // SQLite (pkg-config sqlite3), for the store.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Regions, their states and the event outbox in one SQLite file (WAL, synchronous=FULL, mode 0600).
        .target(
            name: "GeofencingStore",
            dependencies: ["Geofencing", "GeofencingEvents", "CSQLite"],
            path: "Sources/GeofencingStore"
        ),
        // libmosquitto, the MQTT client library (pkg-config libmosquitto); used only with the MQTT trait.
        .systemLibrary(
            name: "CMosquitto",
            path: "Sources/CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // The event sinks: JSON Lines, exec (posix_spawn, never a shell), MQTT QoS 1.
        .target(
            name: "GeofencingSinks",
            dependencies: [
                "Geofencing", "GeofencingEvents", .target(name: "CMosquitto", condition: .when(traits: ["MQTT"])),
            ],
            path: "Sources/GeofencingSinks"
        ),
        // The HTML map on Leaflet, one self-contained file. Leaflet (Debian's libjs-leaflet, BSD-2-clause) is compiled
        // in at build time by the plugin, so the binary writes maps where the package is not installed.
        .target(
            name: "GeofencingMap",
            dependencies: ["Geofencing", "GeofencingEvents"],
            path: "Sources/GeofencingMap",
            plugins: [.plugin(name: "LeafletEmbedding")]
        ),
        .executableTarget(name: "LeafletEmbedder", path: "Sources/LeafletEmbedder"),
        .plugin(name: "LeafletEmbedding", capability: .buildTool(), dependencies: ["LeafletEmbedder"],
                path: "Plugins/LeafletEmbedding"),
        // The commands of `geofence`. The executable target below is their one-line main (the only place the process
        // exits). A library so that tests can also call parts of the daemon in-process (the fence-set applier, the
        // unit's status, the monitor's switch to a new set); the commands themselves are tested as real processes.
        .target(
            name: "GeofencingCLI",
            dependencies: [
                "Geofencing", "GeofencingEvents", "GeofencingInputs", "GeofencingWriters", "GeofencingGPSD",
                "GeofencingStore",
                "GeofencingSinks", "GeofencingMap",
            ],
            path: "Sources/GeofencingCLI",
            plugins: ["BuildInfoPlugin"]
        ),
        // BuildInfo.swift for the CLI (`geofence --version`, the unit's status): the version from the top-level
        // VERSION file and the checkout's commit, read from files at build time (no git, no network).
        .plugin(name: "BuildInfoPlugin", capability: .buildTool(), dependencies: ["BuildInfoWriter"],
                path: "Plugins/BuildInfoPlugin"),
        .executableTarget(name: "BuildInfoWriter", path: "Plugins/BuildInfoWriter"),
        .executableTarget(
            name: "geofence",
            dependencies: ["GeofencingCLI"],
            path: "Sources/geofence"
        ),
        // `swift run perf`: the benchmark. Not part of any library product.
        .executableTarget(
            name: "perf",
            dependencies: ["CGeofence", "CPerfSupport", "CPerfPeers", "CPerfCxxPeers", "Geofencing", "GeofencingInputs"],
            path: "Sources/perf"
        ),
        // perf only: the peers in C++ behind a C API (boost.geometry's rtree, header-only from Debian's libboost-dev;
        // S2's S2CellIndex, Debian's libs2-dev, which brings Abseil's shared libraries along).
        .target(
            name: "CPerfCxxPeers",
            dependencies: ["CGeofence", "CPerfPeers"],
            path: "Sources/CPerfCxxPeers",
            // Measured as they ship: the debug checks inlined from the headers (S2_DCHECK, BOOST_ASSERT) off, as in
            // a release build of S2 itself; SwiftPM's release configuration does not define NDEBUG for C++.
            cxxSettings: [.define("NDEBUG")],
            linkerSettings: [.linkedLibrary("s2")]
        ),
        // perf only: the peers in C (c-scan, the no-index floor; geos-strtree, GEOS's STRtree through its C API).
        .target(
            name: "CPerfPeers",
            dependencies: ["CGeofence", "CGEOS"],
            path: "Sources/CPerfPeers"
        ),
        // GEOS's C API (pkg-config geos; Debian libgeos-dev), for the geos-strtree peer in perf only.
        .systemLibrary(
            name: "CGEOS",
            path: "Sources/CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        // perf only: glibc heap readings and an exact allocation counter. It defines malloc & co. for the whole
        // process, so nothing but the perf executable may depend on it (see its include/perf_support.h).
        .target(
            name: "CPerfSupport",
            path: "Sources/CPerfSupport"
        ),
        // Test helpers shared by the test targets: the seeded generator, the shared-data locator, the geofence
        // executable, servers (mosquitto and an MQTT subscriber) and scratch file systems.
        .target(
            name: "GeofencingTestSupport",
            dependencies: [
                "Geofencing", "GeofencingInputs", .target(name: "CMosquitto", condition: .when(traits: ["MQTT"])),
                // The subscriber's network loop is the sinks' (poll(2), no descriptor bound).
                .target(name: "GeofencingSinks", condition: .when(traits: ["MQTT"])),
            ],
            path: "Tests/GeofencingTestSupport"
        ),
        .testTarget(
            name: "CGeofenceTests",
            dependencies: ["CGeofence", "GeofencingInputs", "GeofencingTestSupport"],
            path: "Tests/CGeofenceTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GeofencingEventsTests",
            dependencies: ["GeofencingEvents", "Geofencing", "GeofencingInputs"],
            path: "Tests/GeofencingEventsTests"
        ),
        .testTarget(
            name: "GeofencingInputsTests",
            dependencies: [
                "GeofencingInputs", "GeofencingEvents", "GeofencingWriters", "Geofencing", "GeofencingTestSupport",
            ],
            path: "Tests/GeofencingInputsTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GeofencingGPSDTests",
            dependencies: [
                "GeofencingGPSD", "GeofencingInputs", "GeofencingWriters", "Geofencing", "GeofencingTestSupport",
            ],
            path: "Tests/GeofencingGPSDTests"
        ),
        .testTarget(
            name: "GeofencingStoreTests",
            dependencies: ["GeofencingStore", "GeofencingEvents", "Geofencing", "GeofencingTestSupport"],
            path: "Tests/GeofencingStoreTests"
        ),
        .testTarget(
            name: "GeofencingSinksTests",
            dependencies: ["GeofencingSinks", "GeofencingEvents", "Geofencing", "GeofencingTestSupport"],
            path: "Tests/GeofencingSinksTests"
        ),
        .testTarget(
            name: "GeofencingMapTests",
            dependencies: ["GeofencingMap", "GeofencingEvents", "Geofencing", "GeofencingTestSupport"],
            path: "Tests/GeofencingMapTests"
        ),
        .testTarget(
            name: "GeofencingCLITests",
            dependencies: [
                "GeofencingCLI", "GeofencingStore", "GeofencingEvents", "GeofencingInputs", "GeofencingWriters",
                "Geofencing",
                "GeofencingTestSupport",
            ],
            path: "Tests/GeofencingCLITests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GeofencingTests",
            dependencies: ["Geofencing", "CGeofence", "GeofencingInputs", "GeofencingTestSupport"],
            path: "Tests/GeofencingTests"
        ),
    ],
    swiftLanguageModes: [.v6],
    // The one C++ target, CPerfCxxPeers: S2 0.10 and Abseil 20220623 need C++17.
    cxxLanguageStandard: .cxx17
)
