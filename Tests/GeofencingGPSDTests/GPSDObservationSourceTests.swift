import Foundation
import Geofencing
import GeofencingGPSD
import GeofencingTestSupport
import Testing

/// GPSDSource held as `any ObservationSource`, as `geofence run` holds its input: the same fix as through its own
/// `observations`, and connection states because it reconnects by itself.
@Suite struct GPSDObservationSourceTests {
    @Test(.enabled(if: GPSDSource.isAvailable, "built without the GPSD trait"))
    func aGPSDSourceIsAReconnectingObservationSource() async throws {
        let server = try FakeServer(.send(Array(GPSDSourceTests.tpvLines.utf8)))
        defer { server.stop() }
        let gps = GPSDSource(configuration: GPSDSourceTests.configuration(port: server.port))
        try gps.start()
        defer { gps.stop() }
        let source: any ObservationSource = gps
        var observations = source.erasedObservationStream().makeAsyncIterator()
        #expect(try await observations.next() == .fix(GPSDSourceTests.tpvFix))
        let reconnecting = try #require(source as? any ReconnectingObservationSource)
        #expect(await firstStates(of: reconnecting, count: 2) == ["connecting (attempt 1)", "connected"])
    }

    /// The descriptions of the first `count` connection states the source published.
    private func firstStates(of source: some ReconnectingObservationSource, count: Int) async -> [String] {
        var states: [String] = []
        for await state in source.connectionStates {
            states.append(state.description)
            if states.count == count { break }
        }
        return states
    }
}
