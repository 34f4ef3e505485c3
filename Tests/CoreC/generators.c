/*
 * generators.c -- random fences, fixes, radii and margins for the tests. Integer only, so the same seed gives the
 * same inputs on every architecture (a float draw could round differently under another libm).
 *
 * The clusters put many fences where the index has its special cases: both sides of the +-180 seam, latitudes of
 * 80 to 85 degrees (where a fence's box spans many degrees of longitude), and a dense city.
 */
#include "core_test.h"

static const gf_point clusters[] = {
    {-274679357, 1530281038},   /* Brisbane GPO: a dense city */
    {-171000000, 1799500000},   /* Fiji, just west of the antimeridian */
    {-171000000, -1799500000},  /* ... and just east of it */
    {825000000, 1799000000},    /* 82.5 N on the antimeridian: wide boxes across the seam */
    {-845000000, -1795000000},  /* 84.5 S, the fence latitude limit is near */
    {800000000, 1000000},       /* 80 N */
    {0, 0},                     /* the equator at the prime meridian */
};
enum { CLUSTERS = sizeof clusters / sizeof clusters[0] };

int32_t ct_wrap_lon(int64_t lon_e7) {
    while (lon_e7 > GF_LON_MAX_E7) lon_e7 -= 2LL * GF_LON_MAX_E7;
    while (lon_e7 < -GF_LON_MAX_E7) lon_e7 += 2LL * GF_LON_MAX_E7;
    return (int32_t)lon_e7;
}

static int32_t clamp32(int64_t value, int32_t limit) {
    return (int32_t)(value > limit ? limit : value < -limit ? -limit : value);
}

uint32_t ct_random_radius(ct_rng *rng) {
    switch (ct_range(rng, 0, 31)) {
    case 0: return GF_RADIUS_MIN_MM;
    case 1: return GF_RADIUS_MAX_MM;
    default: break;
    }
    /* A random octave of 1 m .. 50 km, then uniform inside it: about log-uniform, so small fences get their share. */
    uint64_t lo = (uint64_t)GF_RADIUS_MIN_MM << ct_range(rng, 0, 15);
    uint64_t hi = lo * 2 > GF_RADIUS_MAX_MM ? GF_RADIUS_MAX_MM : lo * 2;
    return (uint32_t)ct_range(rng, (int64_t)lo, (int64_t)hi);
}

uint32_t ct_random_margin(ct_rng *rng) {
    /* Large margins are rare: with 1 m fences in the table a 50 km margin probes every cell of the finest level
     * within 50 km, up to 6.6 million near 85 degrees (gf_query's cost in geofence.h): correct, but 35 ms on x86-64
     * and ten times that under qemu. */
    int64_t pick = ct_range(rng, 0, 127);
    if (pick < 40) return 0;
    if (pick < 80) return (uint32_t)ct_range(rng, 0, 2000);
    if (pick < 126) return (uint32_t)ct_range(rng, 0, 1000000);
    if (pick == 126) return GF_MARGIN_MAX_MM;
    return (uint32_t)ct_range(rng, 0, GF_MARGIN_MAX_MM);
}

gf_point ct_random_centre(ct_rng *rng) {
    gf_point p;
    int64_t pick = ct_range(rng, 0, 63);
    if (pick < 20) {  /* anywhere a centre may be */
        p.lat = (int32_t)ct_range(rng, -GF_FENCE_LAT_MAX_E7, GF_FENCE_LAT_MAX_E7);
        p.lon = (int32_t)ct_range(rng, -GF_LON_MAX_E7, GF_LON_MAX_E7);
    } else if (pick < 22) {  /* exactly on the limits */
        p.lat = pick == 20 ? GF_FENCE_LAT_MAX_E7 : -GF_FENCE_LAT_MAX_E7;
        p.lon = ct_range(rng, 0, 1) ? GF_LON_MAX_E7 : -GF_LON_MAX_E7;
    } else {  /* in a cluster: +-0.3 deg of latitude, +-0.6 deg of longitude */
        gf_point c = clusters[ct_range(rng, 0, CLUSTERS - 1)];
        p.lat = clamp32(c.lat + ct_range(rng, -3000000, 3000000), GF_FENCE_LAT_MAX_E7);
        p.lon = ct_wrap_lon(c.lon + ct_range(rng, -6000000, 6000000));
    }
    return p;
}

gf_point ct_random_fix_near(ct_rng *rng, gf_point p, uint32_t reach_mm) {
    /* 0.0905 e7 of latitude per mm (see gf__lat_reach_e7); longitude degrees shrink with cos(lat), which a few
     * steps approximate well enough for spreading test points. */
    int64_t lat_reach = (int64_t)reach_mm * 905 / 10000 + 1;
    int32_t abs_lat = p.lat < 0 ? -p.lat : p.lat;
    int64_t stretch = abs_lat < 600000000 ? 1 : abs_lat < 750000000 ? 2 : abs_lat < 820000000 ? 5 : 12;
    gf_point fix;
    fix.lat = clamp32(p.lat + ct_range(rng, -lat_reach, lat_reach), GF_LAT_MAX_E7);
    fix.lon = ct_wrap_lon(p.lon + ct_range(rng, -lat_reach * stretch, lat_reach * stretch));
    return fix;
}
