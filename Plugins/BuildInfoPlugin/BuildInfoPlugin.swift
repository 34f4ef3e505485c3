import Foundation
import PackagePlugin

/// Gives the target a generated `BuildInfo.swift`: the version from the top-level VERSION file (the one place it is
/// written) and the commit the checkout's HEAD names. It reads files only — no git binary, no network — so a plain
/// `swift build` works the same from a checkout, a worktree or a tarball (where the commit is nil).
///
/// The plugin runs at every build's planning; the command below reruns when VERSION or the commit (an argument)
/// changes, so a new commit recompiles the one generated file and nothing else of the target's sources.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let versionFile = root.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let checkout = GitCheckout(root: root)
        return [
            .buildCommand(
                displayName: "Writing BuildInfo.swift from VERSION and the checkout's HEAD",
                executable: try context.tool(named: "BuildInfoWriter").url,
                arguments: [versionFile.path, checkout.commit ?? "", output.path],
                inputFiles: [versionFile] + checkout.files,
                outputFiles: [output])
        ]
    }
}

/// The commit a git checkout's HEAD names, read from its files: `.git` is the repository's directory, or (in a
/// worktree or submodule) a file `gitdir: PATH`; HEAD holds a commit or `ref: refs/heads/NAME`; a worktree's
/// refs live in the directory its `commondir` names; a ref is a loose file or a line of `packed-refs`.
struct GitCheckout {
    /// 40 hexadecimal digits, or nil when `root` is no checkout or its HEAD cannot be resolved.
    private(set) var commit: String?
    /// The files the answer was read from, so that the build reruns the command when one changes.
    private(set) var files: [URL] = []

    init(root: URL) {
        guard let gitDirectory = Self.gitDirectory(root: root) else { return }
        let head = gitDirectory.appending(path: "HEAD")
        guard let headText = Self.firstLine(head) else { return }
        files.append(head)
        guard headText.hasPrefix("ref: ") else {
            commit = Self.commitOrNil(headText)
            return
        }
        let ref = String(headText.dropFirst("ref: ".count))
        var common = gitDirectory
        if let relative = Self.firstLine(gitDirectory.appending(path: "commondir")) {
            common = relative.hasPrefix("/")
                ? URL(fileURLWithPath: relative) : gitDirectory.appending(path: relative).standardizedFileURL
        }
        for directory in [gitDirectory, common] {
            let loose = directory.appending(path: ref)
            if let line = Self.firstLine(loose), let found = Self.commitOrNil(line) {
                files.append(loose)
                commit = found
                return
            }
        }
        let packed = common.appending(path: "packed-refs")
        guard let text = try? String(contentsOf: packed, encoding: .utf8) else { return }
        files.append(packed)
        for line in text.split(separator: "\n") where line.hasSuffix(" " + ref) {
            commit = Self.commitOrNil(String(line.prefix(40)))
            return
        }
    }

    private static func gitDirectory(root: URL) -> URL? {
        let dotGit = root.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { return dotGit }
        guard let line = firstLine(dotGit), line.hasPrefix("gitdir: ") else { return nil }
        let path = String(line.dropFirst("gitdir: ".count))
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appending(path: path).standardizedFileURL
    }

    private static func firstLine(_ file: URL) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let line = text.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : line
    }

    private static func commitOrNil(_ text: String) -> String? {
        text.count == 40 && text.allSatisfy(\.isHexDigit) ? text.lowercased() : nil
    }
}
