/*
 * gf_geodesy.c -- integer-only geodesy: ECEF from e7 coordinates, chord to geodesic length, the pairwise distance.
 *
 * Why a chord: the straight line between two points of the ellipsoid is exact geometry, needs no projection and
 * no special case at the poles or across +-180. For a geodesic of length s whose normal curvature is 1/R the chord
 * is c = 2R sin(s / 2R), so s = c + c^3 / (24 R^2) + 3 c^5 / (640 R^4) + ...  The core keeps the first two terms with
 * R = 6371008.8 m (the mean radius). The normal radius of curvature along a geodesic lies between 6335 km (north-south
 * at the equator) and 6400 km (at the poles), so the second term is off by up to 1.1 % of itself: 1.5 mm at 50 km,
 * 12 mm at 100 km (measured: -14.5 mm along the equator's meridian at 100 km, with the rounding of both points).
 * The omitted c^5 term is 4 micrometres at 50 km. Beyond 100 km the error keeps growing (+0.3 m at 670 km along the
 * equator); the query never measures that far (radius + margin <= 100 km).
 */
#include "gf_internal.h"

/* f(x0 + delta) from a Taylor row, delta in e7 with |delta| <= 5e6, t = delta / 2^23. Each step rounds to nearest
 * (error <= 0.5 unit), so the result is within 2 units of the rounded polynomial. No step overflows: the largest
 * product is |c1 + ...| * |delta| <= 9.8e10 * 5e6 = 4.9e17 for rho and zeta, 1.6e10 * 5e6 for cos and sin. */
static int64_t gf__taylor(const int64_t c[5], int64_t delta) {
    const int64_t half = (int64_t)1 << 22;
    int64_t acc = c[4];
    acc = c[3] + ((acc * delta + half) >> 23);
    acc = c[2] + ((acc * delta + half) >> 23);
    acc = c[1] + ((acc * delta + half) >> 23);
    acc = c[0] + ((acc * delta + half) >> 23);
    return acc;
}

/* Splits an angle in e7 (|angle| <= 180 deg) into the nearest whole degree (as a table row, offset by `first`
 * degrees) and the remainder delta, |delta| <= 5e6. */
static void gf__split_degrees(int64_t angle_e7, int64_t first_deg, uint32_t *row, int64_t *delta) {
    int64_t shifted = angle_e7 - first_deg * GF_E7_PER_DEGREE;    /* >= 0 */
    int64_t r = (shifted + GF_E7_PER_DEGREE / 2) / GF_E7_PER_DEGREE;
    *row = (uint32_t)r;
    *delta = shifted - r * GF_E7_PER_DEGREE;
}

/* (rho * unit) / 2^52 rounded to nearest, for rho in 2^-20 m (0 <= rho <= 6.69e12 < 2^43) and unit a cosine or sine
 * in 2^-40: the result is in q. A 64x64 product would overflow, so unit is split into high and low 20-bit halves:
 * rho * hi <= 6.69e12 * 2^20 = 7.0e18 < 2^63, and rho * lo < 7.0e18 likewise. Dropping the low 20 bits of rho * lo
 * costs < 2^-32 q. Portable to 32-bit targets (no __int128). */
static int32_t gf__scale_to_q(int64_t rho, int64_t unit) {
    int64_t hi = unit >> 20;                    /* floor; unit = hi * 2^20 + lo exactly */
    int64_t lo = unit & ((1 << 20) - 1);
    int64_t sum = rho * hi + ((rho * lo) >> 20); /* rho * unit / 2^20 */
    return (int32_t)((sum + ((int64_t)1 << 31)) >> 32);
}

gf__ecef gf__ecef_of(gf_point p) {
    uint32_t lat_row, lon_row;
    int64_t lat_delta, lon_delta;
    GF__ASSERT(p.lat >= -GF_LAT_MAX_E7 && p.lat <= GF_LAT_MAX_E7);
    GF__ASSERT(p.lon >= -GF_LON_MAX_E7 && p.lon <= GF_LON_MAX_E7);
    gf__split_degrees(p.lat, -90, &lat_row, &lat_delta);
    gf__split_degrees(p.lon, -180, &lon_row, &lon_delta);

    int64_t rho = gf__taylor(gf__rho_table[lat_row], lat_delta);    /* 2^-20 m */
    int64_t zeta = gf__taylor(gf__zeta_table[lat_row], lat_delta);  /* 2^-20 m */
    int64_t cos_lon = gf__taylor(gf__cos_table[lon_row], lon_delta); /* 2^-40 */
    int64_t sin_lon = gf__taylor(gf__sin_table[lon_row], lon_delta);
    if (rho < 0) rho = 0;  /* at the poles the polynomial may dip a unit below 0 */

    gf__ecef e;
    e.x = gf__scale_to_q(rho, cos_lon);
    e.y = gf__scale_to_q(rho, sin_lon);
    e.z = (int32_t)((zeta + (1 << 11)) >> 12);
    return e;
}

/* The even count by which v (> 0) shifts left until one of its top two bits is set: its leading zeros, rounded down
 * to even. Counted on 32-bit halves, as gf__lowest_bit in gf_cursor.c does: 32-bit ARM counts a 32-bit word's leading
 * zeros in one instruction and a 64-bit one's through a libgcc call. One count rather than five dependent
 * shift-and-test steps: the root's chain of dependent operations is what a hit waits on. */
static inline unsigned gf__normalising_shift(uint64_t v) {
    const uint32_t high = (uint32_t)(v >> 32);
    const unsigned zeros = high != 0 ? (unsigned)__builtin_clz(high) : 32 + (unsigned)__builtin_clz((uint32_t)v);
    return zeros & ~1u;
}

/* floor(sqrt(v)) for every v, exactly. Why not bit by bit: that takes 32 rounds, each with a branch the processor
 * cannot predict (half the cost of a whole query when the fix is inside a fence). Here: v = n / 4^k with n in
 * [2^62, 2^64); a seed interpolated linearly in gf__isqrt_seed_table by n's top 9 bits and the next 16 (within 2^-18.9
 * of sqrt(n), relative: gen_tables.py), scaled back by 2^k and rounded (half a unit more), then one Newton step
 * x' = (x + v / x) / 2, which takes an error e of x to at most e^2 / 2x: under 2^-7 for a root near 2^32, under one
 * unit for every root. Each division waits for the one before it on a hit's way, so the seed is made good enough for
 * one. Integer Newton with floors never goes below floor(sqrt(v)) after a step (from any x > 0; x' >= floor(sqrt(v))
 * by the AM-GM inequality on the floors), so the result is floor(sqrt(v)) or one more, which the last loop removes.
 * No overflow: the seed is below 2^32, so x + v / x < 2^33 + 2^32, and x is capped at 2^32 - 1 before squaring. */
uint64_t gf__isqrt(uint64_t v) {
    if (v == 0) return 0;
    const unsigned shift = gf__normalising_shift(v);
    const uint64_t n = v << shift;
    const uint32_t row = (uint32_t)(n >> 55) - 128, fraction = (uint32_t)(n >> 39) & 0xFFFFu;
    const uint64_t lo = gf__isqrt_seed_table[row], hi = gf__isqrt_seed_table[row + 1];
    const uint64_t seed_n = lo + (((hi - lo) * fraction) >> 16);  /* ~sqrt(n), in [2^31, 2^32) */
    const unsigned down = shift / 2;
    uint64_t x = (seed_n + (((uint64_t)1 << down) >> 1)) >> down;  /* ~sqrt(v), rounded; >= 1 (down <= 31) */
    x = (x + v / x) >> 1;
    if (x > 0xFFFFFFFFu) x = 0xFFFFFFFFu;
    while (x * x > v) x--;
    return x;
}

/* 24 R^2 with R = 6371008.8 m, in m^2 (rounded), and the same divided by 1e6 for the long-chord branch. */
#define GF__24R2_M2 974154075112258LL
#define GF__24R2_OVER_1E6 974154075LL

int64_t gf__arc_mm(uint64_t c2) {
    /* The chord in 2^-16 m: c2 shifted left as far as it fits (16 bits below 2^48 q^2, i.e. chords under 65 km;
     * fewer, in steps of 2, for longer ones), so the square root keeps at least 8 fractional bits up to 2^56 q^2
     * (a 1000 km chord) and its truncation costs < 0.02 mm below 65 km. */
    unsigned shift = 16;
    while (shift > 0 && c2 > (UINT64_MAX >> shift)) shift -= 2;
    uint64_t chord16 = gf__isqrt(c2 << shift) << ((16 - shift) / 2);
    int64_t chord_mm = (int64_t)((chord16 * 1000 + (1 << 15)) >> 16);  /* chord16 <= 8.4e11: no overflow */
    int64_t chord_m = (int64_t)(chord16 >> 16);
    /* c^3 / (24 R^2) in mm. Integer metres suffice: the term's derivative is c^2 / 8R^2 < 3e-4 below 100 km. */
    int64_t bend_mm;
    if (chord_m <= (1 << 17)) {
        bend_mm = (chord_m * chord_m * chord_m * 1000 + GF__24R2_M2 / 2) / GF__24R2_M2;  /* <= 2.3e18 */
    } else {
        bend_mm = (chord_m * chord_m / 1000) * chord_m / GF__24R2_OVER_1E6;           /* <= 2.1e18 */
    }
    return chord_mm + bend_mm;
}

gf_status gf_distance(gf_point a, gf_point b, int64_t *distance_mm) {
    if (distance_mm == NULL) return GF_ERR_NULL;
    if (a.lat < -GF_LAT_MAX_E7 || a.lat > GF_LAT_MAX_E7 || b.lat < -GF_LAT_MAX_E7 || b.lat > GF_LAT_MAX_E7)
        return GF_ERR_LATITUDE;
    if (a.lon < -GF_LON_MAX_E7 || a.lon > GF_LON_MAX_E7 || b.lon < -GF_LON_MAX_E7 || b.lon > GF_LON_MAX_E7)
        return GF_ERR_LONGITUDE;
    *distance_mm = gf__arc_mm(gf__chord2(gf__ecef_of(a), gf__ecef_of(b)));
    return GF_OK;
}
