/*
 * conversion.c -- degrees <-> e7 (gf_convert.c, the one unit of the core with floating point): the worked example
 * of geofence.h, the limits and the meridian rule, and round trips. Only the integer outputs go into the digest.
 */
#include "core_test.h"

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
}
