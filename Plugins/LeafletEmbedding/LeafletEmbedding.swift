import Foundation
import PackagePlugin

/// Builds `LeafletBundle.swift` for the map target from Debian's libjs-leaflet (`/usr/share/javascript/leaflet`):
/// Leaflet's script and style are compiled into the `geofence` binary, so a map can be written on a machine where
/// libjs-leaflet is not installed and the page stays one self-contained file. Only the build needs the package.
@main
struct LeafletEmbedding: BuildToolPlugin {
    static let leafletDirectory = "/usr/share/javascript/leaflet"
    static let copyrightFile = "/usr/share/doc/libjs-leaflet/copyright"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "LeafletEmbedder")
        let output = context.pluginWorkDirectoryURL.appending(path: "LeafletBundle.swift")
        let inputs = ["leaflet.min.js", "leaflet.css"].map { URL(fileURLWithPath: Self.leafletDirectory + "/" + $0) }
            + [URL(fileURLWithPath: Self.copyrightFile)]
        return [
            .buildCommand(
                displayName: "Embedding Leaflet from \(Self.leafletDirectory)",
                executable: tool.url,
                arguments: [Self.leafletDirectory, Self.copyrightFile, output.path],
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
