/*
 * fence_distance.c -- gf_fence_distance against brute force and against gf_query.
 *
 * The contract (include/geofence.h): the signed distance to one fence's boundary as gf_query computes it.
 *   Circles: gf_distance(fix, centre) - radius, exactly, at any distance and for any limit.
 *   Polygons and corridors, against the brute-force signed distance d of shape_brute.c, with the documented error
 *   e(d) = 20 mm + 1e-7 |d|:  |d| <= limit - e: within e of d;  d >= limit + e: exactly limit + 1;  d <= -(limit + e):
 *   at most -limit and at least d - e (a lower bound on the depth). In the band between: one of those answers.
 *   gf_query: whenever a query with margin m returns the fence, its distance is gf_fence_distance with limit m, and,
 *   when that distance lies within m of the boundary (where both are exact), with every larger limit too; when it
 *   does not return a shape, gf_fence_distance with limit m says limit + 1.
 * Shapes: a concave polygon with two holes in Brisbane; a 2,400-vertex polygon with a hole at 60 N (small edge-grid
 * cells, so the search for a deep fix ends at the limit, not at the grid, and longitude degrees are half the size of
 * latitude degrees there); a polygon at 80 N; a zig-zag corridor at 45 S. Fixes: random in and around each shape,
 * next to edges and vertices, deep inside, and far away (hundreds to thousands of km). Polygons come from integer
 * arithmetic only, so every architecture draws the same ones.
 */
#include "core_test.h"

#include <stdio.h>
#include <string.h>

enum { MAX_VERTICES = 2600, MAX_RINGS = 3, HIT_BUFFER = 64 };

typedef struct dshape {
    gf_point v[MAX_VERTICES];
    uint32_t ring_ends[MAX_RINGS];
    uint32_t rings;
    uint32_t half_width_mm;  /* 0: polygon */
    gf_handle handle;
    int32_t lat_lo, lat_hi, lon_lo, lon_hi;  /* the vertices' box */
} dshape;

static unsigned long exact_checked, beyond_checked, deep_checked, band_checked, query_checked, circle_checked;
static int64_t worst_error_mm;

static int64_t error_bound_mm(int64_t d) {
    return 20 + (d < 0 ? -d : d) / 10000000;
}

/* ---- Shapes (integer only) ---- */

/* A ring along the sides of the box sw .. sw + (north, east), `per_side` vertices per side, each pushed in or out
 * across its side by up to `jitter` e7 (a concave, wiggly ring; the corners stay put). */
static void add_wiggly_ring(dshape *s, gf_point sw, int64_t north, int64_t east, uint32_t per_side, int64_t jitter,
                            ct_rng *rng) {
    uint32_t at = s->rings == 0 ? 0 : s->ring_ends[s->rings - 1];
    for (uint32_t side = 0; side < 4; side++)
        for (uint32_t i = 0; i < per_side; i++) {
            int64_t along = (side % 2 == 0 ? east : north) * i / per_side;
            int64_t across = i == 0 ? 0 : ct_range(rng, -jitter, jitter);
            int64_t lat, lon;
            switch (side) {
            case 0: lat = across; lon = along; break;                 /* south side, eastwards */
            case 1: lat = along; lon = east + across; break;          /* east side, northwards */
            case 2: lat = north + across; lon = east - along; break;  /* north side, westwards */
            default: lat = north - along; lon = across; break;        /* west side, southwards */
            }
            s->v[at++] = (gf_point){(int32_t)(sw.lat + lat), ct_wrap_lon(sw.lon + lon)};
        }
    s->ring_ends[s->rings++] = at;
}

static void measure_box(dshape *s) {
    s->lat_lo = s->lon_lo = INT32_MAX;
    s->lat_hi = s->lon_hi = INT32_MIN;
    for (uint32_t i = 0; i < s->ring_ends[s->rings - 1]; i++) {
        if (s->v[i].lat < s->lat_lo) s->lat_lo = s->v[i].lat;
        if (s->v[i].lat > s->lat_hi) s->lat_hi = s->v[i].lat;
        if (s->v[i].lon < s->lon_lo) s->lon_lo = s->v[i].lon;
        if (s->v[i].lon > s->lon_hi) s->lon_hi = s->v[i].lon;
    }
}

static ct_shape_view view_of(const dshape *s) {
    ct_shape_view view = {s->v, s->ring_ends, s->rings, s->half_width_mm};
    return view;
}

/* ---- Checks ---- */

static int64_t fence_distance(const gf_table *table, gf_handle handle, gf_point fix, uint32_t limit_mm) {
    int64_t d = INT64_MIN;
    CT_STATUS(gf_fence_distance(table, handle, fix, limit_mm, &d), GF_OK, "gf_fence_distance");
    return d;
}

/* The limit semantics at one fix, for a shape whose brute-force signed distance there is `want`. */
static void check_limit(const gf_table *table, const dshape *s, gf_point fix, int64_t want, uint32_t limit_mm) {
    int64_t got = fence_distance(table, s->handle, fix, limit_mm);
    int64_t e = error_bound_mm(want), limit = limit_mm;
    const char *kind = s->half_width_mm ? "corridor" : "polygon";
    ct_digest(got);
    if ((want < 0 ? -want : want) <= limit - e) {
        int64_t error = got > want ? got - want : want - got;
        if (error > worst_error_mm) worst_error_mm = error;
        exact_checked++;
        CT_CHECK(error <= e, "%s at (%d, %d) limit %u: %lld mm, brute force %lld mm (bound %lld)", kind, fix.lat,
                 fix.lon, (unsigned)limit_mm, (long long)got, (long long)want, (long long)e);
    } else if (want >= limit + e) {
        beyond_checked++;
        CT_CHECK(got == limit + 1, "%s at (%d, %d) limit %u: %lld mm, want limit + 1 (brute force %lld mm)", kind,
                 fix.lat, fix.lon, (unsigned)limit_mm, (long long)got, (long long)want);
    } else if (want <= -(limit + e)) {
        deep_checked++;
        CT_CHECK(got <= -limit && got >= want - e,
                 "%s at (%d, %d) limit %u: %lld mm, want in [%lld, %lld] (brute force depth %lld mm)", kind, fix.lat,
                 fix.lon, (unsigned)limit_mm, (long long)got, (long long)(want - e), (long long)-limit,
                 (long long)want);
    } else {
        /* Within e of the limit: exact, or "beyond", or a depth bound. */
        band_checked++;
        int64_t error = got > want ? got - want : want - got;
        CT_CHECK(error <= e || got == limit + 1 || (got <= -limit && got >= want - e),
                 "%s at (%d, %d) limit %u (at the limit): %lld mm, brute force %lld mm", kind, fix.lat, fix.lon,
                 (unsigned)limit_mm, (long long)got, (long long)want);
    }
}

/* gf_query with margin m against gf_fence_distance with limit m and larger. */
static void check_query(const gf_table *table, gf_handle handle, int is_shape, gf_point fix, uint32_t margin_mm,
                        ct_rng *rng) {
    gf_hit hits[HIT_BUFFER];
    size_t count = 0;
    CT_STATUS(gf_query(table, fix, margin_mm, hits, HIT_BUFFER, &count), GF_OK, "gf_query");
    const gf_hit *hit = NULL;
    for (size_t i = 0; i < count && i < HIT_BUFFER; i++)
        if (hits[i].handle == handle) hit = &hits[i];
    int64_t at_margin = fence_distance(table, handle, fix, margin_mm);
    query_checked++;
    if (hit == NULL) {
        CT_CHECK(is_shape ? at_margin == (int64_t)margin_mm + 1 : at_margin > (int64_t)margin_mm,
                 "(%d, %d) margin %u: no hit, but gf_fence_distance says %lld mm", fix.lat, fix.lon,
                 (unsigned)margin_mm, (long long)at_margin);
        return;
    }
    CT_CHECK(hit->distance_mm == at_margin, "(%d, %d) margin %u: hit at %d mm, gf_fence_distance %lld mm", fix.lat,
             fix.lon, (unsigned)margin_mm, hit->distance_mm, (long long)at_margin);
    int64_t magnitude = hit->distance_mm < 0 ? -(int64_t)hit->distance_mm : hit->distance_mm;
    if (is_shape && magnitude >= (int64_t)margin_mm) return;  /* a depth bound: a larger limit searches deeper */
    uint32_t larger[2] = {margin_mm + (uint32_t)ct_range(rng, 0, GF_MARGIN_MAX_MM - margin_mm), GF_MARGIN_MAX_MM};
    for (int k = 0; k < 2; k++) {
        int64_t d = fence_distance(table, handle, fix, larger[k]);
        CT_CHECK(d == hit->distance_mm, "(%d, %d) margin %u: hit at %d mm, gf_fence_distance limit %u: %lld mm",
                 fix.lat, fix.lon, (unsigned)margin_mm, hit->distance_mm, (unsigned)larger[k], (long long)d);
    }
}

static uint32_t random_limit(ct_rng *rng, int64_t want) {
    int64_t magnitude = want < 0 ? -want : want;
    switch (ct_range(rng, 0, 5)) {
    case 0: return 0;
    case 1: return (uint32_t)ct_range(rng, 0, 2000);
    case 2: return (uint32_t)ct_range(rng, 0, 100000);
    case 3: return (uint32_t)ct_range(rng, 0, GF_MARGIN_MAX_MM);
    default: {  /* just around the fix's own distance: both sides of "within the limit" */
        int64_t limit = magnitude + ct_range(rng, -3000, 3000);
        return (uint32_t)(limit < 0 ? 0 : limit > GF_MARGIN_MAX_MM ? GF_MARGIN_MAX_MM : limit);
    }
    }
}

static void check_shape_fix(const gf_table *table, const dshape *s, gf_point fix, ct_rng *rng) {
    ct_shape_view view = view_of(s);
    int inside = 0;
    int64_t want = ct_brute_signed_mm(&view, fix, &inside);
    if (inside < 0) return;  /* on an edge: the core's tie-break decides */
    for (int k = 0; k < 3; k++) check_limit(table, s, fix, want, random_limit(rng, want));
    check_query(table, s->handle, 1, fix, random_limit(rng, want), rng);
}

static gf_point random_fix_for(const dshape *s, ct_rng *rng, int k) {
    uint32_t n = s->ring_ends[s->rings - 1];
    int64_t pad = (s->lat_hi - s->lat_lo) / 4 + 3000 + (int64_t)s->half_width_mm / 10;
    gf_point p;
    switch (k % 4) {
    case 0:  /* in and around the box */
        p.lat = (int32_t)ct_range(rng, s->lat_lo - pad, s->lat_hi + pad);
        p.lon = (int32_t)ct_range(rng, s->lon_lo - pad, s->lon_hi + pad);
        return p;
    case 1: {  /* next to an edge (a ring's closing edge too, or a corridor's path) */
        uint32_t i = (uint32_t)ct_range(rng, 0, n - 2);
        p = ct_along(s->v[i], s->v[i + 1], ct_range(rng, 0, 1000), 1000);
        int64_t r = k % 8 == 1 ? 30 : 3000;
        int64_t north = ct_range(rng, -r, r), east = ct_range(rng, -r, r);
        return (gf_point){(int32_t)(p.lat + north), ct_wrap_lon(p.lon + east)};
    }
    case 2: {  /* near a vertex */
        gf_point v = s->v[ct_range(rng, 0, n - 1)];
        int64_t north = ct_range(rng, -20000, 20000), east = ct_range(rng, -20000, 20000);
        return (gf_point){(int32_t)(v.lat + north), ct_wrap_lon(v.lon + east)};
    }
    default:  /* the middle half of the box: deep inside a polygon */
        p.lat = (int32_t)ct_range(rng, s->lat_lo + (s->lat_hi - s->lat_lo) / 4, s->lat_hi - (s->lat_hi - s->lat_lo) / 4);
        p.lon = (int32_t)ct_range(rng, s->lon_lo + (s->lon_hi - s->lon_lo) / 4, s->lon_hi - (s->lon_hi - s->lon_lo) / 4);
        return p;
    }
}

/* Far away (1.5 to 40 degrees of latitude from the box, so > 160 km): beyond any limit. */
static void check_far(const gf_table *table, const dshape *s, ct_rng *rng) {
    int64_t away = ct_range(rng, 15000000, 400000000);
    int64_t lat = ct_range(rng, 0, 1) ? (int64_t)s->lat_hi + away : (int64_t)s->lat_lo - away;
    if (lat > GF_LAT_MAX_E7 || lat < -GF_LAT_MAX_E7) lat = lat > 0 ? lat - 2 * away : lat + 2 * away;
    if (lat > GF_LAT_MAX_E7 || lat < -GF_LAT_MAX_E7) return;
    gf_point fix = {(int32_t)lat, (int32_t)ct_range(rng, -GF_LON_MAX_E7, GF_LON_MAX_E7)};
    uint32_t limit = (uint32_t)ct_range(rng, 0, GF_MARGIN_MAX_MM);
    int64_t got = fence_distance(table, s->handle, fix, limit);
    beyond_checked++;
    CT_CHECK(got == (int64_t)limit + 1, "far fix (%d, %d) limit %u: %lld mm, want limit + 1", fix.lat, fix.lon,
             (unsigned)limit, (long long)got);
    check_query(table, s->handle, 1, fix, limit, rng);
}

/* Circles: exactly gf_distance - radius for fixes near and anywhere, for any limit, and gf_query agrees. */
static void check_circles(gf_table *table, ct_rng *rng) {
    for (int k = 0; k < 60; k++) {
        gf_point centre = ct_random_centre(rng);
        uint32_t radius_mm = ct_random_radius(rng);
        gf_handle h;
        CT_STATUS(gf_fence_add(table, centre, radius_mm, &h), GF_OK, "gf_fence_add");
        for (int j = 0; j < 40; j++) {
            gf_point fix;
            if (j % 4 == 0) {
                fix.lat = (int32_t)ct_range(rng, -GF_LAT_MAX_E7, GF_LAT_MAX_E7);
                fix.lon = (int32_t)ct_range(rng, -GF_LON_MAX_E7, GF_LON_MAX_E7);
            } else {
                fix = ct_random_fix_near(rng, centre, radius_mm * (j % 4 == 1 ? 1u : 3u));
            }
            int64_t d = 0;
            CT_STATUS(gf_distance(fix, centre, &d), GF_OK, "gf_distance");
            int64_t want = d - (int64_t)radius_mm;
            uint32_t limit = ct_random_margin(rng);
            int64_t got = fence_distance(table, h, fix, limit);
            circle_checked++;
            ct_digest(got);
            CT_CHECK(got == want, "circle (%d, %d) r %u, fix (%d, %d), limit %u: %lld mm, gf_distance - r %lld mm",
                     centre.lat, centre.lon, (unsigned)radius_mm, fix.lat, fix.lon, (unsigned)limit, (long long)got,
                     (long long)want);
            if (j % 4 != 0) check_query(table, h, 0, fix, ct_random_margin(rng), rng);
        }
    }
}

static void check_errors(gf_table *table, const dshape *polygon, ct_rng *rng) {
    gf_point fix = {polygon->lat_lo, polygon->lon_lo};
    int64_t d = 0;
    gf_handle live = polygon->handle;
    CT_STATUS(gf_fence_distance(NULL, live, fix, 0, &d), GF_ERR_NULL, "gf_fence_distance of a NULL table");
    CT_STATUS(gf_fence_distance(table, live, fix, 0, NULL), GF_ERR_NULL, "gf_fence_distance into NULL");
    CT_STATUS(gf_fence_distance(table, GF_HANDLE_NONE, fix, 0, &d), GF_ERR_HANDLE, "handle 0");
    gf_handle other_generation = (live & 0xFFFFFFu) | ((gf_handle)((live >> 24) % 255 + 1) << 24);  /* 1..255 */
    CT_STATUS(gf_fence_distance(table, other_generation, fix, 0, &d), GF_ERR_HANDLE, "a live slot, another generation");
    CT_STATUS(gf_fence_distance(table, 0x00FFFFF0u | (1u << 24), fix, 0, &d), GF_ERR_HANDLE, "a made-up slot");
    gf_point bad_lat[2] = {{GF_LAT_MAX_E7 + 1, 0}, {-GF_LAT_MAX_E7 - 1, 0}};
    gf_point bad_lon[2] = {{0, GF_LON_MAX_E7 + 1}, {0, -GF_LON_MAX_E7 - 1}};
    for (int k = 0; k < 2; k++) {
        CT_STATUS(gf_fence_distance(table, live, bad_lat[k], 0, &d), GF_ERR_LATITUDE, "a fix beyond 90 deg");
        CT_STATUS(gf_fence_distance(table, live, bad_lon[k], 0, &d), GF_ERR_LONGITUDE, "a fix beyond 180 deg");
    }
    CT_STATUS(gf_fence_distance(table, live, fix, GF_MARGIN_MAX_MM + 1, &d), GF_ERR_MARGIN, "limit 50 km + 1 mm");
    CT_STATUS(gf_fence_distance(table, live, fix, UINT32_MAX, &d), GF_ERR_MARGIN, "limit UINT32_MAX");
    /* The limits themselves are valid: the poles, the seam, the largest limit. */
    gf_point edges_of_world[4] = {{GF_LAT_MAX_E7, 0}, {-GF_LAT_MAX_E7, 0}, {0, GF_LON_MAX_E7}, {0, -GF_LON_MAX_E7}};
    for (int k = 0; k < 4; k++) {
        d = 0;
        CT_STATUS(gf_fence_distance(table, live, edges_of_world[k], GF_MARGIN_MAX_MM, &d), GF_OK,
                  "a fix at a pole or on the seam, the largest limit");
        CT_CHECK(d == (int64_t)GF_MARGIN_MAX_MM + 1, "a fix at (%d, %d), far from the polygon: %lld mm",
                 edges_of_world[k].lat, edges_of_world[k].lon, (long long)d);
    }

    /* Stale handles: a circle, a polygon and a corridor, removed (their slots then reused by new fences). */
    gf_handle circle, shape, corridor;
    CT_STATUS(gf_fence_add(table, fix, 5000, &circle), GF_OK, "gf_fence_add");
    CT_STATUS(gf_polygon_add(table, polygon->v, polygon->ring_ends, polygon->rings, &shape), GF_OK, "gf_polygon_add");
    CT_STATUS(gf_corridor_add(table, polygon->v, 5, 3000, &corridor), GF_OK, "gf_corridor_add");
    CT_STATUS(gf_fence_distance(table, shape, fix, 1000, &d), GF_OK, "gf_fence_distance of a live polygon");
    gf_handle removed[3] = {circle, shape, corridor};
    for (int k = 0; k < 3; k++) CT_STATUS(gf_fence_remove(table, removed[k]), GF_OK, "gf_fence_remove");
    gf_handle reused[3];
    for (int k = 0; k < 3; k++) {
        gf_point centre = ct_random_fix_near(rng, fix, 100000);
        CT_STATUS(gf_fence_add(table, centre, 2000, &reused[k]), GF_OK, "gf_fence_add after removals");
    }
    for (int k = 0; k < 3; k++) {
        d = 12345;
        CT_STATUS(gf_fence_distance(table, removed[k], fix, 1000, &d), GF_ERR_HANDLE, "a removed fence's handle");
        CT_STATUS(gf_fence_remove(table, reused[k]), GF_OK, "gf_fence_remove");
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "gf_table_verify");
}

/* Regressions (2026-11-29), each once wrong in the core:
 * 1. Depth bounds. A polygon's search converted every side of its searched area to mm with the longitude scale, so
 *    an inside fix's depth bound was cos(lat) times the margin: at the centre of a 20 km square of small edge-grid
 *    cells at 60 N (true depth 10 km) gf_fence_distance with limit 5 km said -2.4 km, and so did gf_query with a
 *    5 km margin, for fixes whose true distance was within the margin too (which must be exact).
 * 2. Far feet. The nearest point of an edge was taken from a local frame at the fix, which ignores the convergence
 *    of the meridians: 48.7 km from an oblique edge at 76 N the distance came out 1.1 m long (4e-5 relative against
 *    the documented 20 mm + 1e-7 d). The references are GeographicLib's (Python geographiclib 2.1, Karney's
 *    geodesic to points of the lon/lat-straight edge, ternary search on the edge to 1e-9 of its length).
 * 3. The seam. A shape's test took the fix's longitude as it came, so a fix just west of +180 deg never found the
 *    edges of a shape just east of -180 deg (found by the core fuzzer: 6 cm away, not a hit at a 48 m margin), and a
 *    fix at lon +180 deg was not the fix at lon -180 deg (the same meridian, geofence.h). */
static void check_regressions(void) {
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(4, &table), GF_OK, "gf_table_create");

    static gf_point square[1600];
    const int32_t side_e7 = 1800000;  /* 20 km of latitude; 400 collinear vertices a side, edges of 50 m */
    for (int32_t i = 0; i < 400; i++) {
        square[i] = (gf_point){599100000, 250000000 + i * (2 * side_e7 / 400)};
        square[400 + i] = (gf_point){599100000 + i * (side_e7 / 400), 250000000 + 2 * side_e7};
        square[800 + i] = (gf_point){599100000 + side_e7, 250000000 + 2 * side_e7 - i * (2 * side_e7 / 400)};
        square[1200 + i] = (gf_point){599100000 + side_e7 - i * (side_e7 / 400), 250000000};
    }
    uint32_t ends[1] = {1600};
    gf_handle h;
    CT_STATUS(gf_polygon_add(table, square, ends, 1, &h), GF_OK, "gf_polygon_add of a 1600-vertex square at 60 N");
    gf_point centre = {599100000 + side_e7 / 2, 250000000 + side_e7};
    ct_shape_view view = {square, ends, 1, 0};
    int inside = 0;
    int64_t depth = ct_brute_signed_mm(&view, centre, &inside);
    CT_CHECK(inside == 1 && depth < -9900000 && depth > -10100000, "the square's centre: brute force %lld mm",
             (long long)depth);
    int64_t d = fence_distance(table, h, centre, 5000000);
    CT_CHECK(d <= -5000000 && d >= depth - error_bound_mm(depth),
             "60 N square, centre, limit 5 km: %lld mm, want in [%lld, -5000000]", (long long)d,
             (long long)(depth - error_bound_mm(depth)));
    gf_hit hit = {0, 0};
    size_t count = 0;
    CT_STATUS(gf_query(table, centre, 5000000, &hit, 1, &count), GF_OK, "gf_query");
    CT_CHECK(count == 1 && hit.distance_mm <= -5000000, "60 N square, centre, margin 5 km: %zu hits, %d mm", count,
             hit.distance_mm);
    /* 6 km inside (from the south side), margin 9 km: exact. */
    gf_point south = {599100000 + 540000, centre.lon};
    depth = ct_brute_signed_mm(&view, south, &inside);
    CT_STATUS(gf_query(table, south, 9000000, &hit, 1, &count), GF_OK, "gf_query");
    CT_CHECK(count == 1 && hit.distance_mm - depth <= error_bound_mm(depth) && depth - hit.distance_mm <= error_bound_mm(depth),
             "60 N square, 6 km inside, margin 9 km: %d mm, brute force %lld mm", hit.distance_mm, (long long)depth);
    CT_STATUS(gf_fence_remove(table, h), GF_OK, "gf_fence_remove");

    static const struct {
        int32_t lat0;
        gf_point fix;
        int64_t reference_mm;  /* GeographicLib */
    } far_feet[] = {
        {760000000, {767602999, 31606083}, 48655504},
        {600000000, {606524676, -1447099}, 44874522},
    };
    for (size_t k = 0; k < sizeof far_feet / sizeof far_feet[0]; k++) {
        int32_t lat0 = far_feet[k].lat0;
        gf_point triangle[3] = {{lat0, 0}, {lat0 + 8000000, 10000000}, {lat0 - 2000000, 30000000}};
        uint32_t three = 3;
        CT_STATUS(gf_polygon_add(table, triangle, &three, 1, &h), GF_OK, "gf_polygon_add of a triangle");
        d = fence_distance(table, h, far_feet[k].fix, GF_MARGIN_MAX_MM);
        int64_t error = d - far_feet[k].reference_mm;
        CT_CHECK(error <= error_bound_mm(d) && -error <= error_bound_mm(d),
                 "far foot at (%d, %d): %lld mm, GeographicLib %lld mm", far_feet[k].fix.lat, far_feet[k].fix.lon,
                 (long long)d, (long long)far_feet[k].reference_mm);
        CT_STATUS(gf_fence_remove(table, h), GF_OK, "gf_fence_remove");
    }

    /* The seam: a 4 cm triangle 1.3 mm east of -180 deg at 84.9 S, the fix 5 mm west of +180 deg. */
    gf_point sliver[3] = {{-848999994, -1799999987}, {-849000003, -1799999989}, {-849000000, -1799999985}};
    uint32_t three = 3;
    CT_STATUS(gf_polygon_add(table, sliver, &three, 1, &h), GF_OK, "gf_polygon_add east of -180 deg");
    gf_point west_of_seam = {-848999996, 1799999950};
    ct_shape_view sliver_view = {sliver, &three, 1, 0};
    int64_t want = ct_brute_boundary_mm(&sliver_view, west_of_seam);
    CT_CHECK(want > 30 && want < 100, "brute force across the seam: %lld mm", (long long)want);
    CT_STATUS(gf_query(table, west_of_seam, 48316, &hit, 1, &count), GF_OK, "gf_query across the seam");
    CT_CHECK(count == 1 && hit.distance_mm - want <= 20 && want - hit.distance_mm <= 20,
             "across the seam, margin 48 m: %zu hits at %d mm, brute force %lld mm", count, hit.distance_mm,
             (long long)want);
    d = fence_distance(table, h, west_of_seam, 1000);
    CT_CHECK(d - want <= 20 && want - d <= 20, "across the seam, limit 1 m: %lld mm, brute force %lld mm",
             (long long)d, (long long)want);
    CT_STATUS(gf_fence_remove(table, h), GF_OK, "gf_fence_remove");
    /* Lon +180 deg is lon -180 deg: a fix on the meridian, on the west edge of a square east of it, is the same fix
     * either way (on the edge: inside by the tie rule, at distance 0). */
    gf_point east_square[4] = {{100000000, -1800000000}, {100000000, -1799000000}, {101000000, -1799000000},
                               {101000000, -1800000000}};
    uint32_t four = 4;
    CT_STATUS(gf_polygon_add(table, east_square, &four, 1, &h), GF_OK, "gf_polygon_add on -180 deg");
    gf_hit plus = {0, 1}, minus = {0, 2};
    size_t plus_count = 0, minus_count = 0;
    CT_STATUS(gf_query(table, (gf_point){100500000, GF_LON_MAX_E7}, 0, &plus, 1, &plus_count), GF_OK, "gf_query");
    CT_STATUS(gf_query(table, (gf_point){100500000, -GF_LON_MAX_E7}, 0, &minus, 1, &minus_count), GF_OK, "gf_query");
    CT_CHECK(plus_count == 1 && minus_count == 1 && plus.distance_mm == minus.distance_mm && plus.distance_mm <= 0
                 && plus.distance_mm >= -20,
             "on -180 deg: lon +180 gives %zu hits at %d mm, lon -180 %zu hits at %d mm", plus_count,
             plus.distance_mm, minus_count, minus.distance_mm);
    gf_point inside_square = {100500000, -1799500000};
    CT_STATUS(gf_query(table, (gf_point){100500000, GF_LON_MAX_E7 - 10}, 0, &plus, 1, &plus_count), GF_OK, "gf_query");
    CT_CHECK(plus_count == 0, "10 e7 west of +180 deg, outside the square east of -180 deg: %zu hits", plus_count);
    CT_STATUS(gf_query(table, inside_square, 0, &plus, 1, &plus_count), GF_OK, "gf_query");
    CT_CHECK(plus_count == 1 && plus.distance_mm < 0, "inside the square: %zu hits", plus_count);
    CT_STATUS(gf_fence_remove(table, h), GF_OK, "gf_fence_remove");
    gf_table_destroy(table);
}

void test_fence_distance(void) {
    ct_rng rng = ct_rng_seeded(0x64697374ULL);  /* "dist" */
    static dshape shapes[4];
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(4096, &table), GF_OK, "gf_table_create");

    /* Brisbane: 2 km box, 40 vertices a side, two holes. */
    gf_point brisbane = {-274679357, 1530281038};
    add_wiggly_ring(&shapes[0], brisbane, 180000, 200000, 40, 8000, &rng);
    add_wiggly_ring(&shapes[0], (gf_point){brisbane.lat + 30000, brisbane.lon + 30000}, 50000, 60000, 6, 4000, &rng);
    add_wiggly_ring(&shapes[0], (gf_point){brisbane.lat + 110000, brisbane.lon + 100000}, 40000, 70000, 8, 3000,
                    &rng);
    /* 60 N: 0.4 x 0.8 deg (44 km square), 600 vertices a side (edges of ~75 m), a 10 km hole. */
    add_wiggly_ring(&shapes[1], (gf_point){600000000, 250000000}, 4000000, 8000000, 600, 2000, &rng);
    add_wiggly_ring(&shapes[1], (gf_point){601500000, 253000000}, 900000, 1800000, 5, 100000, &rng);
    /* 80 N: 0.2 x 1 deg, 30 vertices a side. */
    add_wiggly_ring(&shapes[2], (gf_point){800000000, -1200000000}, 2000000, 10000000, 30, 200000, &rng);
    /* 45 S: a zig-zag corridor of 20 km legs, half-width 400 m. */
    dshape *zig = &shapes[3];
    for (uint32_t i = 0; i < 10; i++)
        zig->v[i] = (gf_point){-450000000 + (int32_t)(i % 2) * 150000 + (int32_t)(i % 3) * 20000,
                               1700000000 + (int32_t)i * 250000};
    zig->ring_ends[0] = 10;
    zig->rings = 1;
    zig->half_width_mm = 400000;

    for (int k = 0; k < 4; k++) {
        dshape *s = &shapes[k];
        measure_box(s);
        gf_status status = s->half_width_mm == 0
            ? gf_polygon_add(table, s->v, s->ring_ends, s->rings, &s->handle)
            : gf_corridor_add(table, s->v, s->ring_ends[0], s->half_width_mm, &s->handle);
        CT_STATUS(status, GF_OK, "adding a shape");
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "gf_table_verify with shapes");

    static const int points[4] = {800, 300, 400, 600};
    for (int k = 0; k < 4; k++) {
        for (int j = 0; j < points[k]; j++) check_shape_fix(table, &shapes[k], random_fix_for(&shapes[k], &rng, j), &rng);
        for (int j = 0; j < 40; j++) check_far(table, &shapes[k], &rng);
    }
    check_circles(table, &rng);
    check_errors(table, &shapes[0], &rng);
    check_regressions();

    printf("fence distance: shapes %lu exact within the limit (worst error %lld mm), %lu beyond it, %lu deeper "
           "than it, %lu at it; %lu circles; %lu queries compared\n", exact_checked, (long long)worst_error_mm,
           beyond_checked, deep_checked, band_checked, circle_checked, query_checked);
    gf_table_destroy(table);
}
