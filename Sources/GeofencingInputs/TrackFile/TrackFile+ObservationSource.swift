import Geofencing

extension TrackFile: ObservationSource {
    /// The track's `observations`, one at a time, from the first: a recorded drive through the same code as a live
    /// one. It never fails (the file was read whole before) and starts anew at each call.
    public func observationStream() -> RecordedObservations {
        RecordedObservations(observations)
    }
}
