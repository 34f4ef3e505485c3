// perf_support.h: measurement support for `swift run perf` (Sources/perf), and for nothing else.
//
// PERF ONLY. This target defines malloc, calloc, realloc, aligned_alloc, posix_memalign and memalign for the whole
// process it is linked into (see perf_support.c), so it must only ever be a dependency of the `perf` executable:
// never of a library product, a library target or a test target.
//
// Why it exists: perf's claim that the core's hot path (gf_query) never allocates should be a count, not an
// inference. Net heap growth around the query loop (mallinfo2) cannot see a block that is allocated and freed again
// inside the loop; counting the calls to the allocator can. With an exact count, "allocations per fix = 0" is a
// check perf can fail on, the way swift-nio gates its CI on allocation counts. Swift alone cannot do this: it cannot
// define `malloc`, and its Glibc module does not import <malloc.h> (hence mallinfo2 is read here too).
//
// Requires glibc 2.33 or later (mallinfo2; the forwarding targets __libc_malloc & co. are glibc's own exports).

#ifndef PERF_SUPPORT_H
#define PERF_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes this process has taken from malloc and not given back, as glibc itself counts them: mallinfo2()'s uordblks
/// (chunks in use in the main heap and arenas) plus hblkhd (blocks big enough that malloc mmapped each on its own,
/// such as the arrays of a 10^6-fence table, which uordblks alone does not see). Includes chunk headers and rounding,
/// so it is what the allocator really hands out. Cannot see a block allocated and freed between two readings.
size_t perf_heap_bytes_in_use(void);

/// Calls made so far, by any code in the process (this executable, libc itself, the Swift runtime, any shared
/// library), to malloc, calloc, realloc, aligned_alloc, posix_memalign and memalign. Every call counts once, whether
/// or not it succeeds (realloc(NULL, n), realloc(p, 0) and failed requests included); free is not counted. The
/// counter is a relaxed atomic: exact, but a reading is not ordered against other threads' allocations.
///
/// Also counted, as the realloc call glibc makes for it: reallocarray. Not counted: valloc and pvalloc (obsolete;
/// glibc serves them without going through the counted functions).
uint64_t perf_allocation_count(void);

/// Self test, run by perf before measuring anything: calls each of the six counted functions once through the
/// process-wide symbol lookup (dlsym(RTLD_DEFAULT)), which is how libc and the Swift runtime reach them too, and
/// checks that the counter rose by exactly one each time. Returns NULL when all six are counted, otherwise a static
/// message naming the first that is not (for example when the executable does not export its definitions).
const char *perf_allocation_counter_check(void);

#ifdef __cplusplus
}
#endif

#endif  // PERF_SUPPORT_H
