import Foundation
import Geofencing
@testable import GeofencingCLI
import GeofencingStore
import GeofencingTestSupport
import Testing

/// Fence sets and patches applied to a store in process (`FenceSetApplier`): applied, unchanged, rejected, and a
/// rejected message leaves the store's regions, states and version exactly as they were.
@Suite("Fence sets")
struct FenceSetApplierTests {
    let directory: URL
    let store: GeofenceStore

    init() throws {
        directory = try GeofenceExecutable.temporaryDirectory()
        store = try GeofenceStore(path: directory.appendingPathComponent("unit.db").path)
    }

    /// A circle feature of `radius` metres at `metres` east of the fixtures' origin; `properties` adds members.
    static func circle(_ identifier: String, at metres: Double, radius: String = "80", properties: String = "")
        -> String
    {
        let center = DaemonFixtures.east(metres)
        return "{\"type\":\"Feature\",\"id\":\"\(identifier)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
            + "[\(center.longitude),\(center.latitude)]},\"properties\":{\"radius\":\(radius)\(properties)}}"
    }

    static func set(_ version: String, _ features: [String]) -> [UInt8] {
        let members = "\"version\":\(version),\"features\":[\(features.joined(separator: ","))]"
        return Array("{\"type\":\"FeatureCollection\",\(members)}".utf8)
    }

    static func patch(base: String, version: String, upsert: [String] = [], remove: [String] = []) -> [UInt8] {
        let removed = remove.map { "\"\($0)\"" }.joined(separator: ",")
        let upserted = upsert.joined(separator: ",")
        return Array(("{\"base_version\":\"\(base)\",\"version\":\"\(version)\",\"upsert\":[\(upserted)],"
            + "\"remove\":[\(removed)]}").utf8)
    }

    func apply(_ payload: [UInt8], maximumBytes: Int = FenceSetApplier.defaultMaximumBytes) -> FenceSetAck {
        FenceSetApplier(store: store, maximumBytes: maximumBytes).apply(payload)
    }

    /// Everything a message could change: regions with their states, and the version.
    func contents() throws -> ([StoredRegion], String?) {
        (try store.regions(), try store.fenceSetVersion())
    }

    /// Applies `payload`, expects a rejection whose error contains every one of `phrases`, and the store unchanged.
    func expectRejected(_ payload: [UInt8], maximumBytes: Int = FenceSetApplier.defaultMaximumBytes,
                        _ phrases: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try contents()
        let ack = apply(payload, maximumBytes: maximumBytes)
        #expect(ack.status == .rejected, sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(ack.error?.contains(phrase) == true, "\(ack.error ?? "no error") lacks \(phrase)",
                    sourceLocation: sourceLocation)
        }
        #expect(ack.fences == before.0.count, sourceLocation: sourceLocation)
        let after = try contents()
        #expect(after.0 == before.0 && after.1 == before.1, "the store changed", sourceLocation: sourceLocation)
    }

    @Test func appliedThenUnchanged() throws {
        let message = Self.set("\"v1\"", [Self.circle("A", at: 500), Self.circle("B", at: 1_500)])
        let ack = apply(message)
        #expect(ack == FenceSetAck(version: "v1", status: .applied, fences: 2, added: 2))
        #expect(ack.json
            == #"{"version":"v1","status":"applied","fences":2,"added":2,"removed":0,"replaced":0,"error":null}"#)
        #expect(try store.fenceSetVersion() == "v1")
        #expect(try store.regions().map(\.region.identifier) == ["A", "B"])

        let before = try contents()
        #expect(apply(message) == FenceSetAck(version: "v1", status: .unchanged, fences: 2))
        let after = try contents()
        #expect(after.0 == before.0 && after.1 == before.1)
    }

    /// A set that keeps A as it is, widens B, drops C and adds D: A and B keep their states, D starts unknown.
    @Test func identifiersThatStayKeepTheirStates() throws {
        _ = apply(Self.set("\"v1\"", [Self.circle("A", at: 500), Self.circle("B", at: 1_500),
                                      Self.circle("C", at: 2_500)]))
        let inside = RegionStateRecord(state: .inside, insideSince: Date(timeIntervalSince1970: 1_700_000_000))
        try store.append([], states: ["A": inside, "B": RegionStateRecord(state: .outside)])

        let ack = apply(Self.set("\"v2\"", [Self.circle("A", at: 500), Self.circle("B", at: 1_500, radius: "120"),
                                            Self.circle("D", at: 3_500)]))
        #expect(ack == FenceSetAck(version: "v2", status: .applied, fences: 3, added: 1, removed: 1, replaced: 1))
        let stored = try store.regions()
        #expect(stored.map(\.region.identifier) == ["A", "B", "D"])
        #expect(stored.map(\.stateRecord)
            == [inside, RegionStateRecord(state: .outside), RegionStateRecord(state: .unknown)])
        #expect(stored[1].region.radius == 120)
    }

    /// A new version with the same content is applied (the version is recorded) with nothing changed.
    @Test func sameContentUnderANewVersionRecordsTheVersion() throws {
        _ = apply(Self.set("\"v1\"", [Self.circle("A", at: 500)]))
        #expect(apply(Self.set("\"v2\"", [Self.circle("A", at: 500)]))
            == FenceSetAck(version: "v2", status: .applied, fences: 1))
        #expect(try store.fenceSetVersion() == "v2")
    }

    @Test func patches() throws {
        _ = apply(Self.set("\"v1\"", [Self.circle("A", at: 500), Self.circle("B", at: 1_500)]))
        let patch = Self.patch(base: "v1", version: "v2", upsert: [Self.circle("C", at: 2_500),
                                                                  Self.circle("A", at: 600)], remove: ["B"])
        #expect(apply(patch)
            == FenceSetAck(version: "v2", status: .applied, fences: 2, added: 1, removed: 1, replaced: 1))
        #expect(try store.regions().map(\.region.identifier) == ["A", "C"])
        #expect(try store.fenceSetVersion() == "v2")
        // The same patch delivered again (a retained message at reconnect): already applied.
        #expect(apply(patch) == FenceSetAck(version: "v2", status: .unchanged, fences: 2))
    }

    @Test func rejectedMessagesChangeNothing() throws {
        _ = apply(Self.set("\"v1\"", [Self.circle("A", at: 500), Self.circle("B", at: 1_500)]))
        let inside = RegionStateRecord(state: .inside, insideSince: Date(timeIntervalSince1970: 0))
        try store.append([], states: ["A": inside])

        // A bad feature: the error names the feature and the field.
        try expectRejected(Self.set("\"v2\"", [Self.circle("A", at: 500),
                                               Self.circle("B", at: 1_500, radius: "\"80\"")]),
                           "feature 2 (id \"B\")", "field properties.radius")
        try expectRejected(Self.set("\"v2\"", [Self.circle("A", at: 500), Self.circle("C", at: 1_500, radius: "0.5")]),
                           "feature 2 (id \"C\")", "properties.radius")
        // A duplicate identifier.
        try expectRejected(Self.set("\"v2\"", [Self.circle("A", at: 500), Self.circle("A", at: 900)]),
                           "feature 2 (id \"A\")", "duplicate identifier", "feature 1")
        // A patch on the wrong base; one removing an unknown fence; one upserting and removing the same fence.
        try expectRejected(Self.patch(base: "v0", version: "v2", remove: ["B"]), "base_version", "\"v0\"", "\"v1\"")
        try expectRejected(Self.patch(base: "v1", version: "v2", remove: ["Z"]), "no fence \"Z\"")
        try expectRejected(Self.patch(base: "v1", version: "v2", upsert: [Self.circle("B", at: 10)], remove: ["B"]),
                           "remove[0]", "also upserted")
        // An oversized message, refused before it is read (it is not even JSON).
        try expectRejected(Array(repeating: UInt8(ascii: "x"), count: 2_000), maximumBytes: 1_000,
                           "2000 bytes", "--max-fence-set-bytes 1000")
        // Versions are strings; a set without one; not JSON; not a set.
        try expectRejected(Self.set("2", [Self.circle("A", at: 500)]), "field version", "not a string")
        try expectRejected(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8), "field version", "missing")
        try expectRejected(Array(#"{"type":"FeatureCollection","version":"v2","features":[}"#.utf8), "invalid JSON")
        try expectRejected(Array(#"{"type":"Feature","version":"v2"}"#.utf8), "field type")
        #expect(try store.fenceSetVersion() == "v1")
    }

    @Test func theVersionSurvivesARestart() throws {
        _ = apply(Self.set("\"v1\"", [Self.circle("A", at: 500)]))
        let reopened = try GeofenceStore(path: store.path, readOnly: true)
        #expect(try reopened.fenceSetVersion() == "v1")
        #expect(FenceSetApplier(store: try GeofenceStore(path: store.path), maximumBytes: 1 << 20)
            .apply(Self.set("\"v1\"", [Self.circle("A", at: 500)])).status == .unchanged)
    }

    /// 10^5 circles: validated and committed to an empty store, the daemon's monitor loaded with them, then a set
    /// that keeps them all and adds one, and the daemon's reload of it (between two fixes: a region the vehicle is
    /// inside stays inside). The figures are printed, never asserted.
    @Test func aHundredThousandCircles() throws {
        let features = (0..<100_000).map { index in
            Self.circle("c\(index)", at: Double(index % 1_000) * 30, radius: "25",
                        properties: index % 2 == 0 ? "" : ",\"dwell_s\":60")
        }
        let message = Self.set("\"big-1\"", features)
        let clock = ContinuousClock()
        var ack = FenceSetAck(version: nil, status: .rejected, fences: 0)
        let first = clock.measure { ack = apply(message) }
        #expect(ack.status == .applied && ack.added == 100_000, "\(ack.json)")

        let daemon = Daemon(options: Daemon.Options(storePath: store.path, input: .nmea(path: "-")))
        let monitor = try RegionMonitor(configuration: MonitorConfiguration())
        let load = clock.measure { daemon.reload(from: store, into: monitor) }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let origin = Fix(coordinate: DaemonFixtures.east(0), timestamp: start, horizontalAccuracy: 5)
        let determined = monitor.process(origin)
        #expect(determined.events.contains { $0.regionIdentifier == "c0" && $0.state == .inside })
        try store.append([], states: determined.changedStates)  // as the daemon stores them

        var again = features
        again.append(Self.circle("extra", at: 10))
        let second = clock.measure { ack = apply(Self.set("\"big-2\"", again)) }
        #expect(ack == FenceSetAck(version: "big-2", status: .applied, fences: 100_001, added: 1))
        let reload = clock.measure { daemon.reload(from: store, into: monitor) }
        #expect(monitor.monitoredRegionCount == 100_001)
        let next = monitor.process(Fix(coordinate: DaemonFixtures.east(0), timestamp: start + 2, horizontalAccuracy: 5))
        #expect(!next.events.contains { $0.regionIdentifier == "c0" }, "c0 stays inside: no exit, no enter")
        #expect(next.events.contains { $0.regionIdentifier == "extra" }, "the new fence is determined at this fix")
        print("fence set of 10^5 circles (\(message.count) bytes): applied to an empty store in \(first), loaded "
            + "into the monitor in \(load); a set keeping them and adding one applied in \(second), reloaded in "
            + "\(reload)")
    }
}
