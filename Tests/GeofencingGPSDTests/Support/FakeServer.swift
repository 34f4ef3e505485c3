import Foundation
import Synchronization
import GeofencingTestSupport

/// A TCP server on 127.0.0.1 that is not gpsd, for the failures a real gpsd rarely shows on demand.
final class FakeServer: Sendable {
    enum Behaviour: Sendable {
        /// Listens but never accepts: connections complete in the kernel's backlog and then hear nothing (a hung
        /// gpsd, a half-open connection).
        case silent
        /// Accepts and closes at once.
        case closeAtOnce
        /// Accepts, sends these bytes, keeps the connection open until stopped.
        case send([UInt8])
    }

    let port: UInt16
    private let listener: Int32
    private let state = State()

    private final class State: Sendable {
        let accepted = Mutex<[Int32]>([])
        let connections = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
    }

    init(_ behaviour: Behaviour) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = TCPProbe.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw GPSFakeError(message: "fake server: bind/listen failed: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        self.port = UInt16(bigEndian: address.sin_port)
        if case .silent = behaviour { return }
        let state = self.state
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }  // shut down
                state.connections.add(1, ordering: .relaxed)
                switch behaviour {
                case .silent, .closeAtOnce:
                    close(connection)
                case .send(let bytes):
                    _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    state.accepted.withLock { $0.append(connection) }
                }
            }
        }.start()
    }

    /// Connections accepted so far.
    var connectionCount: Int { state.connections.load(ordering: .relaxed) }

    func stop() {
        guard !state.stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread
        close(listener)
        state.accepted.withLock { connections in
            for connection in connections { close(connection) }
            connections = []
        }
    }
}
