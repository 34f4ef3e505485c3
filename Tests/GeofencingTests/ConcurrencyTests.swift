// Concurrency: fixes on one task while other tasks start and stop regions. Run also under
// `swift test --sanitize=thread`, where a data race fails the run.
import Foundation
import Geofencing
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Concurrency")
struct ConcurrencyTests {
    static let fixCount = 20_000
    static let workers = 4
    static let operationsPerWorker = 1_500
    static let identifiersPerWorker = 40

    /// Fix `index` of a vehicle driving back and forth along 3 km north of the origin at 10 m/s, 1 Hz.
    static func fix(_ index: Int, plane: LocalPlane) -> Fix {
        let phase = (index * 10) % 6000
        let north = Double(phase <= 3000 ? phase : 6000 - phase) + 0.3
        return Fix(coordinate: plane.coordinate(east: 3, north: north), timestamp: TrackBuilder.epoch + Double(index))
    }

    /// What worker `worker` does at step `step`: start (or replace) one of its regions somewhere on the route, or
    /// stop one. Each worker has identifiers of its own, so the final set does not depend on the interleaving.
    static func operation(worker: Int, step: Int, plane: LocalPlane) -> (identifier: String, region: Region?) {
        var random = SplitMix64(seed: UInt64(worker * 1_000_003 + step))
        let identifier = "w\(worker)-\(Int(random.next() % UInt64(identifiersPerWorker)))"
        if random.next() % 3 == 0 { return (identifier, nil) }
        let center = plane.coordinate(east: random.nextUnit() * 100 - 50, north: random.nextUnit() * 3000)
        let radius = 20 + random.nextUnit() * 200
        return (identifier, Region(center: center, radius: radius, identifier: identifier))
    }

    // The time limit guards against a deadlock (see DeliveryTests): it counts the time spent waiting for a thread.
    @Test("one task processes 20,000 fixes while four start and stop regions: consistent regions and events",
          .timeLimit(.minutes(10)))
    func fixesWhileRegionsChurn() async throws {
        let plane = LocalPlane(origin: .brisbane)
        let recorder = EventRecorder()
        var monitor: RegionMonitor? = try RegionMonitor()
        monitor!.delegate = recorder
        let stream = monitor!.events
        let fixed = (0..<30).map {
            Region.test("fixed-\($0)", radius: 40, center: plane.coordinate(east: 0, north: Double($0) * 100))
        }
        for region in fixed { monitor!.startMonitoring(for: region) }

        await Self.churn(monitor!, plane: plane)

        // The final regions: the fixed ones plus each worker's last word on each of its identifiers.
        var expected = Dictionary(uniqueKeysWithValues: fixed.map { ($0.identifier, $0) })
        for worker in 0..<Self.workers {
            for step in 0..<Self.operationsPerWorker {
                let (identifier, region) = Self.operation(worker: worker, step: step, plane: plane)
                expected[identifier] = region
            }
        }
        #expect(monitor!.monitoredRegions == Set(expected.values))
        #expect(expected.keys.allSatisfy { monitor!.state(for: $0) != nil })

        monitor = nil
        let fromStream = await collectUntilEnd(stream)
        let events = recorder.regionEvents
        #expect(events.count > 1_000)
        #expect(fromStream == recorder.monitorEvents, "stream and delegate saw the same order")
        #expect(events.map(\.sequence) == Array(1...UInt64(events.count)), "sequence +1 in delivery order")
        #expect(recorder.callbacks.allSatisfy { $0.isConsistent })
        let problems = TransitionChecker().problems(in: events)
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        // The fixed regions, never touched, saw whole passes: the vehicle drove past each of them many times.
        #expect(recorder.transitions(of: "fixed-10").count > 10)
    }

    /// The fixes on one task, the workers on four others, all at once. (A function of its own, so that no strong
    /// reference to the monitor outlives it: the test releases the monitor to end its event stream.)
    static func churn(_ monitor: RegionMonitor, plane: LocalPlane) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<fixCount {
                    monitor.process(fix(index, plane: plane))
                    if index % 64 == 0 { await Task.yield() }
                }
            }
            for worker in 0..<workers {
                group.addTask {
                    for step in 0..<operationsPerWorker {
                        let (identifier, region) = operation(worker: worker, step: step, plane: plane)
                        if let region {
                            monitor.startMonitoring(for: region)
                        } else {
                            monitor.stopMonitoring(identifier: identifier)
                        }
                        if step % 50 == 0 {
                            monitor.requestState(for: .test(identifier))
                            _ = monitor.monitoredRegions.count
                        }
                        if step % 8 == 0 { await Task.yield() }
                    }
                }
            }
        }
    }
}
