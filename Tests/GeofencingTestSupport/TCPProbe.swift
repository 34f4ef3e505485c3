// Shared test support: TCP on the loopback, for the tests that start servers (gpsd through gpsfake, mosquitto).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain TCP on the loopback: free ports and "is anybody listening". Sockets are close-on-exec, so a server a
/// test starts meanwhile never inherits one.
public enum TCPProbe {
    /// A port nobody listens on now, chosen by the kernel.
    public static func freePort() -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    public static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}
