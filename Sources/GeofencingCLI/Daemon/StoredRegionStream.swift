import Foundation
import Geofencing
import GeofencingStore

/// The store's regions with their state records, read and decoded on a thread of their own while the caller takes
/// them: a daemon restoring 10^6 regions decodes rows on one core while the monitor restores the previous ones on
/// the other, and hands them over `chunkSize` at a time through a queue of at most `queuedChunks` chunks (a few
/// megabytes, whatever the store's size).
///
/// One pass, one consumer: iterate it once (`RegionMonitor.restoreMonitoring(_:)` takes it whole), then call
/// `finish()`, which waits for the reading thread and throws the store's error if a row could not be read (the
/// rows before it were handed over). The store must not be used by anyone else until `finish()` returns.
final class StoredRegionStream: Sequence, @unchecked Sendable {
    // @unchecked: `queue`, `readingDone`, `readError` and `abandoned` only under `condition`; `store` only on the
    // reading thread, between `init` and the end of `finish()` (which waits for that thread to end).
    typealias Element = (region: Region, state: RegionStateRecord)

    static let chunkSize = 4096
    static let queuedChunks = 4

    private let store: GeofenceStore
    private let expectedCount: Int
    private let condition = NSCondition()
    private var queue: [[Element]] = []
    private var readingDone = false
    private var readError: StoreError?
    /// Set by `finish()`: chunks read after it are dropped, so a consumer that stopped early does not leave the
    /// reader waiting for room.
    private var abandoned = false
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading. `expectedCount`: the store's region count, read just before (it only sizes the monitor's
    /// tables once, `underestimatedCount`; a `geofence fences` command changing the store in between costs at most
    /// a second growth or some unused room).
    init(store: GeofenceStore, expectedCount: Int) {
        self.store = store
        self.expectedCount = expectedCount
        let thread = Thread { [self] in read() }
        thread.name = "geofence.store-read"
        thread.start()
    }

    var underestimatedCount: Int { expectedCount }

    /// Waits for the reading thread to end (the store is the caller's again) and throws what the read threw.
    func finish() throws(StoreError) {
        condition.lock()
        abandoned = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
        finished.wait()
        condition.lock()
        defer { condition.unlock() }
        if let readError { throw readError }
    }

    private func read() {
        defer { finished.signal() }
        var chunk: [Element] = []
        chunk.reserveCapacity(Self.chunkSize)
        do throws(StoreError) {
            try store.forEachRegion { entry in
                chunk.append((entry.region, entry.stateRecord))
                if chunk.count == Self.chunkSize {
                    hand(chunk)
                    chunk = []
                    chunk.reserveCapacity(Self.chunkSize)
                }
            }
            if !chunk.isEmpty { hand(chunk) }
            end(nil)
        } catch {
            end(error)
        }
    }

    /// Queues a full chunk, waiting while `queuedChunks` are queued.
    private func hand(_ chunk: [Element]) {
        condition.lock()
        while queue.count >= Self.queuedChunks && !abandoned { condition.wait() }
        if !abandoned { queue.append(chunk) }
        condition.broadcast()
        condition.unlock()
    }

    private func end(_ error: StoreError?) {
        condition.lock()
        readingDone = true
        readError = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, waiting for the reader; nil when it has handed over every row (or failed).
    private func nextChunk() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !readingDone { condition.wait() }
        if queue.isEmpty { return nil }
        let chunk = queue.removeFirst()
        condition.broadcast()
        return chunk
    }

    struct Iterator: IteratorProtocol {
        let stream: StoredRegionStream
        var chunk: [Element] = []
        var index = 0

        mutating func next() -> Element? {
            if index == chunk.count {
                guard let next = stream.nextChunk() else { return nil }
                chunk = next
                index = 0
            }
            defer { index += 1 }
            return chunk[index]
        }
    }

    func makeIterator() -> Iterator { Iterator(stream: self) }
}
