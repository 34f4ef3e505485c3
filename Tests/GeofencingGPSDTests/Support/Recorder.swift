import Foundation
import GeofencingTestSupport
import Synchronization

/// Consumes a stream in a task of its own and keeps what arrives, so a test can wait for a condition with a
/// deadline without cancelling the stream (cancelling the consumer of `GPSDSource.observations` stops the source).
///
/// The consuming task runs on a thread of its own (`RecorderExecutor`), not on the shared pool that runs the tests:
/// CPU-bound tests can hold every thread of that pool for minutes, and a stream whose consumer does not run drops
/// its oldest elements once its buffer is full (`GPSDSource.connectionStates` keeps 64).
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Storage()
    private let task: Task<Void, Never>

    private final class Storage: Sendable {
        let elements = Mutex<[Element]>([])
        let finished = Mutex(false)
    }

    init(_ stream: AsyncStream<Element>) {
        let storage = self.storage
        task = Task(executorPreference: RecorderExecutor.shared) {
            for await element in stream {
                storage.elements.withLock { $0.append(element) }
            }
            storage.finished.withLock { $0 = true }
        }
    }

    var elements: [Element] { storage.elements.withLock { $0 } }

    /// Whether the stream has ended.
    var isFinished: Bool { storage.finished.withLock { $0 } }

    /// Waits until `condition` holds for what arrived so far, polling every 10 ms; false after `timeout`.
    @discardableResult
    func wait(timeout: Duration, until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(elements) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(elements)
    }

    /// Waits until the stream ends; false after `timeout`.
    func waitForEnd(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if isFinished { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return isFinished
    }

    /// Cancels the consuming task (for a `GPSDSource`'s observations: stops the source).
    func cancel() { task.cancel() }
}

/// One thread that runs the recorders' consuming tasks, one job at a time (they only append to a list).
final class RecorderExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` only under `condition`'s lock.
    static let shared = RecorderExecutor()
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "test stream recorders"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// This process's open descriptors, from /proc/self/fd.
enum Descriptors {
    /// Descriptor number → what it refers to ("socket:[123]", "pipe:[456]", a path).
    static func open() -> [Int32: String] {
        var result: [Int32: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in names {
            guard let number = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)
            else { continue }
            result[number] = target
        }
        return result
    }

    static var count: Int { open().count }

    /// This process's sockets that no table of /proc/net lists: sockets neither connected, nor listening, nor
    /// bound — what a socket left open after a failed connect is. Sockets of other tests running in parallel are
    /// connected or listening (or, for an instant, just created), so this count, unlike `count`, stays near zero
    /// while they come and go.
    static var unattachedSockets: Int {
        var listed: Set<Substring> = []
        for (table, inodeColumn) in [("tcp", 9), ("tcp6", 9), ("udp", 9), ("udp6", 9), ("unix", 6), ("raw", 9)] {
            for line in ProcFile.text("/proc/net/" + table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                if fields.count > inodeColumn { listed.insert(fields[inodeColumn]) }
            }
        }
        return open().values.filter { target in
            target.hasPrefix("socket:[") && !listed.contains(target.dropFirst(8).dropLast())
        }.count
    }

    /// The socket inodes of this process's TCP connections to 127.0.0.1:`port` (from /proc/net/tcp).
    static func sockets(connectedToPort port: UInt16) -> Set<String> {
        let table = ProcFile.text("/proc/net/tcp")
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9 else { continue }
            let remote = fields[2].split(separator: ":")
            guard remote.count == 2, UInt16(remote[1], radix: 16) == port else { continue }
            inodes.insert("socket:[\(fields[9])]")
        }
        let mine = Set(open().values)
        return inodes.intersection(mine)
    }
}
