/// The "where" part shared by errors and warnings about fence files: `stops.csv:7:` for the lines of CSV and GTFS
/// files, `fences.geojson: feature 3 (id "x"):` for GeoJSON, whose parser reports no lines for valid JSON.
enum FenceFileLocation {
    static func prefix(file: String, line: Int?, feature: Int?, featureIdentifier: String?) -> String {
        var text = file
        if let line { text += ":\(line)" }
        text += ":"
        if let feature {
            text += " feature \(feature)"
            if let featureIdentifier { text += " (id \(FenceText.quotedIdentifier(featureIdentifier)))" }
            text += ":"
        }
        return text
    }
}
