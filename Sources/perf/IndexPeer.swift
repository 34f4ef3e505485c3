import CGeofence
import CPerfPeers

/// A peer whose index answers one fix at a time from the fix's integer coordinates, with the core's exact test after
/// its prefilter (boost-rstar, boost-quadratic, s2-cell-index): what the suite needs to time it and check it.
protocol IndexPeer: AnyObject {
    /// The row name of the peer.
    var engine: EngineName { get }
    /// Time and heap bytes of building its index and its fence records.
    var buildCost: BuildCost { get }
    /// Queries fixes[range] and returns their total hits. This is the loop the benchmark times.
    func countHits(_ fixes: [gf_point], _ range: Range<Int>) throws(PeerError) -> Int
    /// The fences hit by one fix, by index, ascending: for the agreement check.
    func hitFenceIndices(at fix: gf_point) throws(PeerError) -> [Int]
}

/// The peers of perf_cxx_peers.h, built over the same fences in the order the report lists them; s2-cell-index only
/// when `withS2` (see RunPlan.s2MaxFences).
func makeIndexPeers(
    _ fences: FenceArrays, marginMillimetres: UInt32, withS2: Bool
) throws(PeerError) -> [any IndexPeer] {
    var peers: [any IndexPeer] = [
        try BoostRtreeEngine(.rstarBulk, fences, marginMillimetres: marginMillimetres),
        try BoostRtreeEngine(.quadraticInserted, fences, marginMillimetres: marginMillimetres),
    ]
    if withS2 {
        peers.append(try S2CellIndexEngine(fences, marginMillimetres: marginMillimetres))
    }
    return peers
}
