import Glibc

/// A pipe that wakes a thread out of poll(2): another thread writes a byte with `signal()`, the waiting thread polls
/// `readDescriptor` beside its other descriptors and `drain()`s it when it turns readable. Both ends are close-on-exec
/// and non-blocking (set just after pipe(2), which Swift sees without pipe2: a process spawned by another thread in
/// between would inherit them). The owner closes both ends with `close()`, after which neither may be used; an owner
/// whose other threads may still signal closes it under the lock they signal under, so that no signal writes to a
/// descriptor number that was reused.
package struct WakeSignal: Sendable {
    package let readDescriptor: Int32
    package let writeDescriptor: Int32

    /// pipe(2) failed: its errno.
    package struct Failure: Error {
        package let code: Int32
    }

    package init() throws(Failure) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw Failure(code: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    package func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)  // a full pipe already holds a wake-up: nothing lost
    }

    /// Reads every pending wake-up, so that the next poll waits again.
    package func drain() {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes both ends; the signal must not be used afterwards.
    package func close() {
        _ = Glibc.close(readDescriptor)
        _ = Glibc.close(writeDescriptor)
    }
}
