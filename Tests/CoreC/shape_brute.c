/*
 * shape_brute.c -- brute-force answers for polygons and corridors that share none of the core's shape code, used by
 * shapes.c and fence_distance.c:
 *   inside/outside by the winding number over every edge (exact orientation tests on the e7 integers), -1 for a point
 *   exactly on an edge (its side is the core's tie-break, which the tests check by consistency instead);
 *   distance to the boundary by a ternary search for the nearest point of every edge using gf_distance (the core's
 *   ECEF chord distance, which the accuracy fixture checks against GeographicLib), so only the shape code differs.
 * Error of the brute-force distance: the searched points are rounded to e7 (<= 7.9 mm) and 2^24 steps along an edge
 * (<= 1 mm per 16 km of edge); ternary search assumes the distance along an edge is unimodal, which holds for edges
 * and fixes within a few hundred km of each other (the tests stay well inside that).
 */
#include "core_test.h"

#include <stdint.h>

/* Sign of the cross product (b - a) x (p - a): > 0 when p is left of a->b. Differences < 2^31: no overflow. */
static int orient(gf_point a, gf_point b, gf_point p) {
    int64_t c = ((int64_t)b.lon - a.lon) * ((int64_t)p.lat - a.lat)
              - ((int64_t)b.lat - a.lat) * ((int64_t)p.lon - a.lon);
    return (c > 0) - (c < 0);
}

static int on_segment(gf_point a, gf_point b, gf_point p) {
    if (orient(a, b, p) != 0) return 0;
    int32_t lo_lon = a.lon < b.lon ? a.lon : b.lon, hi_lon = a.lon < b.lon ? b.lon : a.lon;
    int32_t lo_lat = a.lat < b.lat ? a.lat : b.lat, hi_lat = a.lat < b.lat ? b.lat : a.lat;
    return p.lon >= lo_lon && p.lon <= hi_lon && p.lat >= lo_lat && p.lat <= hi_lat;
}

int ct_brute_inside(const ct_shape_view *s, gf_point p) {
    int inside = 0;
    uint32_t start = 0;
    for (uint32_t r = 0; r < s->rings; r++) {
        int winding = 0;
        uint32_t n = s->ring_ends[r] - start;
        for (uint32_t i = 0; i < n; i++) {
            gf_point a = s->vertices[start + i], b = s->vertices[start + (i + 1) % n];
            if (on_segment(a, b, p)) return -1;
            if (a.lat <= p.lat) {
                if (b.lat > p.lat && orient(a, b, p) > 0) winding++;
            } else if (b.lat <= p.lat && orient(a, b, p) < 0) {
                winding--;
            }
        }
        inside ^= winding & 1;
        start = s->ring_ends[r];
    }
    return inside;
}

/* gf_distance for valid points (not counted as a check: brute force calls it millions of times). */
static int64_t distance_mm(gf_point a, gf_point b) {
    int64_t d = 0;
    if (gf_distance(a, b, &d) != GF_OK) CT_CHECK(0, "gf_distance (%d, %d) (%d, %d)", a.lat, a.lon, b.lat, b.lon);
    return d;
}

gf_point ct_along(gf_point a, gf_point b, int64_t t, int64_t steps) {
    gf_point p = {(int32_t)(a.lat + ((int64_t)b.lat - a.lat) * t / steps),
                  (int32_t)(a.lon + ((int64_t)b.lon - a.lon) * t / steps)};
    return p;
}

/* Nearest distance from p to edge a-b: ternary search over the edge's points (unimodal for the short edges here). */
static int64_t brute_edge_distance(gf_point a, gf_point b, gf_point p) {
    const int64_t steps = 1 << 24;
    int64_t lo = 0, hi = steps;
    while (hi - lo > 2) {
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (distance_mm(p, ct_along(a, b, m1, steps)) <= distance_mm(p, ct_along(a, b, m2, steps))) hi = m2;
        else lo = m1;
    }
    int64_t best = INT64_MAX;
    for (int64_t t = lo; t <= hi; t++) {
        int64_t d = distance_mm(p, ct_along(a, b, t, steps));
        if (d < best) best = d;
    }
    return best;
}

int64_t ct_brute_boundary_mm(const ct_shape_view *s, gf_point p) {
    int64_t best = INT64_MAX;
    uint32_t start = 0;
    for (uint32_t r = 0; r < s->rings; r++) {
        uint32_t n = s->ring_ends[r] - start;
        uint32_t edges = s->half_width_mm == 0 ? n : n - 1;
        for (uint32_t i = 0; i < edges; i++) {
            gf_point a = s->vertices[start + i], b = s->vertices[start + (i + 1) % n];
            /* Cheap reject: the edge lies in its box, so no point of it is nearer than the box's nearest point
             * (to 1 % at these sizes: the clamped point, less 1 % and a metre). */
            gf_point q = p;
            int32_t lat_lo = a.lat < b.lat ? a.lat : b.lat, lat_hi = a.lat < b.lat ? b.lat : a.lat;
            int32_t lon_lo = a.lon < b.lon ? a.lon : b.lon, lon_hi = a.lon < b.lon ? b.lon : a.lon;
            q.lat = q.lat < lat_lo ? lat_lo : q.lat > lat_hi ? lat_hi : q.lat;
            q.lon = q.lon < lon_lo ? lon_lo : q.lon > lon_hi ? lon_hi : q.lon;
            int64_t lower = distance_mm(p, q);
            if (lower - lower / 100 - 1000 > best) continue;
            int64_t d = brute_edge_distance(a, b, p);
            if (d < best) best = d;
        }
        start = s->ring_ends[r];
    }
    return best;
}

int64_t ct_brute_signed_mm(const ct_shape_view *s, gf_point p, int *inside) {
    int64_t boundary = ct_brute_boundary_mm(s, p);
    if (s->half_width_mm != 0) {
        int64_t signed_mm = boundary - (int64_t)s->half_width_mm;
        *inside = signed_mm < 0;
        return signed_mm;
    }
    *inside = ct_brute_inside(s, p);
    return *inside > 0 ? -boundary : boundary;
}
