/*
 * shapes.c -- polygon and corridor fences against brute force that shares none of the core's shape code
 * (shape_brute.c: winding numbers on the e7 integers, ternary search along every edge with gf_distance); points on
 * an edge are skipped (their side is the core's tie-break, checked separately by consistency).
 * Shapes: convex and concave polygons with holes, slivers, horizontal and vertical edges, collinear vertices, a
 * 20,000-vertex ring, near 80 degrees and near +-180; corridors with sharp turns and U-turns. Queries mix them with
 * circles in one table, with margins, tracked and untracked, before and after removals.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VERTICES = 20100, MAX_RINGS = 4, HIT_BUFFER = 64 };

typedef struct shape {
    gf_point v[MAX_VERTICES];
    uint32_t ring_ends[MAX_RINGS];
    uint32_t rings;
    uint32_t half_width_mm;  /* 0: polygon */
    gf_handle handle;
} shape;

/* ---- Brute force (shape_brute.c) ---- */

static ct_shape_view view_of(const shape *s) {
    ct_shape_view view = {s->v, s->ring_ends, s->rings, s->half_width_mm};
    return view;
}

static int brute_inside(const shape *s, gf_point p) {
    ct_shape_view view = view_of(s);
    return ct_brute_inside(&view, p);
}

static int64_t brute_boundary_distance(const shape *s, gf_point p) {
    ct_shape_view view = view_of(s);
    return ct_brute_boundary_mm(&view, p);
}

static gf_point along(gf_point a, gf_point b, int64_t t, int64_t steps) {
    return ct_along(a, b, t, steps);
}

/* ---- Shapes ---- */

static gf_point at(gf_point origin, int64_t north_e7, int64_t east_e7) {
    gf_point p = {(int32_t)(origin.lat + north_e7), ct_wrap_lon(origin.lon + east_e7)};
    return p;
}

/* A star polygon around origin: `points` tips of radius outer_e7, valleys at inner_e7 (concave). */
static void make_star(shape *s, gf_point origin, uint32_t points, int64_t outer_e7, int64_t inner_e7) {
    /* Integer-only directions: a regular polygon by rotating with a fixed-point rotation. */
    int64_t c = 1 << 30, d = 0;
    /* A rotation by x = pi / points in 2^-30 fixed point, from Taylor series (close enough for a test shape). */
    int64_t x = 3373259426LL / points;  /* pi * 2^30 */
    int64_t x2 = x * x >> 30, x3 = x2 * x >> 30, x4 = x2 * x2 >> 30;
    int64_t angle_cos = (1 << 30) - x2 / 2 + x4 / 24;
    int64_t angle_sin = x - x3 / 6;
    for (uint32_t i = 0; i < 2 * points; i++) {
        int64_t r = i % 2 == 0 ? outer_e7 : inner_e7;
        s->v[i] = at(origin, (r * d) >> 30, (r * c) >> 30);
        int64_t nc = (c * angle_cos - d * angle_sin) >> 30, nd = (c * angle_sin + d * angle_cos) >> 30;
        c = nc;
        d = nd;
    }
    s->ring_ends[0] = 2 * points;
    s->rings = 1;
}

static void make_box_ring(shape *s, uint32_t ring, gf_point sw, int64_t north_e7, int64_t east_e7) {
    uint32_t start = ring == 0 ? 0 : s->ring_ends[ring - 1];
    s->v[start + 0] = sw;
    s->v[start + 1] = at(sw, 0, east_e7);
    s->v[start + 2] = at(sw, 0, east_e7 + 1);  /* a nearly collinear vertex */
    s->v[start + 3] = at(sw, north_e7, east_e7);
    s->v[start + 4] = at(sw, north_e7, east_e7 / 2);  /* collinear on the north edge */
    s->v[start + 5] = at(sw, north_e7, 0);
    s->ring_ends[ring] = start + 6;
    s->rings = ring + 1;
}

static void make_wiggle(shape *s, gf_point origin, uint32_t n, int64_t radius_e7, ct_rng *rng) {
    make_star(s, origin, n / 2, radius_e7, radius_e7 - radius_e7 / 40);
    for (uint32_t i = 0; i < n; i++) {
        int64_t north = ct_range(rng, -200, 200);  /* one draw per statement: argument order is unspecified */
        int64_t east = ct_range(rng, -200, 200);
        s->v[i] = at(s->v[i], north, east);
    }
}

/* ---- Checks ---- */

static unsigned long compared, inside_count, near_count;
static int64_t worst_error_mm;

/* The core's answer for shape k at p with margin 0 and with `margin`, against brute force. */
static void check_point(gf_table *table, const shape *s, gf_point p, uint32_t margin_mm) {
    int64_t boundary = brute_boundary_distance(s, p);
    int inside;
    int64_t signed_mm;
    if (s->half_width_mm == 0) {
        inside = brute_inside(s, p);
        if (inside < 0) return;  /* on an edge: the core's tie-break decides (consistency is checked elsewhere) */
        signed_mm = inside ? -boundary : boundary;
    } else {
        signed_mm = boundary - (int64_t)s->half_width_mm;
        if (signed_mm > -25 && signed_mm < 25) return;  /* within the band of a corridor's boundary */
        inside = signed_mm < 0;
    }
    gf_hit hits[HIT_BUFFER];
    size_t count = 0;
    CT_STATUS(gf_query(table, p, margin_mm, hits, HIT_BUFFER, &count), GF_OK, "gf_query");
    const gf_hit *hit = NULL;
    for (size_t i = 0; i < count && i < HIT_BUFFER; i++)
        if (hits[i].handle == s->handle) hit = &hits[i];
    compared++;
    inside_count += (unsigned long)inside;
    int expect_hit = signed_mm <= (int64_t)margin_mm;
    if (signed_mm > (int64_t)margin_mm - 25 && signed_mm < (int64_t)margin_mm + 25) return;  /* the margin's band */
    if (!CT_CHECK((hit != NULL) == expect_hit, "%s at (%d, %d) margin %u: core %s, brute force signed %lld mm",
                  s->half_width_mm ? "corridor" : "polygon", p.lat, p.lon, (unsigned)margin_mm,
                  hit ? "hit" : "no hit", (long long)signed_mm))
        return;
    if (hit == NULL) return;
    ct_digest(hit->distance_mm);
    /* The distance: exact within the margin and within a metre of the boundary (the cells of these shapes are
     * larger); deeper inside exact or a lower bound on the depth. */
    int64_t error = (int64_t)hit->distance_mm - signed_mm;
    if (signed_mm >= -(int64_t)margin_mm - 1000) {
        if (error < 0) error = -error;
        if (error > worst_error_mm) worst_error_mm = error;
        near_count++;
        CT_CHECK(error <= 20 + signed_mm / 10000000 + (signed_mm < 0 ? -signed_mm : signed_mm) / 10000000,
                 "%s at (%d, %d): distance %d mm, brute force %lld mm", s->half_width_mm ? "corridor" : "polygon",
                 p.lat, p.lon, hit->distance_mm, (long long)signed_mm);
    } else {
        CT_CHECK(hit->distance_mm < 0 && hit->distance_mm >= signed_mm - 20,
                 "polygon deep inside at (%d, %d): distance %d mm must lie in [%lld, 0)", p.lat, p.lon,
                 hit->distance_mm, (long long)signed_mm - 20);
    }
}

/* Points for a shape: random in its box (and around it), and on both sides of edges and vertices. */
static void check_shape(gf_table *table, const shape *s, ct_rng *rng, int points) {
    int32_t lat_lo = INT32_MAX, lat_hi = INT32_MIN, lon_lo = INT32_MAX, lon_hi = INT32_MIN;
    uint32_t n = s->ring_ends[s->rings - 1];
    for (uint32_t i = 0; i < n; i++) {
        if (s->v[i].lat < lat_lo) lat_lo = s->v[i].lat;
        if (s->v[i].lat > lat_hi) lat_hi = s->v[i].lat;
        if (s->v[i].lon < lon_lo) lon_lo = s->v[i].lon;
        if (s->v[i].lon > lon_hi) lon_hi = s->v[i].lon;
    }
    int64_t pad = (lat_hi - lat_lo) / 8 + 2000 + (int64_t)s->half_width_mm / 10;
    for (int k = 0; k < points; k++) {
        gf_point p;
        uint32_t margin = k % 5 == 0 ? (uint32_t)ct_range(rng, 1, 300000) : 0;
        switch (k % 3) {
        case 0:
            p.lat = (int32_t)ct_range(rng, lat_lo - pad, lat_hi + pad);
            p.lon = (int32_t)ct_range(rng, lon_lo - pad, lon_hi + pad);
            break;
        case 1: {  /* near an edge's interior */
            uint32_t i = (uint32_t)ct_range(rng, 0, n - 2);
            gf_point a = s->v[i], b = s->v[i + 1];
            p = along(a, b, ct_range(rng, 0, 1000), 1000);
            int64_t north = ct_range(rng, -30, 30), east = ct_range(rng, -30, 30);
            p = at(p, north, east);
            break;
        }
        default: {  /* near a vertex */
            gf_point v = s->v[ct_range(rng, 0, n - 1)];
            int64_t r = k % 2 ? 3 : 3000;
            int64_t north = ct_range(rng, -r, r), east = ct_range(rng, -r, r);
            p = at(v, north, east);
            break;
        }
        }
        check_point(table, s, p, margin);
    }
}

/* On an edge, the core's tie-break must agree with itself: the tracked and untracked queries, and a second table
 * holding the same polygon (whose grid differs), return the same side. */
static void check_on_edges(gf_table *table, const shape *s, ct_rng *rng) {
    gf_table *other = NULL;
    CT_STATUS(gf_table_create(4, &other), GF_OK, "gf_table_create");
    gf_handle h;
    CT_STATUS(gf_polygon_add(other, s->v, s->ring_ends, s->rings, &h), GF_OK, "gf_polygon_add");
    gf_cursor cursor;
    gf_cursor_reset(&cursor);
    uint32_t n = s->ring_ends[0];
    for (int k = 0; k < 200; k++) {
        uint32_t i = (uint32_t)ct_range(rng, 0, n - 1);
        gf_point p = s->v[i];  /* vertices, and exact points of horizontal and vertical edges */
        gf_hit a[HIT_BUFFER], b[HIT_BUFFER], c[HIT_BUFFER];
        size_t na = 0, nb = 0, nc = 0;
        gf_query(table, p, 0, a, HIT_BUFFER, &na);
        gf_query_tracked(table, &cursor, p, 0, b, HIT_BUFFER, &nb);
        gf_query(other, p, 0, c, HIT_BUFFER, &nc);
        int in_a = 0, in_c = nc > 0;
        for (size_t j = 0; j < na && j < HIT_BUFFER; j++) in_a |= a[j].handle == s->handle;
        CT_CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0, "tracked differs on a vertex");
        CT_CHECK(in_a == in_c, "vertex (%d, %d): one table says %d, another %d", p.lat, p.lon, in_a, in_c);
        /* A polygon's vertex is on its boundary, at distance 0: a hit at every margin, never only at margin 0 (the
         * measure's few mm of rounding there once dropped it at margins below them). */
        if (s->half_width_mm != 0) continue;
        static const uint32_t margins[] = {1, 2, 3, 5, 8, 13, 21, 1000};
        for (size_t m = 0; m < sizeof margins / sizeof *margins; m++) {
            gf_query(other, p, margins[m], c, HIT_BUFFER, &nc);
            CT_CHECK(nc == 1 && c[0].distance_mm == 0, "vertex (%d, %d) at margin %u mm: %zu hits, distance %d",
                     p.lat, p.lon, margins[m], nc, nc ? c[0].distance_mm : 0);
        }
    }
    gf_table_destroy(other);
}

/* Regression (found by fuzz-core, 2026-12-01): a fix in the middle of an edge along a parallel at -81.6 deg measured
 * 4 mm from it, so gf_query found it at margin 0 (the exact boundary test) but not at margins 1 ... 3 mm. */
static void check_on_edge_at_small_margins(void) {
    static const int32_t lons[] = {-1773784064, -1773784053, -1773784064, -1773784072, -1773784064, -1773784064,
                                   -1773784064, -1773784064, -1773784064, -1773784064, -1773784064, -1773784064,
                                   -1773784057, -1773784064};
    gf_point v[14];
    for (int i = 0; i < 14; i++) v[i] = (gf_point){-816113920, lons[i]};
    const uint32_t ends[] = {11, 14};
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(2, &table), GF_OK, "gf_table_create");
    gf_handle h;
    CT_STATUS(gf_polygon_add(table, v, ends, 2, &h), GF_OK, "gf_polygon_add of a ring set along a parallel");
    gf_point fix = {-816113920, -1773784054};
    for (uint32_t margin = 0; margin <= 40; margin++) {
        gf_hit hit = {0, 0};
        size_t count = 0;
        gf_query(table, fix, margin, &hit, 1, &count);
        CT_CHECK(count == 1 && hit.distance_mm == 0, "on an edge at -81.6 deg, margin %u mm: %zu hits, distance %d",
                 margin, count, hit.distance_mm);
    }
    gf_table_destroy(table);
}

/* Ties: polygons on a lattice of K = 1000 e7 (11 m), queried at every lattice point around them, so that the fix's
 * vertical leg runs through vertices and along vertical edges, and fixes sit on vertices and edges. A fix on the
 * boundary is a hit at distance 0 (|d| <= the band); every other lattice point is at least 9.8 cm from every edge
 * (|cross| >= K^2, edge length <= 113 K), so its side must be brute force's, with no band. */
static unsigned long tie_points, tie_on_boundary;

static void check_ties(ct_rng *rng) {
    static shape lattice;
    const int32_t k = 1000;
    for (int round = 0; round < 60; round++) {
        uint32_t n = (uint32_t)ct_range(rng, 3, 12);
        for (uint32_t i = 0; i < n; i++) {
            lattice.v[i].lat = (int32_t)ct_range(rng, -40, 40) * k;
            lattice.v[i].lon = (int32_t)ct_range(rng, -40, 40) * k;
        }
        lattice.ring_ends[0] = n;
        lattice.rings = 1;
        gf_table *table = NULL;
        CT_STATUS(gf_table_create(2, &table), GF_OK, "gf_table_create");
        gf_handle h;
        gf_status status = gf_polygon_add(table, lattice.v, lattice.ring_ends, 1, &h);
        if (status == GF_ERR_SHAPE) {  /* every vertex the same: nothing to test */
            gf_table_destroy(table);
            continue;
        }
        CT_STATUS(status, GF_OK, "gf_polygon_add of a lattice polygon");
        for (int32_t lat = -44; lat <= 44; lat++)
            for (int32_t lon = -44; lon <= 44; lon++) {
                gf_point p = {lat * k, lon * k};
                int want = brute_inside(&lattice, p);
                gf_hit hit = {0, 0};
                size_t count = 0;
                gf_query(table, p, 0, &hit, 1, &count);
                tie_points++;
                if (want < 0) {
                    tie_on_boundary++;
                    CT_CHECK(count == 1 && hit.distance_mm >= -20 && hit.distance_mm <= 20,
                             "lattice polygon %d: (%d, %d) on the boundary: %zu hits, distance %d", round, p.lat,
                             p.lon, count, hit.distance_mm);
                } else {
                    CT_CHECK((int)count == want && (count == 0 || hit.distance_mm < -90),
                             "lattice polygon %d: (%d, %d) %s: core %zu hits, distance %d", round, p.lat, p.lon,
                             want ? "inside" : "outside", count, hit.distance_mm);
                }
            }
        gf_table_destroy(table);
    }
}

void test_shapes(void) {
    ct_rng rng = ct_rng_seeded(0x7368617065ULL);  /* "shape" */
    check_on_edge_at_small_margins();
    static shape shapes[8];
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(1000, &table), GF_OK, "gf_table_create");

    gf_point brisbane = {-274679357, 1530281038};
    make_star(&shapes[0], brisbane, 25, 90000, 35000);                             /* concave, ~1 km */
    make_box_ring(&shapes[1], 0, at(brisbane, 200000, 0), 200000, 300000);         /* box with two holes */
    make_box_ring(&shapes[1], 1, at(brisbane, 230000, 30000), 50000, 50000);
    make_box_ring(&shapes[1], 2, at(brisbane, 300000, 150000), 60000, 100000);
    make_box_ring(&shapes[2], 0, at(brisbane, -200000, 0), 180, 200000);           /* sliver: 2 m by 2 km */
    make_wiggle(&shapes[3], at(brisbane, 0, 600000), 20000, 900000, &rng);         /* 20,000 vertices, ~20 km */
    make_star(&shapes[4], (gf_point){799000000, 200000000}, 7, 400000, 150000);    /* near 80 deg */
    make_star(&shapes[5], (gf_point){-150000000, 1799800000}, 9, 100000, 40000);   /* just west of +-180 */
    /* Corridors: a zig-zag with sharp turns (W 25 m) and a U-turn (W 10 m). */
    shape *zig = &shapes[6];
    for (uint32_t i = 0; i < 12; i++) zig->v[i] = at(brisbane, -400000 + (int64_t)(i % 2) * 15000, (int64_t)i * 8000);
    zig->ring_ends[0] = 12;
    zig->rings = 1;
    zig->half_width_mm = 25000;
    shape *uturn = &shapes[7];
    uturn->v[0] = at(brisbane, -500000, 0);
    uturn->v[1] = at(brisbane, -500000, 50000);
    uturn->v[2] = at(brisbane, -499700, 50000);
    uturn->v[3] = at(brisbane, -499700, 0);
    uturn->ring_ends[0] = 4;
    uturn->rings = 1;
    uturn->half_width_mm = 10000;

    for (int k = 0; k < 8; k++) {
        shape *s = &shapes[k];
        gf_status status = s->half_width_mm == 0
            ? gf_polygon_add(table, s->v, s->ring_ends, s->rings, &s->handle)
            : gf_corridor_add(table, s->v, s->ring_ends[0], s->half_width_mm, &s->handle);
        CT_STATUS(status, GF_OK, "adding a shape");
    }
    /* Circles in the same table, some overlapping the shapes. */
    for (int k = 0; k < 200; k++) {
        gf_handle h;
        gf_point centre = ct_random_fix_near(&rng, brisbane, 1500000);
        uint32_t radius_mm = ct_random_radius(&rng) % 200000 + 1000;
        CT_STATUS(gf_fence_add(table, centre, radius_mm, &h), GF_OK, "gf_fence_add");
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "gf_table_verify with shapes");

    for (int k = 0; k < 8; k++) check_shape(table, &shapes[k], &rng, k == 3 ? 300 : 600);
    check_on_edges(table, &shapes[1], &rng);
    check_on_edges(table, &shapes[0], &rng);
    check_ties(&rng);

    /* Kinds and errors. */
    gf_point centre;
    CT_STATUS(gf_fence_get(table, shapes[0].handle, &centre, NULL), GF_ERR_KIND, "gf_fence_get of a polygon");
    CT_STATUS(gf_fence_move(table, shapes[0].handle, brisbane, 1000), GF_ERR_KIND, "gf_fence_move of a polygon");
    gf_handle h;
    uint32_t two = 2, bad_ends[2] = {3, 2};
    CT_STATUS(gf_polygon_add(table, shapes[0].v, &two, 1, &h), GF_ERR_SHAPE, "a ring of 2 vertices");
    CT_STATUS(gf_polygon_add(table, shapes[0].v, bad_ends, 2, &h), GF_ERR_SHAPE, "ring ends not increasing");
    CT_STATUS(gf_polygon_add(table, shapes[0].v, bad_ends, 0, &h), GF_ERR_SHAPE, "no ring");
    gf_point across[3] = {{0, 1799000000}, {100000, -1799000000}, {-100000, -1799000000}};
    uint32_t three = 3;
    CT_STATUS(gf_polygon_add(table, across, &three, 1, &h), GF_ERR_SHAPE, "a polygon across +-180");
    gf_point flat[3] = {{0, 0}, {0, 0}, {0, 0}};
    CT_STATUS(gf_polygon_add(table, flat, &three, 1, &h), GF_ERR_SHAPE, "a polygon of one point");
    gf_point north[3] = {{860000000, 0}, {850000000, 1}, {850000000, 2}};
    CT_STATUS(gf_polygon_add(table, north, &three, 1, &h), GF_ERR_LATITUDE, "a vertex beyond 85 deg");
    CT_STATUS(gf_corridor_add(table, shapes[6].v, 1, 1000, &h), GF_ERR_SHAPE, "a corridor of one vertex");
    CT_STATUS(gf_corridor_add(table, shapes[6].v, 3, 0, &h), GF_ERR_RADIUS, "a corridor of half-width 0");
    CT_STATUS(gf_polygon_add(NULL, shapes[0].v, &three, 1, &h), GF_ERR_NULL, "NULL table");

    /* Removing shapes frees them; the table stays consistent and the rest answer as before. */
    CT_STATUS(gf_fence_remove(table, shapes[3].handle), GF_OK, "gf_fence_remove of a polygon");
    CT_STATUS(gf_fence_remove(table, shapes[6].handle), GF_OK, "gf_fence_remove of a corridor");
    CT_STATUS(gf_fence_remove(table, shapes[6].handle), GF_ERR_HANDLE, "removing it twice");
    CT_STATUS(gf_table_verify(table), GF_OK, "gf_table_verify after removals");
    check_shape(table, &shapes[0], &rng, 200);

    printf("shapes: %lu points against brute force (%lu inside; %lu distances checked near the boundary, worst error "
           "%lld mm); %lu lattice points around lattice polygons (%lu on their boundary)\n", compared, inside_count,
           near_count, (long long)worst_error_mm, tie_points, tie_on_boundary);
    gf_table_destroy(table);
}
