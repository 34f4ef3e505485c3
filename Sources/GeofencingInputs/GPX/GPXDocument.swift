import Geofencing

/// The tracks and routes of a GPX 1.1 file.
///
/// A track (`trk`) is a record of where a receiver was: its timed points become fixes (`observations`). A route
/// (`rte`) is a plan, points to go through without times, so it does not become fixes; it is kept apart, as the
/// polyline a simulated drive can follow or as stops to place fences on. Waypoints (`wpt`) are not read.
public struct GPXDocument: Sendable, Hashable {
    /// A `trk`: what a receiver recorded.
    public struct Track: Sendable, Hashable {
        /// `<name>`.
        public var name: String?
        /// The track's segments (`trkseg`), each a continuous recording; a gap lies between segments.
        public var segments: [[GPXPoint]]

        public init(name: String? = nil, segments: [[GPXPoint]] = []) {
            self.name = name
            self.segments = segments
        }
    }

    /// A `rte`: a planned path, its points in the order to visit them.
    public struct Route: Sendable, Hashable {
        /// `<name>`.
        public var name: String?
        /// The `rtept`s, usually without times.
        public var points: [GPXPoint]

        public init(name: String? = nil, points: [GPXPoint] = []) {
            self.name = name
            self.points = points
        }
    }

    /// The `trk` elements, in file order.
    public var tracks: [Track]
    /// The `rte` elements, in file order.
    public var routes: [Route]

    public init(tracks: [Track] = [], routes: [Route] = []) {
        self.tracks = tracks
        self.routes = routes
    }

    /// Every track point that has a time, in file order, as a fix. Points without a time are left out (see
    /// `untimedTrackPoints`).
    public var observations: [Observation] {
        tracks.flatMap(\.segments).joined().compactMap { $0.fix.map(Observation.fix) }
    }

    /// Track points without a `<time>`: positions that cannot become fixes.
    public var untimedTrackPoints: Int {
        tracks.flatMap(\.segments).joined().filter { $0.time == nil }.count
    }
}
