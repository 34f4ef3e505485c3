/// The kinds of fence file that `FenceFile.read` recognises (by content, never by the file name's extension).
public enum FenceFileFormat: String, Sendable, CaseIterable {
    /// A GeoJSON FeatureCollection (RFC 7946; coordinates [lon, lat]): Point features with a radius in metres,
    /// Polygon and MultiPolygon features, LineString features with a half-width in metres (corridors).
    case geojson
    /// CSV with the header `id,lat,lon,radius_m` (any column order, extra columns ignored).
    case csv
    /// A GTFS `stops.txt` (columns stop_id, stop_lat, stop_lon): every stop becomes a circle of the default radius.
    case gtfs
}
