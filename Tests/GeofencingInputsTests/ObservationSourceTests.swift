// The inputs as one kind of thing: a recorded track and a live NMEA stream behind `any ObservationSource`.
import Foundation
import Geofencing
import GeofencingInputs
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ObservationSourceTests {
    private static let text = NMEATestText.log(NMEAReaderTests.brisbaneEpoch + [
        "GPGGA,222438.000,2734.34821,S,15305.44697,E,1,07,1.2,50.8,M,39.2,M,,",
        "GPRMC,222438.000,A,2734.34821,S,15305.44697,E,33.8,158.3,030308,11.2,W,A",
    ])

    private func collect(_ source: any ObservationSource) async throws -> [Observation] {
        var observations: [Observation] = []
        for try await observation in source.erasedObservationStream() { observations.append(observation) }
        return observations
    }

    /// The same NMEA text gives the same observations read as a file and as a stream over a pipe.
    @Test func aTrackFileAndAnNMEAStreamGiveTheSameObservations() async throws {
        let track = try TrackFile.read(data: Self.text, source: "brisbane.nmea")
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let live = NMEAStream(from: .fileDescriptor(descriptors[0]))
        let reading = Task { [live] in try await collect(live) }
        let bytes = [UInt8](Self.text)
        #expect(write(descriptors[1], bytes, bytes.count) == bytes.count)
        close(descriptors[1])
        let streamed = try await reading.value
        close(descriptors[0])

        let recorded = try await collect(track)
        #expect(recorded == track.observations)
        #expect(recorded.count == 2)
        #expect(streamed == recorded)
        // Neither holds a connection: a device's failure ends its stream, a track was read whole.
        #expect(!(live as any ObservationSource is any ReconnectingObservationSource))
        #expect(!(track as any ObservationSource is any ReconnectingObservationSource))
    }

    /// A track's stream starts anew at each call, and its sequence type says it cannot fail.
    @Test func aTrackFileStreamsFromTheStartEachTime() async throws {
        let track = try TrackFile.read(data: Self.text, source: "brisbane.nmea")
        var first: [Observation] = []
        for await observation in track.observationStream() { first.append(observation) }
        var second: [Observation] = []
        for await observation in track.observationStream() { second.append(observation) }
        #expect(first == track.observations)
        #expect(second == track.observations)
    }
}
