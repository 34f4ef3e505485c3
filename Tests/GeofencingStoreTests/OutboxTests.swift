// The event outbox: events come back exactly, appending stores the regions' records given with them, sequence
// numbers continue without gaps (or nothing is written), and sinks have independent cursors that pruning respects.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingStore
import Testing

@Suite("Event outbox")
struct OutboxTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store.sqlite")
    }

    @Test("events come back with every field, ascending, after a sequence number and up to a limit")
    func eventsRoundTrip() throws {
        let store = try GeofenceStore(path: path)
        #expect(try store.lastSequence() == 0)
        let events = [
            EventRecord(sequence: 1, kind: .enter, region: "O'Connell \"N\" 🚏", time: Fixture.time(0.123456789),
                        latitude: -27.5712345, longitude: 153.0912345, distance: -3.2, state: .inside,
                        crossedAt: Fixture.time(-1.0 / 7.0)),
            EventRecord(sequence: 2, kind: .dwell, region: "a\u{0}b", time: Fixture.time(1.0 / 3.0),
                        latitude: 0, longitude: -180, distance: -0.0, state: .inside, interpolated: true),
            EventRecord(sequence: 3, kind: .state, region: "x", time: Fixture.time(2), latitude: 85,
                        longitude: 180, distance: nil, state: .unknown, inferred: true),
            EventRecord(sequence: 4, kind: .exit, region: "x", time: Date(timeIntervalSinceReferenceDate: -1e9),
                        latitude: -85, longitude: 1e-7, distance: 49_999.99, state: .outside, inferred: true,
                        interpolated: true, crossedAt: Date(timeIntervalSinceReferenceDate: -1e9 - 0.1)),
            EventRecord(sequence: 5, kind: .approach, region: "", time: Fixture.time(4), latitude: 1,
                        longitude: 2, distance: .infinity, state: .outside),
        ]
        try store.append(events)
        #expect(try store.lastSequence() == 5)
        #expect(try store.events(after: 0, limit: 100) == events)
        #expect(try store.events(after: 2, limit: 2) == Array(events[2...3]))
        #expect(try store.events(after: 5, limit: 100).isEmpty)
        #expect(try store.events(after: 0, limit: 0).isEmpty)
        #expect(try store.events(after: .max, limit: 1).isEmpty)
        #expect(throws: StoreError.invalidArgument(path: path, reason: "event limit -1 is negative")) {
            try store.events(after: 0, limit: -1)
        }
    }

    /// One step of a region's life: the events appended, with the record the monitor reported for "r" (nil: none
    /// with these events), then what `region(identifier:)` must say.
    struct Step {
        var events: [EventRecord]
        var given: RegionStateRecord?
        var state: RegionState
        var known: RegionState
        var insideSince: Double?
        var dwellReported: Bool

        /// A step whose record is given and must come back as it was given.
        init(events: [EventRecord], state: RegionState, known: RegionState, insideSince: Double?,
             dwellReported: Bool, given: Bool = true) {
            self.events = events
            self.state = state
            self.known = known
            self.insideSince = insideSince
            self.dwellReported = dwellReported
            self.given = given ? RegionStateRecord(
                state: state, lastKnownState: known, insideSince: insideSince.map(Fixture.time),
                dwellReported: dwellReported) : nil
        }
    }

    @Test("appending stores the records given with the events, as given; a region given none keeps its record")
    func appendStoresTheGivenStates() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("r", dwellTime: 30), Fixture.region("other")])
        let steps: [Step] = [
            // The first fix: determined outside.
            Step(events: [Fixture.event(1, .state, "r", at: 0, state: .outside)],
                 state: .outside, known: .outside, insideSince: nil, dwellReported: false),
            Step(events: [Fixture.event(2, .enter, "r", at: 10)],
                 state: .inside, known: .inside, insideSince: 10, dwellReported: false),
            Step(events: [Fixture.event(3, .dwell, "r", at: 40)],
                 state: .inside, known: .inside, insideSince: 10, dwellReported: true),
            // An outage: the current state becomes unknown, the stay and its dwell are kept.
            Step(events: [Fixture.event(4, .state, "r", at: 50, state: .unknown)],
                 state: .unknown, known: .inside, insideSince: 10, dwellReported: true),
            // Fixes again, still inside: the same stay.
            Step(events: [Fixture.event(5, .state, "r", at: 90, state: .inside)],
                 state: .inside, known: .inside, insideSince: 10, dwellReported: true),
            // An approach alarm comes with no record: the stored one stays.
            Step(events: [Fixture.event(6, .approach, "r", at: 95, state: .inside)],
                 state: .inside, known: .inside, insideSince: 10, dwellReported: true, given: false),
            Step(events: [Fixture.event(7, .exit, "r", at: 100)],
                 state: .outside, known: .outside, insideSince: nil, dwellReported: false),
            Step(events: [Fixture.event(8, .state, "r", at: 110, state: .unknown)],
                 state: .unknown, known: .outside, insideSince: nil, dwellReported: false),
            // Determined inside after outside: a new stay from the determination.
            Step(events: [Fixture.event(9, .state, "r", at: 120, state: .inside)],
                 state: .inside, known: .inside, insideSince: 120, dwellReported: false),
            // Several events in one append, and the record after the last of them; events of another region
            // (with its own record) leave "r" alone.
            Step(events: [Fixture.event(10, .dwell, "r", at: 150), Fixture.event(11, .enter, "other", at: 151),
                          Fixture.event(12, .exit, "r", at: 160), Fixture.event(13, .enter, "r", at: 170)],
                 state: .inside, known: .inside, insideSince: 170, dwellReported: false),
            // A record without events (a transition the notify flags keep quiet).
            Step(events: [], state: .outside, known: .outside, insideSince: nil, dwellReported: false),
            Step(events: [Fixture.event(14, .state, "r", at: 180, state: .outside)],
                 state: .outside, known: .outside, insideSince: nil, dwellReported: false),
        ]
        for (index, step) in steps.enumerated() {
            var states: [String: RegionStateRecord] = [:]
            if let given = step.given { states["r"] = given }
            if step.events.contains(where: { $0.region == "other" }) { states["other"] = Fixture.inside(since: 151) }
            try store.append(step.events, states: states)
            let expected = RegionStateRecord(
                state: step.state, lastKnownState: step.known, insideSince: step.insideSince.map(Fixture.time),
                dwellReported: step.dwellReported)
            let stored = try #require(try store.region(identifier: "r"))
            #expect(stored.stateRecord.state == step.state, "step \(index)")
            #expect(stored.stateRecord == expected, "step \(index)")
        }
        #expect(try store.region(identifier: "other")?.stateRecord.state == .inside)
        #expect(try store.lastSequence() == 14)
        #expect(try store.events(after: 0, limit: 100).map(\.sequence) == Array(1...14))
    }

    @Test("a record for a region that is not stored changes nothing; one that cannot be stored is rejected whole")
    func recordsForOtherRegions() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a")])
        try store.append([], states: ["gone": Fixture.outside])
        #expect(try store.regions() == [.new(Fixture.region("a"))])
        let nan = RegionStateRecord(state: .inside, insideSince: Date(timeIntervalSinceReferenceDate: .nan))
        #expect(throws: StoreError.invalidArgument(
            path: path, reason: "the state of region \"a\": inside since is not a number")) {
            try store.append([Fixture.event(1, .enter, "a")], states: ["a": nan])
        }
        #expect(try store.lastSequence() == 0)
        #expect(try store.regions() == [.new(Fixture.region("a"))])
    }

    @Test("an event for a region that is not stored is kept and changes no region")
    func eventForUnknownRegion() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("a")])
        try store.append([Fixture.event(1, .enter, "gone")])
        #expect(try store.events(after: 0, limit: 10).map(\.region) == ["gone"])
        #expect(try store.region(identifier: "gone") == nil)
        #expect(try store.region(identifier: "a") == .new(Fixture.region("a")))
    }

    @Test("a sequence gap, a repeat or a bad number is rejected and nothing of the call is written")
    func sequenceGapRejected() throws {
        let store = try GeofenceStore(path: path)
        try store.upsertRegions([Fixture.region("r")])
        // The first events of a store may start anywhere (a monitor's firstSequence).
        try store.append([Fixture.event(41, .state, "r", state: .outside), Fixture.event(42, .enter, "r", at: 5)],
                         states: ["r": Fixture.inside(since: 5)])
        let before = try store.events(after: 0, limit: 100)
        let regionBefore = try store.regions()

        #expect(throws: StoreError.sequenceGap(path: path, expected: 43, got: 44)) {
            try store.append([Fixture.event(44, .exit, "r")], states: ["r": Fixture.outside])
        }
        #expect(throws: StoreError.sequenceGap(path: path, expected: 43, got: 42)) {
            try store.append([Fixture.event(42, .exit, "r")], states: ["r": Fixture.outside])
        }
        // The batch starts right but skips inside: nothing of it, not even the exit, is written.
        #expect(throws: StoreError.sequenceGap(path: path, expected: 44, got: 45)) {
            try store.append([Fixture.event(43, .exit, "r"), Fixture.event(45, .enter, "r")],
                             states: ["r": Fixture.inside(since: 0)])
        }
        #expect(throws: StoreError.sequenceGap(path: path, expected: 44, got: 43)) {
            try store.append([Fixture.event(43, .exit, "r"), Fixture.event(43, .enter, "r")],
                             states: ["r": Fixture.inside(since: 0)])
        }
        let zero = #expect(throws: StoreError.self) {
            try store.append([Fixture.event(0, .exit, "r")], states: ["r": Fixture.outside])
        }
        #expect(zero.map { if case .invalidArgument = $0 { true } else { false } } == true)
        let huge = #expect(throws: StoreError.self) {
            try store.append([Fixture.event(.max, .exit, "r")], states: ["r": Fixture.outside])
        }
        #expect(huge.map { if case .invalidArgument = $0 { true } else { false } } == true)

        #expect(try store.lastSequence() == 42)
        #expect(try store.events(after: 0, limit: 100) == before)
        #expect(try store.regions() == regionBefore)
        try store.append([])  // nothing to do, no error
        try store.append([Fixture.event(43, .exit, "r")], states: ["r": Fixture.outside])
        #expect(try store.region(identifier: "r")?.stateRecord.state == .outside)
    }

    @Test("two sinks have independent cursors; a cursor only moves forward")
    func independentSinks() throws {
        let store = try GeofenceStore(path: path)
        try store.registerSink("jsonl")
        try store.registerSink("mqtt")
        try store.append(Fixture.events(from: 1, count: 5))

        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(try store.undelivered(sink: "mqtt", limit: 2).map(\.sequence) == [1, 2])

        try store.markDelivered(sink: "jsonl", through: 3)
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [4, 5])
        #expect(try store.undelivered(sink: "mqtt", limit: 10).map(\.sequence) == [1, 2, 3, 4, 5])

        try store.markDelivered(sink: "jsonl", through: 2)  // a late acknowledgement
        #expect(try store.undelivered(sink: "jsonl", limit: 10).map(\.sequence) == [4, 5])
        try store.registerSink("jsonl")  // registering again keeps the cursor
        #expect(try store.sinks() == ["jsonl": 3, "mqtt": 0])

        #expect(throws: StoreError.unknownSink(path: path, sink: "exec")) {
            try store.undelivered(sink: "exec", limit: 10)
        }
        #expect(throws: StoreError.unknownSink(path: path, sink: "exec")) {
            try store.markDelivered(sink: "exec", through: 1)
        }
        let beyond = #expect(throws: StoreError.self) { try store.markDelivered(sink: "mqtt", through: 6) }
        #expect(beyond.map { if case .invalidArgument = $0 { true } else { false } } == true)
        #expect(try store.sinks() == ["jsonl": 3, "mqtt": 0])
    }

    @Test("a new sink starts at the newest event: it gets the events appended from then on")
    func newSinkStartsNow() throws {
        let store = try GeofenceStore(path: path)
        try store.registerSink("from-start")  // on an empty outbox: every event
        try store.append(Fixture.events(from: 1, count: 3))
        try store.registerSink("late")
        #expect(try store.undelivered(sink: "late", limit: 10).isEmpty)
        #expect(try store.undelivered(sink: "from-start", limit: 10).count == 3)
        try store.append(Fixture.events(from: 4, count: 1))
        #expect(try store.undelivered(sink: "late", limit: 10).map(\.sequence) == [4])
    }

    @Test("pruning deletes only events every sink delivered, keeps the newest of them, and keeps lastSequence")
    func pruning() throws {
        do {
            let store = try GeofenceStore(path: path)
            try store.append(Fixture.events(from: 1, count: 10))
            try store.registerSink("a")
            try store.registerSink("b")
            try store.append(Fixture.events(from: 11, count: 10))
            // Without deliveries nothing may go: a and b have delivered nothing of 11 ... 20, and events 1 ... 10
            // came before they existed (their cursors start at 10), so those are pruned.
            #expect(try store.pruneDelivered(keeping: 0) == 10)
            #expect(try store.events(after: 0, limit: 100).map(\.sequence) == Array(11...20))

            try store.markDelivered(sink: "a", through: 18)
            try store.markDelivered(sink: "b", through: 15)
            #expect(try store.pruneDelivered(keeping: 2) == 3)  // 11, 12, 13; 14 and 15 kept
            #expect(try store.events(after: 0, limit: 100).map(\.sequence) == Array(14...20))
            #expect(try store.undelivered(sink: "b", limit: 100).map(\.sequence) == Array(16...20))
            #expect(try store.undelivered(sink: "a", limit: 100).map(\.sequence) == [19, 20])
            #expect(try store.pruneDelivered(keeping: 2) == 0)

            try store.markDelivered(sink: "a", through: 20)
            try store.markDelivered(sink: "b", through: 20)
            #expect(try store.pruneDelivered(keeping: 0) == 7)
            #expect(try store.events(after: 0, limit: 100).isEmpty)
            #expect(try store.lastSequence() == 20)
            #expect(throws: StoreError.sequenceGap(path: path, expected: 21, got: 1)) {
                try store.append(Fixture.events(from: 1, count: 1))
            }
        }
        let reopened = try GeofenceStore(path: path)
        #expect(try reopened.lastSequence() == 20)
        try reopened.append(Fixture.events(from: 21, count: 1))
        #expect(try reopened.undelivered(sink: "a", limit: 10).map(\.sequence) == [21])
    }

    @Test("with no sink registered, or after a sink is removed, pruning follows the sinks that remain")
    func pruningWithoutSinks() throws {
        let store = try GeofenceStore(path: path)
        try store.append(Fixture.events(from: 1, count: 4))
        #expect(try store.pruneDelivered(keeping: 0) == 0)  // nobody read them yet

        try store.registerSink("slow")
        try store.append(Fixture.events(from: 5, count: 2))
        try store.registerSink("fast")
        try store.markDelivered(sink: "fast", through: 6)
        #expect(try store.pruneDelivered(keeping: 0) == 4)  // "slow" has 5 and 6 still to deliver
        #expect(try store.removeSink("slow"))
        #expect(try !store.removeSink("slow"))
        #expect(try store.pruneDelivered(keeping: 0) == 2)
        #expect(throws: StoreError.invalidArgument(path: path, reason: "keeping -1 is negative")) {
            try store.pruneDelivered(keeping: -1)
        }
        #expect(throws: StoreError.invalidArgument(path: path, reason: "the sink name is empty")) {
            try store.registerSink("")
        }
    }
}
