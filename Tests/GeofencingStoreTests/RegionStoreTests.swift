// Regions in the store: every field comes back as it went in, replacing keeps the state and the place, removing
// removes only the region.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Stored regions")
struct RegionStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    /// Regions covering every field's interesting values, with identifiers that break naive quoting.
    static let variedRegions: [Region] = {
        var regions = Fixture.awkwardIdentifiers.enumerated().map { index, identifier in
            Fixture.region(identifier, latitude: -27.4698 + Double(index) * 1e-7, longitude: 153.0251 - Double(index))
        }
        regions += [
            Fixture.region("quiet", notifyOnEntry: false, notifyOnExit: false),
            Fixture.region("exit-only", notifyOnEntry: false, notifyOnExit: true),
            Fixture.region("dwell", dwellTime: 300.5, hysteresis: 2.5),
            Fixture.region("dwell-zero", dwellTime: 0, hysteresis: 0),
            Fixture.region("antimeridian-east", latitude: 64.1, longitude: 180, radius: 50_000),
            Fixture.region("antimeridian-west", latitude: -85, longitude: -180, radius: 1),
            // Doubles that a decimal text round trip would change.
            Fixture.region("thirds", latitude: 1.0 / 3.0, longitude: -2.0 / 3.0, radius: 100.0 / 7.0,
                           dwellTime: 0.1 + 0.2, hysteresis: 1e-300),
        ]
        return regions
    }()

    @Test("every field of every region comes back, in insertion order, also after reopening")
    func roundTrip() throws {
        let regions = Self.variedRegions
        do {
            let store = try GeofenceStore(path: path)
            let counts = try store.upsertRegions(regions)
            #expect(counts.added == regions.count)
            #expect(counts.replaced == 0)
            #expect(try store.regions() == regions.map(StoredRegion.new))
            for region in regions {
                #expect(try store.region(identifier: region.identifier) == .new(region))
            }
            #expect(try store.region(identifier: "a") == nil)  // "a\0b" must not match its prefix
            #expect(try store.region(identifier: "missing") == nil)
        }
        let reopened = try GeofenceStore(path: path)
        #expect(try reopened.regions() == regions.map(StoredRegion.new))
    }

    @Test("replacing a region keeps its state, its stay and its place in the order")
    func replaceKeepsState() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a"), Fixture.region("b", dwellTime: 60), Fixture.region("c")])
        try store.append([
            Fixture.event(1, .enter, "b", at: 10), Fixture.event(2, .dwell, "b", at: 70),
            Fixture.event(3, .state, "c", at: 70, state: .outside),
        ], states: ["b": Fixture.inside(since: 10, dwellReported: true), "c": Fixture.outside])

        let moved = Fixture.region("b", latitude: -27.5, radius: 250, notifyOnExit: false, dwellTime: 120)
        let counts = try store.upsertRegions([moved])
        #expect(counts.added == 0)
        #expect(counts.replaced == 1)

        let stored = try store.regions()
        #expect(stored.map(\.region.identifier) == ["a", "b", "c"])
        #expect(stored[1] == StoredRegion(
            region: moved,
            stateRecord: RegionStateRecord(state: .inside, insideSince: Fixture.time(10), dwellReported: true)))
        #expect(stored[2].stateRecord.state == .outside)
    }

    @Test("a duplicate within one call replaces the earlier one; a new identifier goes to the end")
    func duplicatesAndOrder() throws {
        let store = try GeofenceStore(path: path)
        let first = Fixture.region("x", radius: 10)
        let second = Fixture.region("x", radius: 20)
        let counts = try store.upsertRegions([first, Fixture.region("y"), second])
        #expect(counts.added == 2)
        #expect(counts.replaced == 1)
        #expect(try store.regions().map(\.region) == [second, Fixture.region("y")])

        try store.removeRegion(identifier: "x")
        try store.upsertRegions([Fixture.region("x", radius: 30)])
        #expect(try store.regions().map(\.region.identifier) == ["y", "x"])
    }

    @Test("removing a region removes it and its state; its events stay in the outbox")
    func remove() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a"), Fixture.region("b"), Fixture.region("c")])
        try store.append([Fixture.event(1, .enter, "b")], states: ["b": Fixture.inside(since: 0)])

        #expect(try store.removeRegion(identifier: "b"))
        #expect(try !store.removeRegion(identifier: "b"))
        #expect(try !store.removeRegion(identifier: "never"))
        #expect(try store.regions().map(\.region.identifier) == ["a", "c"])
        #expect(try store.region(identifier: "b") == nil)
        #expect(try store.events(after: 0, limit: 10).map(\.region) == ["b"])

        // Added again: a new region, nothing known.
        try store.upsertRegions([Fixture.region("b")])
        #expect(try store.region(identifier: "b") == .new(Fixture.region("b")))
    }

    @Test("a region the store cannot keep is rejected by name and nothing of the call is written",
          arguments: [
            (Fixture.region("nan-lat", latitude: .nan), "nan-lat"),
            (Fixture.region("nan-radius", radius: .nan), "nan-radius"),
            (Fixture.region("nan-dwell", dwellTime: .nan), "nan-dwell"),
            (Fixture.region(""), "empty identifier"),
          ])
    func invalidRegion(bad: Region, named: String) throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("kept")])
        let error = #expect(throws: StoreError.self) {
            try store.upsertRegions([Fixture.region("new"), bad])
        }
        guard case .invalidArgument(let errorPath, let reason) = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(reason.contains(named))
        #expect(try store.regions().map(\.region.identifier) == ["kept"])
    }
}
