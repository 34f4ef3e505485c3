import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when released.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "sinks") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes an executable script (mode 0755) named `name` and returns its path. Written through a close-on-exec
    /// descriptor: a command another test starts meanwhile must not inherit it, or running the script fails with
    /// ETXTBSY for as long as that command runs.
    func script(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return path
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Both ends of a pipe(2), closed when released unless already closed.
final class TestPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func closeReadEnd() {
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// Reads until end of file (close the write end first, or have another thread do it).
    func readAll() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    deinit {
        closeReadEnd()
        closeWriteEnd()
    }
}
