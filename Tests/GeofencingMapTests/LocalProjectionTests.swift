// The map's plane: centred on the data (across the antimeridian too), metres at the centre, exact inverse.
import Foundation
import Geofencing
@testable import GeofencingMap
import Testing

@Suite("Map projection")
struct LocalProjectionTests {
    @Test("the centre is the middle of the smallest longitude arc holding the data", arguments: [
        ([10.0, 20.0, 30.0], 20.0),
        ([179.0, -179.0], 180.0),
        ([170.0, -170.0, 175.0], 180.0),
        ([-179.5, 179.9, -179.9], -179.8),
        ([-10.0, 10.0], 0.0),
    ])
    func centreLongitude(longitudes: [Double], expected: Double) {
        let projection = LocalProjection.centred(on: longitudes.map { Coordinate(latitude: 0, longitude: $0) })
        let difference = LocalProjection.wrappedDegrees(projection.origin.longitude - expected)
        #expect(abs(difference) < 1e-9, "centre \(projection.origin.longitude), want \(expected)")
    }

    @Test("no data gives (0, 0); latitude is the middle of the extremes")
    func centreLatitude() {
        #expect(LocalProjection.centred(on: []).origin == Coordinate(latitude: 0, longitude: 0))
        let projection = LocalProjection.centred(on: [
            Coordinate(latitude: -28, longitude: 153), Coordinate(latitude: -27.9, longitude: 153),
            Coordinate(latitude: -26, longitude: 153),
        ])
        #expect(projection.origin.latitude == -27)
    }

    @Test("at the centre's latitude plane metres are true metres, in both directions")
    func trueScaleAtCentre() {
        for latitude in [-60.0, -27.4679357, 0, 45, 84] {
            let origin = Coordinate(latitude: latitude, longitude: 100)
            let projection = LocalProjection(origin: origin)
            for (east, north) in [(1000.0, 0.0), (0.0, 1000.0), (-2500.0, 0.0)] {
                let point = projection.project(MapTestData.offset(origin, east: east, north: north))
                #expect(abs(point.x - east) < 1e-6 && abs(point.y - north) < 1e-6, "\(latitude): \(point)")
            }
            let radii = projection.radii(ofCircleAt: origin, radius: 100)
            #expect(abs(radii.x - 100) < 1e-9 && abs(radii.y - 100) < 1e-9)
        }
    }

    @Test("a circle away from the centre latitude is widened east by the ratio of parallel scales")
    func ellipseOffCentre() {
        let projection = LocalProjection(origin: Coordinate(latitude: -27, longitude: 153))
        let centre = Coordinate(latitude: -28, longitude: 153)
        let radii = projection.radii(ofCircleAt: centre, radius: 1000)
        let expected = 1000 * LocalProjection.metresPerDegreeEast(atLatitude: -27)
            / LocalProjection.metresPerDegreeEast(atLatitude: -28)
        #expect(abs(radii.x - expected) < 1e-9)
        #expect(radii.x > 1008 && radii.x < 1012, "about 1 % per degree at 27° S: \(radii.x)")
        #expect(abs(radii.y - 1000) < 0.5)
    }
}
