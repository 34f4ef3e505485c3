import Geofencing
import GeofencingInputs

/// Fence files written: what `geofence fences export` and `convert` print, and `FenceFile.read` reads back.
///
/// ```swift
/// try FenceFile.geojson(fences.regions).write(toFile: "fences.geojson", atomically: true, encoding: .utf8)
/// ```
extension FenceFile {
    /// The regions as a GeoJSON FeatureCollection, one feature per line: `"id"` and `properties.id` hold the
    /// identifier; a circle is a Point with `properties.radius` in metres, a polygon a Polygon (or a MultiPolygon when
    /// its rings form several parts: each outer ring with the holes inside it, as GIS tools expect), a corridor a
    /// LineString with `properties.half_width_m`; notify_on_entry / notify_on_exit (when false), dwell_s and
    /// hysteresis_m (when set) follow. `parse` reads it back to equal regions (numbers are written in their shortest
    /// exact form; a polygon made in code with open rings, or rings not ordered by parts, comes back with them closed
    /// and grouped: the same area).
    ///
    /// Coordinates are written in each region's `sourceDatum` (`sourceShape`). When any region's datum is not WGS-84,
    /// every feature gets `properties.datum`, so the file reads back the same whatever datum the reader is given
    /// (coordinates then come back within the datum's round-trip bound: 0.2 mm for GCJ-02, 1e-8 m for Tokyo). RFC 7946
    /// knows WGS-84 only: such a file is for geofence, not for other GeoJSON readers.
    public static func geojson(_ regions: [Region]) -> String {
        FenceGeoJSONWriter.write(regions)
    }

    /// The regions as CSV with the header `id,lat,lon,radius_m` (and the columns notify_on_entry, notify_on_exit,
    /// dwell_s, hysteresis_m when some region needs them), fields quoted when they hold commas, quotes, line breaks or
    /// outer blanks. `parse` reads it back to equal regions.
    ///
    /// Centres are written in each region's `sourceDatum`; when any region's datum is not WGS-84, a `datum` column
    /// names every row's datum (as for `geojson`).
    ///
    /// - Throws: `FenceWriteError` naming the first polygon or corridor among `regions`: a CSV row holds a circle
    ///   only (write `geojson` instead).
    public static func csv(_ regions: [Region]) throws(FenceWriteError) -> String {
        try FenceCSVWriter.write(regions)
    }
}
