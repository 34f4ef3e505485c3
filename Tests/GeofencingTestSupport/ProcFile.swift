// Shared test support: reading files of /proc whole.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum ProcFile {
    /// The whole of a /proc file ("" when it cannot be opened). Not `String(contentsOfFile:)`: /proc files report size
    /// 0 and come a page per read(2), so a one-shot read would cut a table longer than a page (many connections, as
    /// when tests run in parallel).
    public static func text(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
