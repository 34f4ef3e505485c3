// The areas where test fences live: each about 500 km x 500 km, chosen where spatial indexes tend to break.
import CGeofence
import Foundation
import GeofencingTestSupport
import GeofencingInputs

enum TestRegion: String, CaseIterable, Sendable {
    /// An ordinary place (southern Germany): the baseline.
    case midLatitude
    /// Fiji: the box straddles +-180 degrees.
    case antimeridian
    /// Latitudes 80 to 85 north, across +-180: index cells are narrow in longitude, and the box wraps.
    case arcticAntimeridian
    /// Latitudes 80 to 85 south.
    case antarctic

    var centre: (latitude: Double, longitude: Double) {
        switch self {
        case .midLatitude: (48.0, 11.0)
        case .antimeridian: (-17.0, 180.0)
        case .arcticAntimeridian: (82.5, 180.0)
        case .antarctic: (-82.5, -60.0)
        }
    }

    /// Half the height in degrees; the arctic and antarctic boxes span latitudes 80 to 85.
    var halfLatitudeSpan: Double {
        switch self {
        case .midLatitude, .antimeridian: 2.25
        case .arcticAntimeridian, .antarctic: 2.5
        }
    }

    /// A random point of the box, stretched by `scale` (above 1 it reaches around the box). The box is as wide in
    /// kilometres as it is high, so it spans many more degrees of longitude near the poles.
    func randomPoint(scale: Double = 1, using random: inout SplitMix64) -> gf_point {
        let halfLat = halfLatitudeSpan * scale
        let halfLon = halfLatitudeSpan / cos(centre.latitude * .pi / 180) * scale
        return TestGeometry.point(
            latitude: centre.latitude + .random(in: -halfLat...halfLat, using: &random),
            longitude: centre.longitude + .random(in: -halfLon...halfLon, using: &random))
    }
}

extension CaseIterable where Self: Equatable {
    /// The case's position among all cases, for deriving a distinct fixed seed per parameterised test case.
    var caseIndex: Int { Array(Self.allCases).firstIndex(of: self)! }
}
