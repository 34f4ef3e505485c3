// Writes of many regions at once: the batched statements give what one statement per region gave, across batch
// boundaries and duplicates; and a row that breaks a CHECK (the open's quick_check leaves CHECKs out) is corrupt
// when read, naming the row.
import Foundation
import Geofencing
@testable import GeofencingStore
import Testing

@Suite("Batched region writes and read-time CHECKs")
struct BatchedWriteTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    /// More regions than two batches, so that full batches and single rows both run.
    static let count = 2 * StoreSQL.batchRows + 37

    static func regions(radius: Double = 100) -> [Region] {
        (0..<count).map { Fixture.region("r\($0)", latitude: -27 + Double($0) * 1e-4, radius: radius) }
    }

    @Test("an upsert across batches adds, replaces and keeps the order; a later duplicate in another batch wins")
    func upsertAcrossBatches() throws {
        let store = try GeofenceStore(path: path)
        var regions = Self.regions()
        // A duplicate of a region of the first batch, in the last full batch: it replaces that one in its place.
        let moved = Fixture.region("r3", latitude: 10, radius: 7)
        regions[2 * StoreSQL.batchRows - 1] = moved
        let counts = try store.upsertRegions(regions)
        #expect(counts.added == Self.count - 1 && counts.replaced == 1)
        var expected = Self.regions()
        expected.remove(at: 2 * StoreSQL.batchRows - 1)
        expected[3] = moved
        #expect(try store.regions() == expected.map(StoredRegion.new))

        // Everything again with a new radius: all replaced, states kept.
        try store.append([], states: ["r0": Fixture.outside])
        let again = try store.upsertRegions(Self.regions(radius: 55))
        #expect(again.added == 1 && again.replaced == Self.count - 1)  // r(2 * batchRows - 1) was replaced above
        let stored = try store.regions()
        #expect(stored.count == Self.count)
        #expect(stored.allSatisfy { $0.region.radius == 55 })
        #expect(stored.first?.stateRecord == Fixture.outside)
    }

    @Test("states of more regions than a batch are all stored, each with its own record")
    func statesAcrossBatches() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions(Self.regions())
        var states: [String: RegionStateRecord] = [:]
        for index in 0..<Self.count {
            states["r\(index)"] = index % 3 == 0 ? Fixture.inside(since: Double(index), dwellReported: index % 2 == 0)
                : Fixture.outside
        }
        states["not stored"] = Fixture.outside  // changes nothing
        try store.append([Fixture.event(1, .enter, "r0")], states: states)
        let stored = try store.regions()
        #expect(stored.count == Self.count)
        for entry in stored { #expect(entry.stateRecord == states[entry.region.identifier]) }
    }

    @Test("states in parts are stored in the events' one transaction; a problem in a later part writes nothing")
    func statesInParts() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions(Self.regions())
        let records = (0..<Self.count).map { index in
            index % 3 == 0 ? Fixture.inside(since: Double(index)) : Fixture.outside
        }
        // An empty part first (a part whose regions were all stopped), then the regions by index modulo 3.
        var parts: [[String: RegionStateRecord]] = [[:], [:], [:], [:]]
        for index in 0..<Self.count { parts[1 + index % 3]["r\(index)"] = records[index] }
        var broken = parts
        broken[3]["r2"] = Fixture.inside(since: .nan)
        #expect(throws: StoreError.self) { try store.append([Fixture.event(1, .enter, "r0")], stateParts: broken) }
        #expect(try store.lastSequence() == 0, "the event is not stored")
        #expect(try store.regions().allSatisfy { $0.stateRecord == RegionStateRecord(state: .unknown) },
                "nor the parts before the broken one")

        try store.append([Fixture.event(1, .enter, "r0")], stateParts: parts)
        #expect(try store.lastSequence() == 1)
        for entry in try store.regions() {
            #expect(entry.stateRecord == records[Int(entry.region.identifier.dropFirst())!], "\(entry.region)")
        }
    }

    /// Writes `sql` with the CHECK constraints off, as a hand edit could, and expects reading the regions to say
    /// the row is corrupt, naming it and `detail`.
    private func expectCorruptAfter(_ sql: String, _ detail: String) throws {
        do {
            let store = try GeofenceStore(path: path)
            try store.upsertRegions([Fixture.region("fine"), Fixture.region("edited")])
        }
        _ = try run(SQLiteShell.executable, [path, "PRAGMA ignore_check_constraints = ON; \(sql)"])
        let store = try GeofenceStore(path: path)  // the open's check leaves CHECKs out: the file opens
        let error = #expect(throws: StoreError.self) { _ = try store.regions() }
        guard case .corrupt(_, let message) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(message.contains("regions row \"edited\"") && message.contains(detail), "\(message)")
    }

    @Test("a flag column that is not 0 or 1 is corrupt")
    func flagOutOfRange() throws {
        try expectCorruptAfter("UPDATE regions SET notify_on_exit = 2 WHERE identifier = 'edited'",
                               "notify_on_exit is 2")
    }

    @Test("a circle with a geometry is corrupt")
    func circleWithGeometry() throws {
        try expectCorruptAfter("UPDATE regions SET geometry = '[[1,2]]' WHERE identifier = 'edited'",
                               "circle with geometry")
    }

    @Test("a speed limit that is not positive is corrupt")
    func speedLimitNotPositive() throws {
        try expectCorruptAfter("UPDATE regions SET speed_limit_kmh = -5 WHERE identifier = 'edited'",
                               "speed_limit_kmh not > 0")
    }

    @Test("the CHECKs still hold every write back after the open's check")
    func checksEnforcedAfterOpen() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a")])
        _ = try GeofenceStore(path: path)  // a second open runs its check too
        #expect(throws: StoreError.self) {
            try store.connection.execute(SQLStatement(
                name: "break a CHECK", text: "UPDATE regions SET dwell_reported = 5 WHERE identifier = 'a'"))
        }
        #expect(try store.regions() == [.new(Fixture.region("a"))])
    }
}
