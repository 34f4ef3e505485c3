// Test support: runs headless Chromium (Debian package chromium) and the screenshot check script as subprocesses,
// each with a timeout, so a hung browser fails a test instead of hanging the suite.
import Foundation
import Testing

enum Chromium {
    static let executable = "/usr/bin/chromium"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    static let skipMessage = Comment(rawValue: "\(executable) not found: install the Debian package chromium to run the map's rendering checks")

    /// The package root: three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let checkScript = packageRoot.appendingPathComponent("scripts/check-map-screenshot.py").path

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `arguments[0]` with the rest as its arguments; kills it after `timeout` seconds (then the test fails).
    static func run(_ arguments: [String], timeout: TimeInterval = 180) throws -> Result {
        let directory = try temporaryDirectory("map-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout"), errorURL = directory.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                      errors: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// The DOM after the page's scripts ran (`--dump-dom`), with a throwaway profile.
    static func dumpDOM(of page: URL) throws -> String {
        let profile = try temporaryDirectory("map-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        var arguments = [executable, "--headless", "--disable-gpu", "--no-first-run", "--disable-extensions",
                         "--user-data-dir=\(profile.path)", "--window-size=1200,800", "--virtual-time-budget=5000",
                         "--dump-dom", page.absoluteString]
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 1) }  // Chromium refuses root with its sandbox
        let result = try run(arguments)
        #expect(result.status == 0, "chromium --dump-dom exited \(result.status): \(result.errors.suffix(500))")
        return result.output
    }

    /// The attributes of `<body>` in a dumped DOM.
    static func bodyAttributes(_ dom: String) throws -> [String: String] {
        let start = try #require(dom.range(of: "<body"), "no <body> in the DOM")
        let end = try #require(dom.range(of: ">", range: start.upperBound..<dom.endIndex))
        var attributes: [String: String] = [:]
        let text = String(dom[start.upperBound..<end.lowerBound])
        let pattern = try NSRegularExpression(pattern: #"([\w-]+)="([^"]*)""#)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            attributes[name] = String(text[Range(match.range(at: 2), in: text)!])
        }
        return attributes
    }

    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
