import Foundation
import GeofencingTestSupport
import Testing

/// `geofence --version` says the version of the repository's VERSION file, the commit the checkout's HEAD named
/// when it was built and the traits compiled in; the daemon's first log line says the same; and geofence(1), made
/// from the commands' help, is a page man renders without a warning and holds every command and every option.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "needs the geofence executable"))
struct VersionCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var version: String {
        get throws {
            try String(contentsOf: repository.appendingPathComponent("VERSION"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
    static let git = "/usr/bin/git"

    @Test func versionSaysVersionCommitAndTraits() throws {
        let outcome = try GeofenceExecutable.run(["--version"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(outcome.standardOutput)")
        #expect(lines[0] == "geofence \(try Self.version)")
        #expect(lines[2] == "traits: GPSD MQTT", "the default traits are GPSD and MQTT")
        let commit = String(lines[1].dropFirst("commit: ".count))
        #expect(lines[1].hasPrefix("commit: "))
        let isCheckout = FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(".git").path)
        guard isCheckout else {
            #expect(commit == "unknown (not built from a git checkout)")
            return
        }
        #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit), "\(commit)")
        // The commit is the checkout's HEAD or, for a binary built before the latest commit, one of its ancestors.
        if FileManager.default.isExecutableFile(atPath: Self.git) {
            let ancestor = try ProgramRun.run(
                Self.git, ["-C", Self.repository.path, "merge-base", "--is-ancestor", commit, "HEAD"])
            #expect(ancestor.status == 0, "\(commit) is not in the checkout's history: \(ancestor.output)")
        }
    }

    @Test func daemonsFirstLogLineSaysTheVersion() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.nmea")
        try Data().write(to: empty)
        let outcome = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("store.db").path, "--nmea", empty.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let first = outcome.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("geofence run: geofence \(try Self.version) (commit "), "\(outcome.standardError)")
        #expect(first.hasSuffix(", traits: GPSD MQTT)"), "\(first)")
    }

    /// Every `--option` a command's help names, and the commands themselves, are on the rendered page; groff warns
    /// of nothing (-ww: all warnings), so the page's roff is well formed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff (groff-base)"))
    func manPageHoldsEveryCommandAndOption() throws {
        let page = try GeofenceExecutable.run(["help", "--man"])
        #expect(page.status == 0, "\(page.standardError)")
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("geofence.1")
        try page.standardOutput.write(to: source, atomically: true, encoding: .utf8)
        let rendering = try ProgramRun.run(
            "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-rLL=200n", "-P-cbou", source.path])
        #expect(rendering.status == 0)
        // groff's minus sign (\-) renders as U+2212 in UTF-8; options are typed with the ASCII hyphen.
        let rendered = rendering.output.replacingOccurrences(of: "\u{2212}", with: "-")
        let warnings = rendering.output.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.isEmpty, "\(warnings)")

        let overview = try GeofenceExecutable.run(["--help"]).standardOutput
        let commands = overview.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 8, "\(overview)")
        for command in commands {
            #expect(rendered.contains("\n   \(command)\n"), "no section for \(command)")
            let help = try GeofenceExecutable.run([command, "--help"])
            #expect(help.status == 0, "\(command): \(help.standardError)")
            for option in Self.options(in: help.standardOutput) {
                #expect(rendered.contains(option), "geofence(1) lacks \(command)'s \(option)")
            }
            // Whole lines of the help come out of the page unchanged (the first and the last, as a sample of all).
            let lines = help.standardOutput.split(separator: "\n")
            for line in [lines.first, lines.last].compactMap({ $0 }) {
                #expect(rendered.contains(String(line)), "\(command): \(line)")
            }
        }
        for option in ["--version", "--man", "--help"] { #expect(rendered.contains(option)) }
    }

    /// The `--long-option` words of a help text.
    static func options(in help: String) -> Set<String> {
        var found = Set<String>()
        let characters = Array(help)
        var index = 0
        while index + 2 < characters.count {
            if characters[index] == "-", characters[index + 1] == "-", characters[index + 2].isLetter,
               index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "-") {
                var end = index + 2
                while end < characters.count, characters[end].isLetter || characters[end].isNumber
                        || characters[end] == "-" {
                    end += 1
                }
                found.insert(String(characters[index..<end]))
                index = end
            } else {
                index += 1
            }
        }
        return found
    }
}
