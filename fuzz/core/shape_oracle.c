/*
 * shape_oracle.c -- the fuzzer's brute-force model of polygons and corridors (see shape_oracle.h).
 *
 * Accuracy of the model against the exact minimum of the chord formula over an edge: golden-section search to 4e-10
 * of the edge's length (< 0.1 mm here), double rounding < 0.01 mm. The core's own error against the same minimum is
 * documented as 20 mm + 1e-7 d; the fuzzer allows that plus 2 mm.
 */
#include "shape_oracle.h"

#include <math.h>

#define FZ_RADIANS_PER_E7 (3.14159265358979323846 / 180.0 / 1e7)

static void ecef_of(double lat_e7, double lon_e7, double xyz[3]) {
    const double semi_major = 6378137.0, flattening = 1 / 298.257223563;
    const double e2 = flattening * (2 - flattening);
    double lat = lat_e7 * FZ_RADIANS_PER_E7, lon = lon_e7 * FZ_RADIANS_PER_E7;
    double n = semi_major / sqrt(1 - e2 * sin(lat) * sin(lat));
    xyz[0] = n * cos(lat) * cos(lon);
    xyz[1] = n * cos(lat) * sin(lon);
    xyz[2] = n * (1 - e2) * sin(lat);
}

/* s = c + c^3 / (24 R^2) in mm for a chord c in metres (geofence.h, DISTANCE). */
static double arc_mm(double chord_m) {
    const double mean_radius = 6371008.8;
    return (chord_m + chord_m * chord_m * chord_m / (24 * mean_radius * mean_radius)) * 1000;
}

static double chord_m(const double a[3], const double b[3]) {
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

double fz_distance_mm(double lat_a_e7, double lon_a_e7, double lat_b_e7, double lon_b_e7, double *chord_out) {
    double a[3], b[3];
    ecef_of(lat_a_e7, lon_a_e7, a);
    ecef_of(lat_b_e7, lon_b_e7, b);
    double c = chord_m(a, b);
    if (chord_out != 0) *chord_out = c;
    return arc_mm(c);
}

/* A point with its longitude as int64, so that it may lie just beyond +-180 deg (see fz_polygon_inside). */
typedef struct wide_point {
    int64_t lat, lon;
} wide_point;

/* Sign of (b - a) x (p - a), exact in 64 bits (differences < 2^32, products < 2^63). */
static int orient(gf_point a, gf_point b, wide_point p) {
    int64_t c = ((int64_t)b.lon - a.lon) * (p.lat - a.lat) - ((int64_t)b.lat - a.lat) * (p.lon - a.lon);
    return (c > 0) - (c < 0);
}

/* Whether p lies on edge a-b. A zero-length edge is no edge (the core ignores it): a point on it is a vertex, and so
 * on a real edge unless every edge at that vertex has zero length. */
static int on_segment(gf_point a, gf_point b, wide_point p) {
    if ((a.lat == b.lat && a.lon == b.lon) || orient(a, b, p) != 0) return 0;
    return p.lon >= (a.lon < b.lon ? a.lon : b.lon) && p.lon <= (a.lon < b.lon ? b.lon : a.lon)
        && p.lat >= (a.lat < b.lat ? a.lat : b.lat) && p.lat <= (a.lat < b.lat ? b.lat : a.lat);
}

int fz_polygon_inside(const fz_shape *s, gf_point fix) {
    /* The fix on the polygon's side of the seam (lon +180 deg is lon -180 deg): the middle of the vertices' longitudes
     * and the fix at most 180 deg apart. */
    int64_t lon_lo = INT64_MAX, lon_hi = INT64_MIN;
    for (uint32_t i = 0; i < s->ring_ends[s->rings - 1]; i++) {
        if (s->v[i].lon < lon_lo) lon_lo = s->v[i].lon;
        if (s->v[i].lon > lon_hi) lon_hi = s->v[i].lon;
    }
    wide_point p = {fix.lat, fix.lon};
    if (p.lon - (lon_lo + lon_hi) / 2 > GF_LON_MAX_E7) p.lon -= 2LL * GF_LON_MAX_E7;
    if ((lon_lo + lon_hi) / 2 - p.lon > GF_LON_MAX_E7) p.lon += 2LL * GF_LON_MAX_E7;
    int inside = 0;
    uint32_t start = 0;
    for (uint32_t r = 0; r < s->rings; r++) {
        uint32_t n = s->ring_ends[r] - start;
        for (uint32_t i = 0; i < n; i++) {
            gf_point a = s->v[start + i], b = s->v[start + (i + 1) % n];
            if (on_segment(a, b, p)) return -1;
            /* Crossing number of a ray towards +lon: edges with one end above p, the other at or below it. */
            if ((a.lat > p.lat) != (b.lat > p.lat)) {
                int side = orient(a, b, p);
                if ((b.lat > a.lat && side > 0) || (b.lat < a.lat && side < 0)) inside ^= 1;
            }
        }
        start = s->ring_ends[r];
    }
    return inside;
}

static uint32_t vertex_count(const fz_shape *s) {
    return s->ring_ends[s->rings - 1];
}

double fz_boundary_lower_mm(const fz_shape *s, gf_point p) {
    int64_t lat_lo = INT64_MAX, lat_hi = INT64_MIN, lon_lo = INT64_MAX, lon_hi = INT64_MIN;
    for (uint32_t i = 0; i < vertex_count(s); i++) {
        if (s->v[i].lat < lat_lo) lat_lo = s->v[i].lat;
        if (s->v[i].lat > lat_hi) lat_hi = s->v[i].lat;
        if (s->v[i].lon < lon_lo) lon_lo = s->v[i].lon;
        if (s->v[i].lon > lon_hi) lon_hi = s->v[i].lon;
    }
    int64_t lon = p.lon, middle = (lon_lo + lon_hi) / 2;
    if (lon - middle > GF_LON_MAX_E7) lon -= 2LL * GF_LON_MAX_E7;  /* p's side of the seam nearest the box */
    if (middle - lon > GF_LON_MAX_E7) lon += 2LL * GF_LON_MAX_E7;
    double q_lat = (double)(p.lat < lat_lo ? lat_lo : p.lat > lat_hi ? lat_hi : p.lat);
    double q_lon = (double)(lon < lon_lo ? lon_lo : lon > lon_hi ? lon_hi : lon);
    double d = fz_distance_mm(p.lat, p.lon, q_lat, q_lon, 0);
    d = d * 0.97 - 1000;
    return d > 0 ? d : 0;
}

/* The nearest distance from p (ECEF at) to edge a-b by golden-section search over t in [0, 1]. */
static double edge_mm(const double at[3], gf_point a, gf_point b) {
    const double ratio = 0.6180339887498949;
    double lo = 0, hi = 1;
    double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    double q[3];
#define FZ_AT(t) (ecef_of(a.lat + ((double)b.lat - a.lat) * (t), a.lon + ((double)b.lon - a.lon) * (t), q), chord_m(at, q))
    double f1 = FZ_AT(x1), f2 = FZ_AT(x2);
    for (int k = 0; k < 45; k++) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = FZ_AT(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = FZ_AT(x2);
        }
    }
    double best = f1 < f2 ? f1 : f2;
    double end0 = FZ_AT(0.0), end1 = FZ_AT(1.0);
#undef FZ_AT
    if (end0 < best) best = end0;
    if (end1 < best) best = end1;
    return arc_mm(best);
}

double fz_boundary_mm(const fz_shape *s, gf_point p) {
    double at[3];
    ecef_of(p.lat, p.lon, at);
    double best = INFINITY;
    uint32_t start = 0;
    for (uint32_t r = 0; r < s->rings; r++) {
        uint32_t n = s->ring_ends[r] - start;
        uint32_t edges = s->half_width_mm == 0 ? n : n - 1;
        for (uint32_t i = 0; i < edges; i++) {
            gf_point a = s->v[start + i], b = s->v[start + (i + 1) % n];
            if (a.lat == b.lat && a.lon == b.lon) continue;  /* no edge (see on_segment) */
            double d = edge_mm(at, a, b);
            if (d < best) best = d;
        }
        start = s->ring_ends[r];
    }
    return best;
}
