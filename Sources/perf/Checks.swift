/// The pass/fail part of a run, printed under the table:
///  - the core's timed query loops make no allocator call at all (counted exactly; see AllocationCounter), and
///  - wherever a peer and the core disagree on a fix's hits, the fix is within the allowance of the fence's boundary
///    (see Agreement: the core's band for the peers with the core's exact test, every peer but naive-swift; plus
///    haversine's error for naive-swift).
///    Such disagreements are listed; any other fails the run.
struct Checks {
    private(set) var lines: [String] = []
    private(set) var passed = true

    init(_ outcome: Suite.Outcome) {
        for (key, allocations, queries) in outcome.allocationsByQueries where allocations != 0 {
            let perFix = fixed(Double(allocations) / Double(max(queries, 1)), places: 6)
            lines.append("FAIL \(key): the core's query loop made \(allocations) allocator calls over \(queries) "
                + "fixes (\(perFix) per fix)")
            passed = false
        }
        lines.append("allocations per fix on the core hot path: \(passed ? "0" : "NOT 0")"
            + " (counted exactly: malloc/calloc/realloc/aligned_alloc/posix_memalign/memalign calls)")

        let placements = outcome.boundaryPlacement.compactMap(\.worstMetres)
        if placements.count == outcome.boundaryPlacement.count, let worst = placements.max() {
            lines.append("boundary probes: placed within \(fixed(worst * 1000, places: 1)) mm of their intended "
                + "distance (worst |gf_distance - intended| over every probe; includes the 1e-7 degree rounding)")
        } else {
            lines.append("FAIL boundary probes: gf_distance refused a probe")
            passed = false
        }

        lines.append("hit agreement with core on the same fences and fixes (a difference is one fence only one side "
            + "reports; allowed within 2 cm + r/10000 of the boundary, for naive-swift plus 0.6 % of it):")
        for peer in EngineName.peers {
            let agreements = outcome.agreements.filter { $0.agreement.peer == peer }
            let compared = agreements.reduce(0) { $0 + $1.agreement.fixesCompared }
            let disagreeing = agreements.reduce(0) { $0 + $1.agreement.disagreeingFixes }
            let withinAllowance = agreements.reduce(0) { $0 + $1.agreement.differencesWithinAllowance }
            let outside = agreements.reduce(0) { $0 + $1.agreement.unexplainedCount }
            lines.append("  \(peer.rawValue): \(disagreeing) of \(compared) fixes disagree; \(withinAllowance) "
                + "differences within the allowance, \(outside) outside")
            for (key, agreement) in agreements where agreement.differencesWithinAllowance > 0 {
                lines.append("    \(key): \(agreement.differencesWithinAllowance) within the allowance on "
                    + "\(agreement.disagreeingFixes) fixes, e.g. \(agreement.examplesWithinAllowance[0])")
            }
            for (key, agreement) in agreements where agreement.unexplainedCount > 0 {
                passed = false
                lines.append("FAIL \(key) \(peer.rawValue): \(agreement.unexplainedCount) differences are OUTSIDE "
                    + "the allowance, e.g.:")
                lines += agreement.unexplainedExamples.map { "  \($0)" }
            }
        }
    }
}
