/*
 * core_test.h -- the harness shared by the C test program of the core (Tests/CoreC/): checks, a seeded random
 * generator, the result digest, and the allocation hooks. The tests use only the public API (include/geofence.h).
 *
 * Why a digest: the core promises bit-identical results on every architecture (integer arithmetic only). Each test
 * feeds every value it computes through the core into one FNV-1a hash, so a single line printed on x86-64, aarch64
 * and armhf shows whether they agree on all of them, not just on the few a test asserts.
 */
#ifndef CORE_TEST_H
#define CORE_TEST_H

#include "geofence.h"

#include <stddef.h>
#include <stdint.h>

/* ---- Checks ---- */

/* Counts a passed or failed check; prints the first failures with their location. Returns ok. */
int ct_check(int ok, const char *file, int line, const char *format, ...);
#define CT_CHECK(ok, ...) ct_check((ok) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)
/* A status check with both names in the message. `got` is evaluated once (it is usually the call under test). */
int ct_status(gf_status got, gf_status want, const char *what, const char *file, int line);
#define CT_STATUS(got, want, what) ct_status((got), (want), (what), __FILE__, __LINE__)

/* ---- The digest (64-bit FNV-1a) ---- */

/* Feeds a value into the digest as 8 bytes, least significant first, so byte order and type widths do not matter. */
void ct_digest(int64_t value);
void ct_digest_hits(const gf_hit *hits, size_t count);

/* ---- Random numbers: xorshift64* (Vigna), integer only so every architecture draws the same sequence ---- */

typedef struct ct_rng {
    uint64_t state;  /* never 0 */
} ct_rng;

ct_rng ct_rng_seeded(uint64_t seed);
uint64_t ct_next(ct_rng *rng);
/* Uniform in lo..hi (inclusive), lo <= hi. The modulo bias (< 2^-30 for our ranges) does not matter here. */
int64_t ct_range(ct_rng *rng, int64_t lo, int64_t hi);

/* Shared generators of test inputs. */
int32_t ct_wrap_lon(int64_t lon_e7);                 /* into -180 .. +180 degrees */
uint32_t ct_random_radius(ct_rng *rng);              /* 1 m .. 50 km, about log-uniform, the limits included */
uint32_t ct_random_margin(ct_rng *rng);              /* 0, up to 1 km, or up to 50 km, the limits included */
gf_point ct_random_centre(ct_rng *rng);              /* a valid fence centre: uniform or in one of the clusters */
gf_point ct_random_fix_near(ct_rng *rng, gf_point p, uint32_t reach_mm);  /* a fix within about reach of p */

/* ---- Brute force for polygons and corridors (shape_brute.c): none of the core's shape code ---- */

/* A polygon (half_width_mm 0; rings closed implicitly, ring r is vertices[ring_ends[r - 1] .. ring_ends[r])) or a
 * corridor (one ring: its path; half_width_mm > 0), as given to gf_polygon_add / gf_corridor_add. */
typedef struct ct_shape_view {
    const gf_point *vertices;
    const uint32_t *ring_ends;
    uint32_t rings;
    uint32_t half_width_mm;
} ct_shape_view;

/* Even-odd over the rings (winding parity per ring, exact on the e7 integers): 1 inside, 0 outside, -1 when p lies
 * exactly on an edge (the core's tie-break decides those). */
int ct_brute_inside(const ct_shape_view *s, gf_point p);
/* The distance in mm from p to the nearest point of any edge (a corridor: of its path), by ternary search along
 * every edge with gf_distance: within 8 mm (e7 rounding of the searched points) of the core's exact value. */
int64_t ct_brute_boundary_mm(const ct_shape_view *s, gf_point p);
/* The signed distance as the core defines it (negative inside; a corridor: distance to the path - half-width), and
 * whether p is inside (-1 on a polygon's edge, then the sign is +). */
int64_t ct_brute_signed_mm(const ct_shape_view *s, gf_point p, int *inside);
/* The point t / steps of the way from a to b in (lat, lon), truncated to e7. */
gf_point ct_along(gf_point a, gf_point b, int64_t t, int64_t steps);

/* ---- Allocation hooks (alloc.c): make the core's allocations fail on demand ---- */

/* Whether the test was linked with the hooks (GNU ld --wrap, see Makefile). Without them the NOMEM tests skip. */
int ct_alloc_hooked(void);
/* Makes the allocation `n` calls from now fail (0: the next one); -1 disarms. */
void ct_alloc_fail_after(long n);
/* Blocks allocated and not yet freed through malloc/calloc/realloc/free. */
long ct_alloc_live(void);

/* ---- The tests ---- */

void test_errors(void);
void test_conversion(void);
void test_geodesy_sweep(void);
void test_isqrt(void);
void test_accuracy(const char *csv_path);
void test_index(void);
void test_churn(void);
void test_piles(void);
void test_out_of_memory(void);
void test_tracked(void);
void test_shapes(void);
void test_polygon_fixture(const char *path);
void test_fence_distance(void);
void test_shape_validity(void);

#endif /* CORE_TEST_H */
