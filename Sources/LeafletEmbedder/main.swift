// Writes LeafletBundle.swift for GeofencingMap (run by the LeafletEmbedding build plugin):
//   LeafletEmbedder LEAFLET_DIR COPYRIGHT_FILE OUTPUT.swift
// The script and style go in as base64 string literals (a string literal compiles in a moment, an array of 150,000
// byte literals does not, and base64 needs no escaping whatever the text holds); the style's `url(images/...)`
// references (the layers control's and the default marker's PNGs, which the map does not use) become `none`, so
// the page references no file at all. The BSD-2-clause notice is taken from Debian's copyright file.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("LeafletEmbedder: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: LeafletEmbedder LEAFLET_DIR COPYRIGHT_FILE OUTPUT.swift") }
let directory = arguments[1], copyrightPath = arguments[2], outputPath = arguments[3]

func read(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        fail("cannot read \(path): install the Debian package libjs-leaflet (scripts/install-deps.sh)")
    }
    return text
}

let script = read(directory + "/leaflet.min.js")
var style = read(directory + "/leaflet.css")
style = style.replacingOccurrences(of: #"url\(images/[A-Za-z0-9_.-]+\)"#, with: "none", options: .regularExpression)

// The version the script itself reports (L.version).
guard let versionRange = script.range(of: #"version="[0-9][0-9A-Za-z.+~-]*""#, options: .regularExpression) else {
    fail("\(directory)/leaflet.min.js: no version=\"...\" found; is this Leaflet?")
}
let version = script[versionRange].dropFirst("version=\"".count).dropLast()

// The copyright lines of "Files: *" and the BSD-2-clause text, as Debian states them.
let copyright = read(copyrightPath)
func stanza(after marker: String) -> [Substring] {
    guard let start = copyright.range(of: marker) else { fail("\(copyrightPath): no \"\(marker)\"") }
    return copyright[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
}
let holders = stanza(after: "Files: *\nCopyright:\n").prefix { $0.hasPrefix(" ") }
    .map { "Copyright (c) " + $0.trimmingCharacters(in: .whitespaces) }
guard let licenseStart = copyright.range(of: "\nLicense: BSD-2-clause\n All rights reserved.") else {
    fail("\(copyrightPath): no BSD-2-clause license text")
}
let licenseLines = copyright[licenseStart.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    .dropFirst()  // the rest of the "All rights reserved." line
    .prefix { $0.hasPrefix(" ") }
    .map { $0 == " ." ? "" : String($0.dropFirst()) }
let notice = (["Leaflet \(version), https://leafletjs.com (Debian package libjs-leaflet)"] + holders
    + ["All rights reserved.", ""] + licenseLines).joined(separator: "\n")
guard licenseLines.count > 10, !notice.contains("*/"), !notice.lowercased().contains("</script") else {
    fail("the notice is not the BSD-2-clause text, or holds \"*/\" or \"</script\" (it goes into a script comment)")
}

func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
let source = """
    // Generated at build time by LeafletEmbedder from \(directory) and \(copyrightPath). Do not edit.
    enum LeafletBundle {
        /// Leaflet's own version string (L.version).
        static let version = "\(version)"
        static let scriptBase64 = "\(base64(script))"
        static let styleBase64 = "\(base64(style))"
        static let noticeBase64 = "\(base64(notice))"
    }

    """
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
} catch {
    fail("cannot write \(outputPath): \(error)")
}
