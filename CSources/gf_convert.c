/*
 * gf_convert.c -- degrees <-> 1e-7 degree. The only translation unit of the core that uses floating point; it is not
 * on the query path (CI compiles every other unit with -mgeneral-regs-only to prove it).
 */
#include "gf_internal.h"

#include <string.h>

/* x rounded to the nearest integer, ties away from zero (as lround, without a call into libm: the monitor converts
 * two points per fix). |x| <= 1.8e9. The truncation is exact, and so is x - t (t lies within 1 of x, with no more
 * significant bits), so the fraction is compared exactly; adding 0.5 first would round 0.49999999999999994 up. The
 * comparisons are added rather than branched on: a receiver's fractions fall either side of a half at random. */
static long gf__round_half_away(double x) {
    long t = (long)x;
    double fraction = x - (double)t;
    return t + (long)(fraction >= 0.5) - (long)(fraction <= -0.5);
}

gf_status gf_point_from_degrees(double lat_deg, double lon_deg, gf_point *out) {
    if (out == NULL) return GF_ERR_NULL;
    /* The comparisons are false for NaN, so NaN fails them too. */
    if (!(lat_deg >= -90.0 && lat_deg <= 90.0)) return GF_ERR_LATITUDE;
    if (!(lon_deg >= -180.0 && lon_deg <= 180.0)) return GF_ERR_LONGITUDE;
    /* To nearest, ties away from zero; the products are below 2^31 and exact to 1e-7 e7. */
    long lat = gf__round_half_away(lat_deg * GF_E7_PER_DEGREE);
    long lon = gf__round_half_away(lon_deg * GF_E7_PER_DEGREE);
    if (lon == GF_LON_MAX_E7) lon = -GF_LON_MAX_E7;  /* +180 and -180 are one meridian */
    /* Written as one 8-byte store: a caller that reads the point back whole (Swift loads it as one 8-byte word) waits
     * for two 4-byte stores to reach the cache, since a load spanning two stores is not forwarded from them. Through
     * a uint64_t: clang copies the struct itself field by field, as two 4-byte stores. */
    _Static_assert(sizeof(gf_point) == sizeof(uint64_t), "a point is two 32-bit fields without padding");
    const gf_point point = {(int32_t)lat, (int32_t)lon};
    uint64_t word;
    memcpy(&word, &point, sizeof word);
    memcpy(out, &word, sizeof word);
    return GF_OK;
}

void gf_point_to_degrees(gf_point point, double *lat_deg, double *lon_deg) {
    if (lat_deg != NULL) *lat_deg = point.lat / (double)GF_E7_PER_DEGREE;
    if (lon_deg != NULL) *lon_deg = point.lon / (double)GF_E7_PER_DEGREE;
}
