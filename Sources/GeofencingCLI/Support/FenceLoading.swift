import Geofencing
import GeofencingInputs

/// Reads `--fences FILE` for a command: the regions, with the reader's warnings (duplicate identifiers) on
/// standard error.
enum FenceLoading {
    static func regions(from path: String, defaultRadius: Double = 100) throws -> [CircularRegion] {
        let contents: FenceFileContents
        do {
            contents = try FenceFile.read(path: path, defaultRadius: defaultRadius)
        } catch {
            throw CLIError.failure(error.description)
        }
        for warning in contents.warnings { Console.error("warning: \(warning)") }
        return contents.regions
    }
}
