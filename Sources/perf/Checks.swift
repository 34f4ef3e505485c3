/// The pass/fail part of a run, printed under the table:
///  - the core's timed query loops make no allocator call at all (counted exactly; see AllocationCounter), and
///  - wherever the core and the naive engine disagree, the fix is near the fence's boundary, where haversine's
///    0.56 % error makes the naive answer unreliable. Such disagreements are expected and only counted.
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

        let compared = outcome.agreements.reduce(0) { $0 + $1.agreement.fixesCompared }
        let disagreeing = outcome.agreements.reduce(0) { $0 + $1.agreement.disagreeingFixes }
        lines.append("core vs naive-swift on the same fixes: \(disagreeing) of \(compared) fixes disagree "
            + "(allowed only within 0.6 % of r plus the core's band of a fence boundary)")
        for (key, agreement) in outcome.agreements where agreement.unexplainedCount > 0 {
            passed = false
            lines.append("FAIL \(key): \(agreement.unexplainedCount) differences are NOT near a boundary, e.g.:")
            lines += agreement.unexplainedExamples.map { "  \($0)" }
        }
    }
}
