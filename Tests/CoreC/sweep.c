/*
 * sweep.c -- gf_distance over the whole globe, degree by degree. The ECEF of a point comes from per-degree Taylor
 * rows (CSources/gf_tables.c); this walks every latitude row and every third longitude row, at the seams between
 * rows (x + 0.4999999 deg and x + 0.5 deg use different rows), at the poles and on the +-180 meridian, and feeds
 * every distance into the digest: the ECEF of all these points has to agree bit for bit across architectures.
 */
#include "core_test.h"

static int64_t distance(gf_point a, gf_point b) {
    int64_t d = -1;
    CT_STATUS(gf_distance(a, b, &d), GF_OK, "gf_distance");
    ct_digest(d);
    return d;
}

/* Two points one e7 unit apart, on either side of a table seam: 1.11 cm (less in longitude) plus the ECEF
 * rounding of both points (<= 6.8 mm). A seam where the rows disagree would show as a jump. */
static void seam(gf_point below, gf_point above) {
    int64_t d = distance(below, above);
    CT_CHECK(d >= 0 && d <= 19, "seam {%ld, %ld} .. {%ld, %ld}: %ld mm", (long)below.lat, (long)below.lon,
             (long)above.lat, (long)above.lon, (long)d);
}

void test_geodesy_sweep(void) {
    ct_rng rng = ct_rng_seeded(0x7377656570ULL);  /* "sweep" */
    for (int32_t lat_deg = -90; lat_deg <= 90; lat_deg++) {
        for (int32_t lon_deg = -180; lon_deg <= 180; lon_deg += 3) {
            gf_point p = {lat_deg * GF_E7_PER_DEGREE, lon_deg * GF_E7_PER_DEGREE};
            CT_CHECK(distance(p, p) == 0, "distance of {%ld, %ld} to itself", (long)p.lat, (long)p.lon);
            if (lat_deg < 90) {
                gf_point below = {p.lat + 4999999, p.lon}, above = {p.lat + 5000000, p.lon};
                seam(below, above);
            }
            if (lon_deg < 180) {
                gf_point west = {p.lat, p.lon + 4999999}, east = {p.lat, p.lon + 5000000};
                seam(west, east);
            }
            /* A random neighbour up to ~55 km away: symmetric, and digested. */
            gf_point q = ct_random_fix_near(&rng, p, 50000000);
            int64_t there = distance(p, q), back = distance(q, p);
            CT_CHECK(there == back, "asymmetric distance {%ld, %ld} .. {%ld, %ld}", (long)p.lat, (long)p.lon,
                     (long)q.lat, (long)q.lon);
        }
        /* -180 and +180 are one meridian. */
        gf_point west = {lat_deg * GF_E7_PER_DEGREE, -GF_LON_MAX_E7};
        gf_point east = {lat_deg * GF_E7_PER_DEGREE, GF_LON_MAX_E7};
        CT_CHECK(distance(west, east) == 0, "-180 and +180 differ at latitude %ld", (long)lat_deg);
    }
    /* Every longitude meets at a pole. */
    for (int32_t lon_deg = -180; lon_deg < 180; lon_deg += 7) {
        gf_point a = {GF_LAT_MAX_E7, lon_deg * GF_E7_PER_DEGREE}, b = {GF_LAT_MAX_E7, 0};
        gf_point c = {-GF_LAT_MAX_E7, lon_deg * GF_E7_PER_DEGREE}, d = {-GF_LAT_MAX_E7, 0};
        CT_CHECK(distance(a, b) == 0 && distance(c, d) == 0, "the poles at longitude %ld", (long)lon_deg);
    }
}
