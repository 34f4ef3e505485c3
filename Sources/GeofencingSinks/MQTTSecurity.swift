import Glibc

/// How an `MQTTSink` knows its broker and the broker knows it: the CA the broker's certificate must chain to, a
/// client certificate and key for mutual TLS, a user name and the file that holds its password. Available with or
/// without the MQTT trait, so that bad options are reported the same either way.
///
/// Invariants `check(for:sink:)` enforces: the TLS files only with mqtts://; a certificate only with its key (and
/// the reverse); a password file only with a user name. `load(sink:)` then reads the files: each must be readable,
/// and the key and the password file must not be open to group or other users (mode 0600 or stricter), like the
/// store.
public struct MQTTSecurity: Sendable, Hashable {
    /// PEM file of the CA certificates the broker's certificate must chain to; nil: the system's CA store.
    public var caFile: String?
    /// PEM client certificate (mutual TLS); with `keyFile`.
    public var certificateFile: String?
    /// PEM private key of `certificateFile`, unencrypted.
    public var keyFile: String?
    public var user: String?
    /// A file whose first line (without its line ending) is the password: never on the command line, where every
    /// user of the machine could read it (ps, /proc/PID/cmdline).
    public var passwordFile: String?

    public init(
        caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, user: String? = nil,
        passwordFile: String? = nil
    ) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.user = user
        self.passwordFile = passwordFile
    }

    /// The largest password file read: a password is a line, not a document.
    static let passwordFileLimit = 4096

    /// Throws (sink `sink`) when these options cannot go together with `address`; reads no file.
    public func check(for address: MQTTAddress, sink: String) throws(SinkError) {
        if !address.usesTLS, caFile != nil || certificateFile != nil || keyFile != nil {
            throw SinkError(
                sink: sink, message: "a CA file, client certificate or key needs TLS: use mqtts:// instead of mqtt://")
        }
        if (certificateFile == nil) != (keyFile == nil) {
            throw SinkError(
                sink: sink,
                message: certificateFile == nil
                    ? "a client key without its certificate" : "a client certificate without its key")
        }
        if passwordFile != nil && user == nil {
            throw SinkError(sink: sink, message: "a password file without a user name")
        }
    }

    /// Checks that every file can be read (the key and the password file only by their owner) and returns the
    /// password (nil without a password file). Throws naming the file and what is wrong with it.
    public func load(sink: String) throws(SinkError) -> String? {
        if let caFile { _ = try Self.read(caFile, role: "the CA file", private: false, sink: sink) }
        if let certificateFile {
            _ = try Self.read(certificateFile, role: "the client certificate", private: false, sink: sink)
        }
        if let keyFile { _ = try Self.read(keyFile, role: "the client key", private: true, sink: sink) }
        guard let passwordFile else { return nil }
        let bytes = try Self.read(passwordFile, role: "the password file", private: true, sink: sink, keep: true)
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else {
            throw SinkError(
                sink: sink,
                message: "the password file \"\(PrintableText.escaped(passwordFile))\" has an empty first line")
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Opens `path` for reading; `private`: refused unless only its owner may access it (no group or other bits).
    /// Returns the first `passwordFileLimit` bytes when `keep`, else nothing.
    private static func read(
        _ path: String, role: String, private isPrivate: Bool, sink: String, keep: Bool = false
    ) throws(SinkError) -> [UInt8] {
        let quoted = "\"\(PrintableText.escaped(path))\""
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SinkError(sink: sink, message: "cannot read \(role) \(quoted): \(SystemCalls.describe(errno))")
        }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SinkError(sink: sink, message: "cannot read \(role) \(quoted): \(SystemCalls.describe(errno))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SinkError(sink: sink, message: "\(role) \(quoted) is not a regular file")
        }
        let mode = status.st_mode & 0o7777
        if isPrivate && mode & 0o077 != 0 {
            throw SinkError(
                sink: sink,
                message: "group or other users may read \(role) \(quoted) (mode \(octal(mode))); "
                    + "allow only its owner (chmod 600)")
        }
        // The certificates and the key are read again by libmosquitto at each connection: one byte tells an empty
        // file from one that has something to parse.
        var buffer = [UInt8](repeating: 0, count: keep ? passwordFileLimit : 1)
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw SinkError(sink: sink, message: "cannot read \(role) \(quoted): \(SystemCalls.describe(errno))")
            }
            if got == 0 { break }
            count += got
        }
        if !keep && count == 0 { throw SinkError(sink: sink, message: "\(role) \(quoted) is empty") }
        return Array(buffer.prefix(count))
    }

    /// A mode as chmod(1) writes it: 0644.
    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
