// Shared test support: the sockets another process holds, and which of them listen, from /proc.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The sockets of a running process, as `ss -p` would list them: its descriptors (/proc/PID/fd) that are sockets,
/// looked up by inode in the kernel's tables of the process's network namespace (/proc/PID/net/tcp, tcp6, udp, udp6,
/// raw, raw6, unix). Needs the same user as the process, or root.
public enum ProcessSockets {
    public struct Socket: Sendable, Hashable, CustomStringConvertible {
        /// The table the socket was found in ("tcp", "udp6", "unix", ...), or "other" (netlink, packet, ...).
        public var table: String
        /// The local address as the table writes it (hex address:port; a path or "" for unix sockets).
        public var local: String
        /// The kernel's state code: "0A" is a listening TCP socket, "01" an established one; for unix sockets the
        /// flags.
        public var state: String
        /// Whether the socket accepts connections or datagrams from others: a TCP socket in LISTEN, a unix socket
        /// with __SO_ACCEPTCON (flag 0x10000), or any bound UDP or raw socket that is not connected to a peer.
        public var isListening: Bool

        public var description: String { "\(table) \(local) state \(state)\(isListening ? " LISTENING" : "")" }
    }

    /// The process's sockets; an empty list if it has none or has exited.
    public static func of(processID: pid_t) -> [Socket] {
        let directory = "/proc/\(processID)/fd"
        var inodes: Set<String> = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        var found: [Socket] = []
        var matched: Set<String> = []
        for table in ["tcp", "tcp6", "udp", "udp6", "raw", "raw6"] {
            for fields in rows("/proc/\(processID)/net/\(table)") where fields.count > 9 && inodes.contains(fields[9]) {
                matched.insert(fields[9])
                let state = fields[3]
                let remote = fields[2]
                let unconnected = remote.allSatisfy { $0 == "0" || $0 == ":" }
                let listening = table.hasPrefix("tcp") ? state == "0A" : unconnected
                found.append(Socket(table: table, local: fields[1], state: state, isListening: listening))
            }
        }
        // unix: Num RefCount Protocol Flags Type St Inode [Path]
        for fields in rows("/proc/\(processID)/net/unix") where fields.count > 6 && inodes.contains(fields[6]) {
            matched.insert(fields[6])
            let flags = UInt32(fields[3], radix: 16) ?? 0
            found.append(Socket(
                table: "unix", local: fields.count > 7 ? fields[7] : "", state: fields[3],
                isListening: flags & 0x10000 != 0))
        }
        for inode in inodes.subtracting(matched) {
            found.append(Socket(table: "other", local: "inode \(inode)", state: "", isListening: false))
        }
        return found
    }

    /// The rows of a /proc table after its header, split on blanks.
    private static func rows(_ path: String) -> [[String]] {
        ProcFile.text(path).split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
    }
}
