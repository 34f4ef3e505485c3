import Foundation

/// A value behind a lock: the one lock type of the package's modules, for any state shared between threads.
///
/// The lock is a plain pthread mutex (default type: not recursive, not error-checking), held by pointer so that it
/// never moves. Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see `Mutex`'s futex-based
/// locking and reports every access it guards as a race (a five-line program with one Mutex-guarded counter is
/// enough), which would make `swift test --sanitize=thread` useless for this package; it models pthread mutexes.
/// (`Atomic` is fine: the sanitizer models atomic operations.) Why not `NSLock`, also a pthread mutex: on Linux its
/// `unlock` also takes a second mutex and broadcasts a condition (for `lock(before:)`'s waiters), which more than
/// doubled the cost of the lock a monitor takes for every fix.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` happens inside `withLock`, under `mutex`. For the same reason the runtime's
    // exclusivity check of each access (a class's stored property passed `inout`: swift_beginAccess, a few dozen
    // instructions on every fix) is left out: the lock already makes the access exclusive.
    @exclusivity(unchecked) private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Fails only without memory or with invalid attributes (none are passed): nothing to go on with.
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, under the lock; `body` must not call `withLock` of the same instance (the mutex
    /// is not recursive: that would deadlock).
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
