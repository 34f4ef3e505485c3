import Foundation
import Synchronization

/// A value behind a lock: the one lock type of the package's modules, for any state shared between threads.
///
/// The lock is a word, taken by a compare-exchange and let go by an exchange while nobody waits (a monitor takes it
/// for every fix); a thread that finds it held sleeps on a pthread condition variable until the holder lets go. The
/// word: 0 free, 1 held, 2 held with perhaps a thread asleep, so that only a release that finds 2 wakes one (the
/// scheme of a futex mutex, with the condition variable in the futex's place; Swift cannot call the futex system call).
///
/// Why not a pthread mutex alone: its lock and unlock execute about 75 instructions where this executes a few, for
/// the same two atomic operations. Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see its
/// futex-based locking and reports every access it guards as a race, which would make `swift test
/// --sanitize=thread` useless for this package; it sees the atomic operations here (compiled in this module) and
/// the pthread calls. Why not `NSLock`: on Linux its `unlock` also takes a second mutex and broadcasts a condition.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` happens inside `withLock`, while `state` is held. For the same reason the
    // runtime's exclusivity check of each access (a class's stored property passed `inout`: swift_beginAccess, a few
    // dozen instructions on every fix) is left out: the lock already makes the access exclusive.
    @exclusivity(unchecked) private var value: Value
    private let state = Atomic<UInt32>(LockWord.free)
    /// Guards the sleeping and the waking, not `value`: a waiter holds it from its last look at `state` until it
    /// sleeps, so a release cannot signal in between and be missed.
    private let sleepers: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>

    package init(_ value: Value) {
        self.value = value
        sleepers = .allocate(capacity: 1)
        sleepers.initialize(to: pthread_mutex_t())
        wake = .allocate(capacity: 1)
        wake.initialize(to: pthread_cond_t())
        // Fail only without memory or with invalid attributes (none are passed): nothing to go on with.
        precondition(pthread_mutex_init(sleepers, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(wake, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(sleepers)
        wake.deinitialize(count: 1)
        wake.deallocate()
        sleepers.deinitialize(count: 1)
        sleepers.deallocate()
    }

    /// Runs `body` with the value, under the lock; `body` must not call `withLock` of the same instance (the lock
    /// is not recursive: that would deadlock).
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if !state.compareExchange(expected: LockWord.free, desired: LockWord.held, ordering: .acquiring).exchanged {
            lockAfterWaiting()
        }
        defer {
            if state.exchange(LockWord.free, ordering: .releasing) == LockWord.heldWithSleepers { wakeOneSleeper() }
        }
        return try body(&value)
    }

    /// The lock was held: sleeps until it is free, then takes it. Taken as "held with sleepers" (others may still
    /// sleep), so that its release wakes the next one.
    @inline(never)
    private func lockAfterWaiting() {
        pthread_mutex_lock(sleepers)
        while state.exchange(LockWord.heldWithSleepers, ordering: .acquiring) != LockWord.free {
            pthread_cond_wait(wake, sleepers)
        }
        pthread_mutex_unlock(sleepers)
    }

    @inline(never)
    private func wakeOneSleeper() {
        pthread_mutex_lock(sleepers)
        pthread_cond_signal(wake)
        pthread_mutex_unlock(sleepers)
    }
}

/// The values of `Locked`'s word.
private enum LockWord {
    static let free: UInt32 = 0
    static let held: UInt32 = 1
    static let heldWithSleepers: UInt32 = 2
}
