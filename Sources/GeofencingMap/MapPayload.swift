import Foundation
import Geofencing
import GeofencingEvents

/// The data the page draws, projected and thinned, as the JSON text embedded in the page's
/// `<script type="application/json" id="map-data">` element.
///
/// Layout (columnar arrays keep 12,866 fences and 30k fixes to about a megabyte):
/// `{"version":2,"origin":[lat,lon],"kNorth":m/deg,"kEast":m/deg,"bounds":[x0,y0,x1,y1],`
/// `"fences":{"id":[..],"x":[..],"y":[..],"r":[m|null,..],"note":["..."|null,..]},` (note: the region's zone
/// rules, as the tooltip shows them; the array only when some fence has one)
/// `"shapes":[{"i":fenceIndex,"type":"polygon","rings":[[x,y,x,y,..],..],"box":[x0,y0,x1,y1],"vertices":n,`
/// `"drawn":n,"tolerance":m},{"i":..,"type":"corridor","path":[x,y,..],"halfWidth":m,"w":planeMetres,..},..],`
/// `"track":{"total":n,"t0":epochSeconds|null,"x":[..],"y":[..],"inside":"0110..","t":[secondsAfterT0|null,..]},`
/// `"events":[{"seq":n,"type":"enter","region":"..","time":"ISO","x":..,"y":..,"d":m|null,"state":"..",`
/// `"inferred":bool,"crossed":"ISO"|null},..],"skipped":{"fences":n,"track":n,"events":n}}` (crossed: the estimated
/// boundary crossing, `EventRecord.crossedAt`)
/// x and y are plane metres of `LocalProjection` (east, north), r true metres; the page derives each fence's
/// ellipse from r and its latitude with the same formulas. A polygon or corridor has r null, x and y the centre of
/// its plane box, and an entry in `shapes` (thinned as `MapOutline` says; flat x,y pairs, rings unclosed).
struct MapPayload {
    /// Plane positions are written to 1 cm for fences and events and 10 cm for track fixes: below a pixel at the
    /// page's deepest zoom (20 px/m gives 1 px = 5 cm; a track is drawn 3 px wide).
    static let fenceDecimals = 2
    static let trackDecimals = 1
    /// The track is thinned to about one fix per pixel at the zoom that fits everything on a screen this wide,
    /// but never by more than `maximumTolerance`: a dropped fix is always within 2 m of a kept one (below what
    /// GNSS tells apart), so the track stays where the vehicle was at every zoom, not just at "fit all". What is
    /// dropped then is mostly a stationary vehicle's jitter; a 100k-fix drive at 1 Hz keeps nearly every fix
    /// (about 20 bytes each).
    static let referenceScreenPixels = 2000.0
    static let maximumTolerance = 2.0

    let projection: LocalProjection
    let json: String
    let fenceCount: Int
    /// Polygons and corridors among the fences, and the vertices drawn for them.
    let outlineCount: Int
    let outlineDrawnCount: Int
    let trackCount: Int
    let trackDrawnCount: Int
    let eventCount: Int

    /// What a fence's tooltip says of its zone rules after its shape, or nil without any: "speed limit 40 km/h
    /// (+5 for 5 s)", "active Mo-Fr 07:00-09:00,14:30-16:00 Australia/Brisbane", both joined by " \u{00b7} ". Plain
    /// text: the page puts it in a text node.
    static func note(of region: Region) -> String? {
        var parts: [String] = []
        if let limit = region.speedLimit {
            parts.append("speed limit \(plain(limit.limitKilometresPerHour)) km/h "
                + "(+\(plain(limit.toleranceKilometresPerHour)) for \(plain(limit.duration)) s)")
        }
        if let schedule = region.schedule {
            parts.append("active \(schedule.windowsText) \(schedule.timeZoneIdentifier)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " \u{00b7} ")
    }

    /// A value of a zone rule as a person writes it: "40", "42.5" (up to 3 decimals, trailing zeros dropped).
    private static func plain(_ value: Double) -> String {
        var writer = MapJSONWriter(reservingCapacity: 16)
        writer.number(value, decimals: 3)
        return writer.text
    }

    init(regions: [Region], track: [MapTrackPoint], events: [EventRecord]) {
        // A fence is drawn when its centre is valid and, for a circle, its radius is; a polygon or corridor when
        // `MapOutline` can draw it (checked below, once the projection is known).
        let candidates = regions.filter { region in
            guard region.center.isValid else { return false }
            if case .circle(_, let radius) = region.shape { return radius.isFinite && radius >= 0 }
            return true
        }
        let fixes = track.filter { $0.coordinate.isValid }
        let placedEvents = events.filter {
            Coordinate(latitude: $0.latitude, longitude: $0.longitude).isValid
        }
        let projection = LocalProjection.centred(
            on: candidates.flatMap { MapOutline.corners(of: $0.shape) } + fixes.map(\.coordinate)
                + placedEvents.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
        self.projection = projection

        // Project everything once; the bounds are what "fit all" shows.
        var bounds = PlaneBounds()
        var fences: [Region] = [], fencePlane: [(x: Double, y: Double)] = []
        var outlines: [(index: Int, outline: MapOutline)] = []
        for region in candidates {
            if case .circle(let center, let radius) = region.shape {
                let point = projection.project(center)
                let radii = projection.radii(ofCircleAt: center, radius: radius)
                bounds.include(x: point.x - radii.x, y: point.y - radii.y)
                bounds.include(x: point.x + radii.x, y: point.y + radii.y)
                fencePlane.append(point)
            } else {
                guard let outline = MapOutline(shape: region.shape, projection: projection) else { continue }
                let box = outline.box
                bounds.include(x: box.x0, y: box.y0)
                bounds.include(x: box.x1, y: box.y1)
                outlines.append((fences.count, outline))
                fencePlane.append(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2))
            }
            fences.append(region)
        }
        var trackX: [Double] = [], trackY: [Double] = []
        trackX.reserveCapacity(fixes.count)
        trackY.reserveCapacity(fixes.count)
        for fix in fixes {
            let point = projection.project(fix.coordinate)
            trackX.append(point.x)
            trackY.append(point.y)
            bounds.include(x: point.x, y: point.y)
        }
        let eventPlane = placedEvents.map { event in
            let point = projection.project(Coordinate(latitude: event.latitude, longitude: event.longitude))
            bounds.include(x: point.x, y: point.y)
            return point
        }
        let box = bounds.box

        let tolerance = min(max(box.x1 - box.x0, box.y1 - box.y0) / Self.referenceScreenPixels, Self.maximumTolerance)
        let kept = TrackSimplifier(tolerance: tolerance)
            .keptIndices(x: trackX, y: trackY, inside: fixes.map(\.inside))

        let outlineVertices = outlines.reduce(0) { $0 + $1.outline.drawnCount }
        var writer = MapJSONWriter(reservingCapacity: 64 * fences.count + 24 * kept.count + 256 * placedEvents.count
                                   + 24 * outlineVertices + 512)
        writer.raw("{\"version\":2,\"origin\":[")
        writer.number(projection.origin.latitude, decimals: 9)
        writer.raw(",")
        writer.number(projection.origin.longitude, decimals: 9)
        writer.raw("],\"kNorth\":")
        writer.number(projection.metresPerDegreeNorth, decimals: 6)
        writer.raw(",\"kEast\":")
        writer.number(projection.metresPerDegreeEast, decimals: 6)
        writer.raw(",\"bounds\":")
        writer.array([box.x0, box.y0, box.x1, box.y1]) { $0.number($1, decimals: Self.fenceDecimals) }

        let timeOrigin = fixes.lazy.compactMap(\.time).first?.timeIntervalSince1970
        writer.raw(",\"fences\":{\"id\":")
        writer.array(fences) { $0.string($1.identifier) }
        writer.raw(",\"x\":")
        writer.array(fencePlane) { $0.number($1.x, decimals: Self.fenceDecimals) }
        writer.raw(",\"y\":")
        writer.array(fencePlane) { $0.number($1.y, decimals: Self.fenceDecimals) }
        writer.raw(",\"r\":")
        writer.array(fences) { $0.optionalNumber($1.radius, decimals: Self.fenceDecimals) }
        let notes = fences.map(Self.note(of:))
        if notes.contains(where: { $0 != nil }) {
            writer.raw(",\"note\":")
            writer.array(notes) { writer, note in
                if let note { writer.string(note) } else { writer.raw("null") }
            }
        }
        writer.raw("},\"shapes\":")
        writer.array(outlines) { writer, entry in Self.write(entry.outline, fence: entry.index, to: &writer) }
        writer.raw(",\"track\":{\"total\":\(fixes.count),\"t0\":")
        writer.optionalNumber(timeOrigin, decimals: 3)
        writer.raw(",\"x\":")
        writer.array(kept) { $0.number(trackX[$1], decimals: Self.trackDecimals) }
        writer.raw(",\"y\":")
        writer.array(kept) { $0.number(trackY[$1], decimals: Self.trackDecimals) }
        writer.raw(",\"inside\":\"")
        writer.raw(String(kept.map { fixes[$0].inside ? "1" : "0" }))
        writer.raw("\",\"t\":")
        writer.array(kept) { writer, index in
            writer.optionalNumber(
                fixes[index].time.map { $0.timeIntervalSince1970 - (timeOrigin ?? 0) }, decimals: 3)
        }

        writer.raw("},\"events\":")
        writer.array(zip(placedEvents, eventPlane)) { writer, pair in
            let (event, point) = pair
            writer.raw("{\"seq\":\(event.sequence),\"type\":")
            writer.string(event.kind.rawValue)
            writer.raw(",\"region\":")
            writer.string(event.region)
            writer.raw(",\"time\":")
            writer.string(ISO8601Time.format(event.time))
            writer.raw(",\"x\":")
            writer.number(point.x, decimals: Self.fenceDecimals)
            writer.raw(",\"y\":")
            writer.number(point.y, decimals: Self.fenceDecimals)
            writer.raw(",\"d\":")
            writer.optionalNumber(event.distance, decimals: 2)
            writer.raw(",\"state\":")
            writer.string(event.state.rawValue)
            writer.raw(",\"inferred\":\(event.inferred),\"crossed\":")
            if let crossedAt = event.crossedAt { writer.string(ISO8601Time.format(crossedAt)) } else { writer.raw("null") }
            writer.raw("}")
        }
        writer.raw(",\"skipped\":{\"fences\":\(regions.count - fences.count),\"track\":\(track.count - fixes.count)")
        writer.raw(",\"events\":\(events.count - placedEvents.count)}}")

        json = writer.text
        fenceCount = fences.count
        outlineCount = outlines.count
        outlineDrawnCount = outlineVertices
        trackCount = fixes.count
        trackDrawnCount = kept.count
        eventCount = placedEvents.count
    }
}

extension MapPayload {
    /// One entry of "shapes": plane coordinates to 1 cm, or to 10 cm when the outline is thinned by 1 m or more.
    fileprivate static func write(_ outline: MapOutline, fence index: Int, to writer: inout MapJSONWriter) {
        let decimals = outline.tolerance < 1 ? Self.fenceDecimals : 1
        writer.raw("{\"i\":\(index),\"type\":\"\(outline.kind.rawValue)\",")
        writer.raw(outline.kind == .polygon ? "\"rings\":[" : "\"path\":")
        for (number, part) in outline.parts.enumerated() {
            if number > 0 { writer.raw(",") }
            writer.array(part.x.indices) { writer, vertex in
                writer.number(part.x[vertex], decimals: decimals)
                writer.raw(",")
                writer.number(part.y[vertex], decimals: decimals)
            }
        }
        if outline.kind == .polygon { writer.raw("]") }
        if outline.kind == .corridor {
            writer.raw(",\"halfWidth\":")
            writer.number(outline.halfWidth, decimals: 3)
            writer.raw(",\"w\":")
            writer.number(outline.planeHalfWidth, decimals: 3)
        }
        writer.raw(",\"box\":")
        let box = outline.box
        writer.array([box.x0, box.y0, box.x1, box.y1]) { $0.number($1, decimals: Self.fenceDecimals) }
        writer.raw(",\"vertices\":\(outline.vertexCount),\"drawn\":\(outline.drawnCount),\"tolerance\":")
        writer.number(outline.tolerance, decimals: 3)
        writer.raw("}")
    }
}

/// The plane rectangle that holds everything drawn; 1 km square around the origin when there is nothing.
private struct PlaneBounds {
    private var x0 = Double.infinity, y0 = Double.infinity
    private var x1 = -Double.infinity, y1 = -Double.infinity

    mutating func include(x: Double, y: Double) {
        x0 = min(x0, x)
        y0 = min(y0, y)
        x1 = max(x1, x)
        y1 = max(y1, y)
    }

    /// At least 100 m on each side (a single fix still gets a readable view), centred on what is there.
    var box: (x0: Double, y0: Double, x1: Double, y1: Double) {
        guard x0 <= x1 else { return (-500, -500, 500, 500) }
        let halfWidth = max((x1 - x0) / 2, 50), halfHeight = max((y1 - y0) / 2, 50)
        let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
        return (cx - halfWidth, cy - halfHeight, cx + halfWidth, cy + halfHeight)
    }
}
