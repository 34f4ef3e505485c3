// Shared test support: a small PKI made with openssl(1) in a scratch directory, for the TLS tests.
import Foundation

/// A test CA and certificates it signs (EC P-256 keys, PEM files, mode 0600 keys), plus a second CA that signed
/// nothing of ours. Made at test time with openssl(1) (Debian package openssl); removed with the value.
///
/// Validity in the past or the future needs `openssl ca`'s -startdate/-enddate (OpenSSL 3.0's `x509 -req` has only
/// -days, counted from now), so every certificate is signed with `openssl ca` and a minimal configuration.
public final class TestCertificates {
    public static let executable = "/usr/bin/openssl"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let directory: URL

    /// The CA of every certificate below.
    public var caCertificate: String { file("ca.crt") }
    /// A CA that signed none of them: a client trusting only it refuses the broker.
    public var otherCACertificate: String { file("other-ca.crt") }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("signed"), withIntermediateDirectories: false)
        try "".write(toFile: file("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(toFile: file("serial"), atomically: true, encoding: .utf8)
        let configuration = """
            [ca]
            default_ca = test
            [test]
            database = \(file("index.txt"))
            new_certs_dir = \(file("signed"))
            serial = \(file("serial"))
            default_md = sha256
            policy = any
            unique_subject = no
            [any]
            commonName = supplied

            """
        try configuration.write(toFile: file("ca.cnf"), atomically: true, encoding: .utf8)
        try selfSigned("ca", commonName: "Geofence Test CA")
        try selfSigned("other-ca", commonName: "Other Test CA")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    public func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A certificate and key signed by the CA, for `commonName` with `alternativeNames` ("DNS:localhost,IP:..."),
    /// valid from `notBefore` to `notAfter` (openssl's YYYYMMDDHHMMSSZ; default: from yesterday for two days).
    /// - Returns: the paths of the certificate and of the key.
    @discardableResult
    public func issue(
        _ name: String, commonName: String, alternativeNames: String, notBefore: String? = nil,
        notAfter: String? = nil
    ) throws -> (certificate: String, key: String) {
        let day: TimeInterval = 86_400
        try openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", file("\(name).key"), "-out", file("\(name).csr"), "-subj", "/CN=\(commonName)",
        ])
        try "subjectAltName=\(alternativeNames)\n".write(toFile: file("\(name).ext"), atomically: true, encoding: .utf8)
        try openssl([
            "ca", "-batch", "-notext", "-config", file("ca.cnf"), "-cert", caCertificate, "-keyfile", file("ca.key"),
            "-in", file("\(name).csr"), "-out", file("\(name).crt"), "-extfile", file("\(name).ext"),
            "-startdate", notBefore ?? Self.timestamp(Date().addingTimeInterval(-day)),
            "-enddate", notAfter ?? Self.timestamp(Date().addingTimeInterval(day)),
        ])
        _ = chmod(file("\(name).key"), 0o600)
        return (file("\(name).crt"), file("\(name).key"))
    }

    /// openssl's ASN.1 time, UTC: 20250102030405Z.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }

    private func selfSigned(_ name: String, commonName: String) throws {
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", file("\(name).key"), "-out", file("\(name).crt"), "-days", "2", "-subj", "/CN=\(commonName)",
        ])
    }

    private func openssl(_ arguments: [String]) throws {
        let (status, output) = try ProgramRun.run(Self.executable, arguments)
        guard status == 0 else {
            throw BrokerError(message: "openssl \(arguments.joined(separator: " ")) exited \(status): \(output)")
        }
    }
}
