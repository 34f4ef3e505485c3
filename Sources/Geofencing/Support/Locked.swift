import Foundation

/// A value behind a lock: the one lock type of the package's modules, for any state shared between threads.
///
/// Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see `Mutex`'s futex-based locking and reports
/// every access it guards as a race (a five-line program with one Mutex-guarded counter is enough), which would make
/// `swift test --sanitize=thread` useless for this package. `NSLock` is a pthread mutex, which the sanitizer models.
/// (`Atomic` is fine: the sanitizer models atomic operations.)
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` happens inside `withLock`, under `lock`. For the same reason the runtime's
    // exclusivity check of each access (a class's stored property passed `inout`: swift_beginAccess, a few dozen
    // instructions on every fix) is left out: the lock already makes the access exclusive.
    @exclusivity(unchecked) private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock; `body` must not call `withLock` of the same instance.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
