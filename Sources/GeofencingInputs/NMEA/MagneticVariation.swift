import Foundation
import Geofencing

/// The magnetic variation gpsd 3.22 assumes at a position when the receiver gives none (`mag_var` in its geoid.c):
/// the four nodes of `MagneticVariationGrid` around the position, interpolated bilinearly in degrees of latitude
/// and longitude, in degrees east of true north.
///
/// The reader needs gpsd's figure, not a better one: gpsd turns a compass heading into a fix's course with it, and
/// a replay must give the course the daemon gets. The grid is WMM2015 for 2020; against the current model it is off
/// by up to a degree or two in places, which is gpsd's error, reproduced on purpose.
enum MagneticVariation {
    /// Degrees east; 0 where gpsd gives 0 (a latitude or longitude outside its grid: never for a valid position).
    static func degrees(at coordinate: Coordinate) -> Double {
        let span = MagneticVariationGrid.span
        let latitude = coordinate.latitude, longitude = coordinate.longitude
        let rowPosition = ((90 + latitude) / Double(span)).rounded(.down)
        let columnPosition = ((180 + longitude) / Double(span)).rounded(.down)
        guard rowPosition >= 0, rowPosition < Double(MagneticVariationGrid.rows),
              columnPosition >= 0, columnPosition < Double(MagneticVariationGrid.columns) else { return 0 }
        let row = Int(rowPosition), column = Int(columnPosition)
        // At the grid's last row or column (90° N, 180° E) gpsd takes the node twice: no interpolation that way.
        let row2 = min(row + 1, MagneticVariationGrid.rows - 1)
        let column2 = min(column + 1, MagneticVariationGrid.columns - 1)
        let x1 = column * span - 180, x2 = column2 * span - 180
        let y1 = row * span - 90, y2 = row2 * span - 90
        return bilinear(
            x1: x1, y1: y1, x2: x2, y2: y2, x: longitude, y: latitude,
            z11: node(row, column), z12: node(row, column2), z21: node(row2, column), z22: node(row2, column2)) / 100
    }

    private static func node(_ row: Int, _ column: Int) -> Int {
        Int(MagneticVariationGrid.hundredthsOfDegree[row * MagneticVariationGrid.columns + column])
    }

    /// gpsd's interpolation, term for term and in its order of operations (the course is printed to 1e-4°, so the
    /// rounding of the last bit can show): z11 at (x1, y1), z12 at (x2, y1), z21 at (x1, y2), z22 at (x2, y2).
    private static func bilinear(
        x1: Int, y1: Int, x2: Int, y2: Int, x: Double, y: Double, z11: Int, z12: Int, z21: Int, z22: Int
    ) -> Double {
        let xx1 = x - Double(x1), x2x = Double(x2) - x
        let yy1 = y - Double(y1), y2y = Double(y2) - y
        if y1 == y2 {
            if x1 == x2 { return Double(z11) }
            return (Double(z22) * xx1 + Double(z11) * x2x) / Double(x2 - x1)
        } else if x1 == x2 {
            return (Double(z22) * yy1 + Double(z11) * y2y) / Double(y2 - y1)
        }
        let delta = (y2 - y1) * (x2 - x1)
        return (Double(z22) * yy1 * xx1 + Double(z12) * y2y * xx1 + Double(z21) * yy1 * x2x + Double(z11) * y2y * x2x)
            / Double(delta)
    }
}
