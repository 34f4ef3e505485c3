import Foundation

/// A value behind a lock, for the monitor's shared state.
///
/// Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see `Mutex`'s futex-based locking and reports
/// every access it guards as a race (a five-line program with one Mutex-guarded counter is enough), which would make
/// `swift test --sanitize=thread` useless for this package. `NSLock` is a pthread mutex, which the sanitizer models.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` happens inside `withLock`, under `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
