// Locked: the package's one lock. Mutual exclusion under contention (threads that find it held must sleep and be
// woken, none lost), and a waiter woken by the release of a holder that held it long.
import Foundation
import Geofencing
import Testing

@Suite("Locked")
struct LockedTests {
    @Test("threads incrementing through withLock lose no increment")
    func contendedIncrementsAllLand() {
        // More threads than the machine has cores, so that holders are preempted and others find the lock held.
        let threads = 8
        let increments = 200_000
        // Two fields updated non-atomically: a broken exclusion shows as a lost increment or a torn pair.
        let counter = Locked((count: 0, shadow: 0))
        let torn = Locked(0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                for _ in 0..<increments {
                    let consistent = counter.withLock { value -> Bool in
                        let before = value.count
                        value.count = before + 1
                        value.shadow += 1
                        return value.count == value.shadow
                    }
                    if !consistent { torn.withLock { $0 += 1 } }
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        let total = counter.withLock { $0 }
        #expect(total.count == threads * increments)
        #expect(total.shadow == threads * increments)
        #expect(torn.withLock { $0 } == 0)
    }

    @Test("a thread that finds the lock held waits for its release, then takes it")
    func waiterWokenByRelease() {
        let lock = Locked<[String]>([])
        let holderHasLock = DispatchSemaphore(value: 0)
        let waiterDone = DispatchSemaphore(value: 0)
        let holder = Thread {
            lock.withLock { log in
                log.append("holder in")
                holderHasLock.signal()
                // Long enough for the waiter to find the lock held and go to sleep on it (the assertions below
                // hold whatever the timing: the order is forced by the lock alone).
                Thread.sleep(forTimeInterval: 0.2)
                log.append("holder out")
            }
        }
        holder.start()
        holderHasLock.wait()
        let waiter = Thread {
            lock.withLock { $0.append("waiter") }
            waiterDone.signal()
        }
        waiter.start()
        waiterDone.wait()
        #expect(lock.withLock { $0 } == ["holder in", "holder out", "waiter"])
    }
}
