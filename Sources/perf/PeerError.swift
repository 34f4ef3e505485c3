import CGeofence
import CPerfPeers

/// A call into a C peer (Sources/CPerfPeers) that did not return PP_OK.
struct PeerError: Error, CustomStringConvertible {
    let call: String
    let status: pp_status

    var description: String { "\(call) failed: \(String(cString: pp_status_message(status)))" }
}

/// The fences as the C peers take them: two parallel arrays. Made before a peer's build is measured, so the bytes a
/// peer keeps are its own copy, not these.
struct FenceArrays {
    let centres: [gf_point]
    let radiiMillimetres: [UInt32]

    init(_ fences: [Fence]) {
        centres = fences.map(\.centre.point)
        radiiMillimetres = fences.map(\.radiusMillimetres)
    }
}
