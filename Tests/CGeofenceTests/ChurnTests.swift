// A long random life of one big table: adds, removes, moves and resizes mirrored in a Swift model, with the table's
// invariants, contents and query answers checked against the model along the way.
import CGeofence
import Foundation
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Churn: a 100,000-fence table through 150,000 random operations")
struct ChurnTests {
    static let initialFences = 100_000
    static let operations = 150_000
    static let checkpointInterval = 10_000
    static let queriesPerCheckpoint = 50
    static let capacity: UInt32 = 120_000
    static let margins: [UInt32] = [0, 5_000, 100_000, 5_000_000, GF_MARGIN_MAX_MM]

    /// Everything one churn run needs, so each operation is a small method.
    struct Run {
        let table: FenceTable
        var model = FenceModel()
        var random: SplitMix64
        /// Recently removed handles, checked to stay dead while their slot is reused.
        var removed: [gf_handle] = []
        /// Hits compared with brute force, to show the queries were not all empty.
        var hitsCompared = 0

        init(seed: UInt64) throws {
            table = try FenceTable(capacity: ChurnTests.capacity)
            random = SplitMix64(seed: seed)
        }

        /// A fence centre in one of the test regions or anywhere on earth (where a fence may be).
        mutating func randomCentre() -> gf_point {
            let regions = TestRegion.allCases
            let pick = Int.random(in: 0...regions.count, using: &random)
            let point = pick < regions.count
                ? regions[pick].randomPoint(using: &random)
                : gf_point(
                    lat: .random(in: -GF_FENCE_LAT_MAX_E7...GF_FENCE_LAT_MAX_E7, using: &random),
                    lon: .random(in: -GF_LON_MAX_E7...GF_LON_MAX_E7, using: &random))
            return TestGeometry.clampedToFenceLatitude(point)
        }

        mutating func randomRadius() -> UInt32 {
            UInt32(random.logUniform(Double(GF_RADIUS_MIN_MM)...Double(GF_RADIUS_MAX_MM)).rounded())
        }

        mutating func add() throws {
            guard model.count < Int(ChurnTests.capacity) else { return }
            let centre = randomCentre()
            let radius = randomRadius()
            let handle = try table.add(centre, radiusMM: radius)
            #expect(handle != GF_HANDLE_NONE && handle >> 24 != 0, "handle \(hex(handle)) has no generation")
            if !model.insert(FenceRecord(handle: handle, centre: centre, radiusMM: radius)) {
                Issue.record("gf_fence_add returned \(hex(handle)), which is already live")
            }
        }

        mutating func remove() throws {
            guard let fence = model.randomFence(using: &random) else { return }
            try requireOK(gf_fence_remove(table.pointer, fence.handle), "gf_fence_remove(\(hex(fence.handle)))")
            model.remove(fence.handle)
            expectStale(fence.handle)
            removed.append(fence.handle)
            if removed.count > 2_000 { removed.removeFirst(1_000) }
        }

        /// Moves a fence; `how` decides where to.
        mutating func move(_ how: Move) throws {
            guard let fence = model.randomFence(using: &random) else { return }
            var centre = fence.centre
            var radius = fence.radiusMM
            switch how {
            case .jitter:
                centre = TestGeometry.clampedToFenceLatitude(TestGeometry.offset(
                    centre, metres: .random(in: 0...2_000, using: &random), azimuthDegrees: .random(in: 0..<360, using: &random)))
            case .jump:
                centre = randomCentre()
                radius = randomRadius()
            case .acrossAntimeridian:
                // To just the other side of +-180 from wherever the fence's longitude points.
                let step = Int32.random(in: 1...1_000_000, using: &random)
                centre.lon = centre.lon > 0 ? -GF_LON_MAX_E7 + step : GF_LON_MAX_E7 - step
            case .resize:
                radius = radius < GF_RADIUS_MAX_MM / 2 ? GF_RADIUS_MAX_MM : GF_RADIUS_MIN_MM
            }
            try requireOK(
                gf_fence_move(table.pointer, fence.handle, centre, radius),
                "gf_fence_move(\(hex(fence.handle)), \(centre.text), \(radius)) [\(how)]")
            model.update(fence.handle, centre: centre, radiusMM: radius)
        }

        /// Rejected operations in the middle of the churn must leave the fence and the count as they were.
        mutating func rejectedOperation() {
            let countBefore = table.count
            if let fence = model.randomFence(using: &random) {
                let badRadius = Bool.random(using: &random) ? 0 : GF_RADIUS_MAX_MM + 1
                expectStatus(gf_fence_move(table.pointer, fence.handle, fence.centre, badRadius), GF_ERR_RADIUS, "move to radius \(badRadius)")
                let tooFarNorth = gf_point(lat: GF_FENCE_LAT_MAX_E7 + 1, lon: fence.centre.lon)
                expectStatus(gf_fence_move(table.pointer, fence.handle, tooFarNorth, fence.radiusMM), GF_ERR_LATITUDE, "move to \(tooFarNorth.text)")
                expectFenceMatchesModel(fence.handle)
            }
            var handle = GF_HANDLE_NONE
            expectStatus(gf_fence_add(table.pointer, gf_point(lat: 0, lon: 0), 999, &handle), GF_ERR_RADIUS, "add with radius 999")
            #expect(table.count == countBefore, "a rejected operation changed the count")
        }

        func expectStale(_ handle: gf_handle) {
            let name = "stale handle \(hex(handle))"
            expectStatus(gf_fence_remove(table.pointer, handle), GF_ERR_HANDLE, "remove \(name)")
            expectStatus(gf_fence_move(table.pointer, handle, gf_point(lat: 0, lon: 0), 1_000), GF_ERR_HANDLE, "move \(name)")
            expectStatus(gf_fence_get(table.pointer, handle, nil, nil), GF_ERR_HANDLE, "get \(name)")
        }

        func expectFenceMatchesModel(_ handle: gf_handle) {
            guard let fence = model[handle] else { return }
            var centre = gf_point(lat: -1, lon: -1)
            var radius: UInt32 = 0
            guard expectStatus(gf_fence_get(table.pointer, handle, &centre, &radius), GF_OK, "get live \(hex(handle))") else { return }
            #expect(
                centre.lat == fence.centre.lat && centre.lon == fence.centre.lon && radius == fence.radiusMM,
                "fence \(hex(handle)) is \(centre.text) r \(radius), model says \(fence.centre.text) r \(fence.radiusMM)")
        }

        /// The full comparison: invariants, count, a sample of fences, dead handles, and queries against brute force.
        mutating func checkpoint(_ label: String) throws {
            expectStatus(gf_table_verify(table.pointer), GF_OK, "gf_table_verify at \(label)")
            #expect(Int(table.count) == model.count, "count at \(label)")
            for _ in 0..<200 {
                if let fence = model.randomFence(using: &random) { expectFenceMatchesModel(fence.handle) }
            }
            for handle in removed where !model.contains(handle) {
                expectStatus(gf_fence_get(table.pointer, handle, nil, nil), GF_ERR_HANDLE, "get dead \(hex(handle)) at \(label)")
            }
            for _ in 0..<ChurnTests.queriesPerCheckpoint {
                guard let fence = model.randomFence(using: &random) else { break }
                let margin = ChurnTests.margins.randomElement(using: &random)!
                let target = Bool.random(using: &random)
                    ? Double(fence.radiusMM) + Double(margin) + .random(in: -30...30, using: &random)
                    : .random(in: 0...Double(fence.radiusMM), using: &random)
                let fix = try TestGeometry.pointAtCoreDistance(target, from: fence.centre, using: &random)
                let expected = try BruteForce.hits(fix, marginMM: margin, fences: model.fences, skipFarLatitudes: true)
                let actual = try table.query(fix, marginMM: margin)
                hitsCompared += expected.count
                #expect(Set(actual.map(\.handle)).count == actual.count, "a handle appears twice at \(label)")
                if actual.sorted() != expected {
                    Issue.record("""
                        query at \(label), fix \(fix.text) margin \(margin): \
                        missing \(Set(expected).subtracting(actual).sorted()), extra \(Set(actual).subtracting(expected).sorted())
                        """)
                }
            }
        }
    }

    enum Move: CaseIterable {
        case jitter, jump, acrossAntimeridian, resize
    }

    @Test("Random adds, removes, moves and resizes agree with a Swift model")
    func churnAgreesWithModel() throws {
        var run = try Run(seed: 0xC4_0000_2025)
        for _ in 0..<Self.initialFences { try run.add() }
        try run.checkpoint("after \(Self.initialFences) adds")

        for operation in 1...Self.operations {
            switch Int.random(in: 0..<100, using: &run.random) {
            case 0..<30: try run.add()
            case 30..<60: try run.remove()
            case 60..<75: try run.move(.jitter)
            case 75..<85: try run.move(.jump)
            case 85..<92: try run.move(.acrossAntimeridian)
            case 92..<98: try run.move(.resize)
            default: run.rejectedOperation()
            }
            if operation % Self.checkpointInterval == 0 { try run.checkpoint("operation \(operation)") }
        }

        print("churn: \(Self.operations) operations after \(Self.initialFences) adds, \(run.model.count) fences live, \(run.hitsCompared) query hits compared with brute force")
        #expect(run.hitsCompared > 1_000, "the checkpoint queries found almost nothing to compare")
        for fence in run.model.fences { run.expectFenceMatchesModel(fence.handle) }
        for fence in run.model.fences {
            try requireOK(gf_fence_remove(run.table.pointer, fence.handle), "final remove")
        }
        #expect(run.table.count == 0)
        expectStatus(gf_table_verify(run.table.pointer), GF_OK, "gf_table_verify of the emptied table")
        #expect(try run.table.query(gf_point(lat: 480_000_000, lon: 110_000_000), marginMM: GF_MARGIN_MAX_MM).isEmpty)
    }

    /// The generation in bits 24..31 changes each time a slot is reused, so 254 reuses of one slot give 255
    /// different handles and every earlier one is stale.
    @Test("Reusing one slot gives a new handle each time; old ones are rejected")
    func slotReuseChangesTheHandle() throws {
        let table = try FenceTable(capacity: 1)
        var seen: [gf_handle] = []
        for round in 0..<255 {
            let handle = try table.add(gf_point(lat: 0, lon: Int32(round)), radiusMM: 1_000)
            #expect(handle != GF_HANDLE_NONE && handle >> 24 != 0, "round \(round): handle \(hex(handle))")
            #expect(!seen.contains(handle), "round \(round): handle \(hex(handle)) handed out before")
            for old in seen {
                expectStatus(gf_fence_get(table.pointer, old, nil, nil), GF_ERR_HANDLE, "round \(round): old handle \(hex(old))")
            }
            seen.append(handle)
            try requireOK(gf_fence_remove(table.pointer, handle), "remove in round \(round)")
        }
    }
}
