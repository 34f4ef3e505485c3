import Foundation
import Testing

@testable import GeofencingCLI

/// The status JSON, byte for byte: the keys in their order (what the unit runs after the version), null before the
/// first fix and without a fence-set version, the fix mode from the observation.
@Test func unitStatusJSONHasItsKeysInOrder() {
    var status = UnitStatus()
    let commitJSON = Version.commit.map { "\"\($0)\"" } ?? "null"
    let traitsJSON = Version.traits.map { "\"\($0)\"" }.joined(separator: ",")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(status.json(online: false, uptime: .seconds(2), now: now) == """
        {"status":"offline","version":"\(Version.current)",\
        "commit":\(commitJSON),"traits":[\(traitsJSON)],"fences":0,"fence_set_version":null,"last_fix":null,\
        "backlog":{},"uptime_s":2,"time":"2027-01-15T08:00:00Z"}
        """)
    status.fences = 40
    status.fenceSetVersion = "v7"
    status.lastFixTime = Date(timeIntervalSince1970: 1_799_999_999.5)
    status.lastFixMode = .threeD
    status.backlog = ["stdout": 0, "mqtt:broker:8883/fleet/7": 12]
    #expect(status.json(online: true, uptime: .milliseconds(3_600_900), now: now) == """
        {"status":"online","version":"\(Version.current)",\
        "commit":\(commitJSON),"traits":[\(traitsJSON)],"fences":40,"fence_set_version":"v7",\
        "last_fix":{"time":"2027-01-15T07:59:59.500Z","mode":"3d"},\
        "backlog":{"mqtt:broker:8883/fleet/7":12,"stdout":0},"uptime_s":3600,"time":"2027-01-15T08:00:00Z"}
        """)
}
