import Glibc

/// A mutex and a condition variable whose timed waits run on CLOCK_MONOTONIC: a wall clock set from GNSS at boot
/// (common on vehicle units) must not stretch or cut a publish timeout, as Foundation's NSCondition (which waits
/// until a `Date`) would let it.
final class MonotonicCondition: @unchecked Sendable {
    // Heap-allocated: pthread objects must not move, and Swift may move stored properties.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter. Call with the lock held (inside `withLock`), after changing what they wait for.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// With the lock held: waits until `isDone()` is true or `deadline` has passed; returns `isDone()`'s last value.
    func wait(until deadline: ContinuousClock.Instant, for isDone: () -> Bool) -> Bool {
        while !isDone() {
            let left = deadline - .now
            if left <= .zero { return false }
            var end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &end)
            let parts = left.components
            end.tv_sec += Int(parts.seconds)
            end.tv_nsec += Int(parts.attoseconds / 1_000_000_000)
            if end.tv_nsec >= 1_000_000_000 {
                end.tv_sec += 1
                end.tv_nsec -= 1_000_000_000
            }
            _ = pthread_cond_timedwait(condition, mutex, &end)
        }
        return true
    }
}
