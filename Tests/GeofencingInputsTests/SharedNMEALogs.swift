// Test support: the shared NMEA logs read once per test run (several suites need them; in a debug build reading
// all 8 MB takes seconds).
import Foundation
import Dispatch
import Synchronization
@testable import GeofencingInputs

enum SharedNMEALogs {
    struct Entry: Sendable {
        var name: String
        var data: Data
        var log: NMEALog
    }

    /// Every log in ../shared/data/nmea, by name, read with the default configuration; empty when absent.
    static let all: [String: Entry] = {
        let names = TestData.sharedNMEALogs
        let entries = Mutex<[String: Entry]>([:])
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let name = names[index]
            guard let data = FileManager.default.contents(atPath: TestData.shared("nmea/\(name)").path) else { return }
            let entry = Entry(name: name, data: data, log: NMEAReader.read(data: data, source: name))
            entries.withLock { $0[name] = entry }
        }
        return entries.withLock { $0 }
    }()
}
