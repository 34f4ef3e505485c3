/*
 * conversion.c -- degrees <-> e7 (gf_convert.c, the one unit of the core with floating point): the worked example
 * of geofence.h, the limits and the meridian rule, and round trips. Only the integer outputs go into the digest.
 */
#include "core_test.h"

#include <math.h>

static void expect(double lat_deg, double lon_deg, int32_t lat_e7, int32_t lon_e7) {
    gf_point p = {0, 0};
    CT_STATUS(gf_point_from_degrees(lat_deg, lon_deg, &p), GF_OK, "gf_point_from_degrees");
    ct_digest(p.lat);
    ct_digest(p.lon);
    CT_CHECK(p.lat == lat_e7 && p.lon == lon_e7, "from degrees: {%ld, %ld}, want {%ld, %ld}", (long)p.lat,
             (long)p.lon, (long)lat_e7, (long)lon_e7);
}

void test_conversion(void) {
    expect(-27.4679357, 153.0281038, -274679357, 1530281038);  /* Brisbane GPO, the header's worked example */
    expect(90.0, 180.0, 900000000, -1800000000);                /* +180 is written as -180: one meridian */
    expect(-90.0, -180.0, -900000000, -1800000000);
    expect(0.0, -0.0, 0, 0);
    expect(-27.46793574, 153.02810376, -274679357, 1530281038);  /* to nearest, both signs */
    expect(-27.46793576, 153.02810384, -274679358, 1530281038);

    /* Every e7 value survives a trip through degrees (the double has 53 bits; an e7 value needs 32). */
    ct_rng rng = ct_rng_seeded(0x646567ULL);  /* "deg" */
    for (int i = 0; i < 20000; i++) {
        gf_point p = {(int32_t)ct_range(&rng, -GF_LAT_MAX_E7, GF_LAT_MAX_E7),
                      (int32_t)ct_range(&rng, -GF_LON_MAX_E7 + 1, GF_LON_MAX_E7 - 1)};
        double lat_deg = 0, lon_deg = 0;
        gf_point back = {0, 0};
        gf_point_to_degrees(p, &lat_deg, &lon_deg);
        CT_STATUS(gf_point_from_degrees(lat_deg, lon_deg, &back), GF_OK, "round trip");
        CT_CHECK(back.lat == p.lat && back.lon == p.lon, "round trip of {%ld, %ld} gave {%ld, %ld}", (long)p.lat,
                 (long)p.lon, (long)back.lat, (long)back.lon);
    }
    gf_point_to_degrees((gf_point){0, 0}, NULL, NULL);  /* both outputs optional */

    /* Rounding is lround's (to nearest, ties away from zero) at ties, just beside them and at any value. */
    const double tricky_e7[] = {0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, 1799999999.5, -1799999999.5, 899999999.4999999, 0.0, -0.0};
    for (size_t i = 0; i < sizeof tricky_e7 / sizeof tricky_e7[0]; i++) {
        gf_point p = {0, 0};
        double lon_deg = tricky_e7[i] / GF_E7_PER_DEGREE;
        CT_STATUS(gf_point_from_degrees(0, lon_deg, &p), GF_OK, "tricky");
        long want = lround(lon_deg * GF_E7_PER_DEGREE);
        if (want == GF_LON_MAX_E7) want = -GF_LON_MAX_E7;  /* the meridian rule */
        CT_CHECK(p.lon == want, "%.17g deg: %ld e7, lround %ld", lon_deg, (long)p.lon, want);
    }
    for (int i = 0; i < 200000; i++) {
        double lat_deg = ((double)ct_range(&rng, -1800000000, 1800000000) + (double)ct_range(&rng, 0, 1 << 20) /
                          (1 << 20)) / 2e7;
        gf_point p = {0, 0};
        CT_STATUS(gf_point_from_degrees(lat_deg, 0, &p), GF_OK, "random");
        long want = lround(lat_deg * GF_E7_PER_DEGREE);
        CT_CHECK(p.lat == want, "%.17g deg: %ld e7, lround %ld", lat_deg, (long)p.lat, want);
    }
}
