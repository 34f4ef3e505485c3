import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole fence file with open(2)/read(2), so that a failure names the path with the system's own reason
/// (errno's text: "No such file or directory", "Permission denied", "Is a directory").
enum FenceFileBytes {
    static func contents(ofFile path: String) throws(FenceFileError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "cannot open", errno) }
        defer { close(descriptor) }

        var status = stat()
        var capacity = 1 << 16
        if fstat(descriptor, &status) == 0, status.st_size > 0 { capacity = Int(status.st_size) + 1 }
        var data = Data(count: capacity)
        var length = 0
        while true {
            if length == data.count { data.count *= 2 }  // a file that grew, or a pipe: read on
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + length, buffer.count - length)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "cannot read", errno)
            }
            length += count
        }
        data.count = length
        return data
    }

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> FenceFileError {
        FenceFileError(file: path, message: "\(what): \(String(cString: strerror(code)))")
    }
}
