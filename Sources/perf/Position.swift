import CGeofence

/// A point exactly as both engines see it: the core's 1e-7 degree integers, and those same integers converted back to
/// degrees for the naive engine. Rounding once, here, means a disagreement between the engines is never caused by
/// them looking at slightly different points.
struct Position {
    let point: gf_point
    let latitudeDegrees: Double
    let longitudeDegrees: Double

    /// Rounds to the nearest 1e-7 degree. Done here rather than with gf_point_from_degrees so that the benchmark's
    /// inputs do not depend on the code under test. Callers keep the point inside the benchmark areas, far from
    /// +-180 degrees, so no wrapping is needed.
    init(latitude: Double, longitude: Double) {
        let latitudeE7 = Int32((latitude * 1e7).rounded())
        let longitudeE7 = Int32((longitude * 1e7).rounded())
        point = gf_point(lat: latitudeE7, lon: longitudeE7)
        latitudeDegrees = Double(latitudeE7) / 1e7
        longitudeDegrees = Double(longitudeE7) / 1e7
    }
}

/// A circular fence as the benchmark generates it, before either engine stores it in its own form.
struct Fence {
    let centre: Position
    let radiusMillimetres: UInt32

    var radiusMetres: Double { Double(radiusMillimetres) / 1000 }
}
