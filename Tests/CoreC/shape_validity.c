/*
 * shape_validity.c -- gf_polygon_check against hand-made invalid shapes and an O(n^2) brute force over random ring
 * sets, and the edge grid's bounds on adversarial shapes (a fan of edges meeting at one point, many identical holes,
 * long parallel edges): each is built within its budget and refused, or accepted with at most
 * GF_SHAPE_CELL_EDGES_MAX edges per cell. The worst grids measured are printed.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points around Brisbane in units of 1e-5 degree (about a metre). */
static gf_point at(int32_t lat_m, int32_t lon_m) {
    gf_point p = {-274679357 + lat_m * 100, 1530281038 + lon_m * 100};
    return p;
}

/* ---- Brute force: none of the core's code ---- */

static int64_t cross(gf_point a, gf_point b, gf_point c) {
    return ((int64_t)b.lon - a.lon) * ((int64_t)c.lat - a.lat) - ((int64_t)b.lat - a.lat) * ((int64_t)c.lon - a.lon);
}

static int sign(int64_t v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

static int on_segment(gf_point a, gf_point b, gf_point p) {
    if (cross(a, b, p) != 0) return 0;
    return (p.lon >= a.lon || p.lon >= b.lon) && (p.lon <= a.lon || p.lon <= b.lon)
        && (p.lat >= a.lat || p.lat >= b.lat) && (p.lat <= a.lat || p.lat <= b.lat);
}

static int segments_meet(gf_point a, gf_point b, gf_point c, gf_point d) {
    int d1 = sign(cross(c, d, a)), d2 = sign(cross(c, d, b)), d3 = sign(cross(a, b, c)), d4 = sign(cross(a, b, d));
    if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
    return on_segment(c, d, a) || on_segment(c, d, b) || on_segment(a, b, c) || on_segment(a, b, d);
}

/* The rings' edges with repeated vertices dropped: edge k of ring r from pts[k] to pts[k + 1 (cyclic)]. */
typedef struct brute_ring {
    gf_point p[16];
    uint32_t n;
} brute_ring;

static void brute_rings(const gf_point *v, const uint32_t *ends, uint32_t rings, brute_ring *out) {
    uint32_t start = 0;
    for (uint32_t r = 0; r < rings; r++) {
        out[r].n = 0;
        for (uint32_t i = start; i < ends[r]; i++)
            if (out[r].n == 0 || v[i].lat != out[r].p[out[r].n - 1].lat || v[i].lon != out[r].p[out[r].n - 1].lon)
                out[r].p[out[r].n++] = v[i];
        while (out[r].n > 1 && out[r].p[0].lat == out[r].p[out[r].n - 1].lat
               && out[r].p[0].lon == out[r].p[out[r].n - 1].lon)
            out[r].n--;
        start = ends[r];
    }
}

static int brute_zero_area(const brute_ring *r) {
    int64_t area = 0;
    for (uint32_t i = 0; i < r->n; i++) area += cross(r->p[0], r->p[i], r->p[(i + 1) % r->n]);
    return area == 0;
}

/* Whether point p (scaled by `scale` about the origin o) lies inside ring r scaled alike: even-odd on int64. */
static int brute_in_scaled(const brute_ring *r, gf_point o, int64_t scale, int64_t px, int64_t py) {
    int inside = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        gf_point a = r->p[i], b = r->p[(i + 1) % r->n];
        int64_t ax = ((int64_t)a.lon - o.lon) * scale, ay = ((int64_t)a.lat - o.lat) * scale;
        int64_t bx = ((int64_t)b.lon - o.lon) * scale, by = ((int64_t)b.lat - o.lat) * scale;
        if ((ay > py) != (by > py)) {
            int64_t c = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
            if ((c > 0) == (by > ay)) inside ^= 1;
        }
    }
    return inside;
}

/* Where two rings touch at p: whether b crosses a there, judged on two points just off p along b's boundary
 * (p scaled by 1000 plus b's directions: on the lattice no edge of a passes that near p unless through it).
 * Returns -1 when b leaves along one of a's edges (they overlap: a conflict found elsewhere). */
static int brute_cross_at(const brute_ring *a, const brute_ring *b, gf_point p, gf_point o) {
    gf_point arm[2];
    uint32_t found = 0;
    for (uint32_t j = 0; j < b->n && found == 0; j++) {
        gf_point s = b->p[j], t = b->p[(j + 1) % b->n];
        if (s.lat == p.lat && s.lon == p.lon) {
            arm[0] = b->p[(j + b->n - 1) % b->n], arm[1] = t, found = 1;
        } else if (on_segment(s, t, p) && !(t.lat == p.lat && t.lon == p.lon)) {
            arm[0] = s, arm[1] = t, found = 1;
        }
    }
    int side[2];
    for (int k = 0; k < 2; k++) {
        int64_t px = ((int64_t)p.lon - o.lon) * 1000 + (arm[k].lon - p.lon) / 100;
        int64_t py = ((int64_t)p.lat - o.lat) * 1000 + (arm[k].lat - p.lat) / 100;
        for (uint32_t i = 0; i < a->n; i++) {  /* on an edge of a: b runs along it */
            gf_point u = a->p[i], w = a->p[(i + 1) % a->n];
            int64_t ux = ((int64_t)u.lon - o.lon) * 1000, uy = ((int64_t)u.lat - o.lat) * 1000;
            int64_t wx = ((int64_t)w.lon - o.lon) * 1000, wy = ((int64_t)w.lat - o.lat) * 1000;
            if ((wx - ux) * (py - uy) - (wy - uy) * (px - ux) == 0 && (px - ux) * (px - wx) <= 0 && (py - uy) * (py - wy) <= 0)
                return -1;
        }
        side[k] = brute_in_scaled(a, o, 1000, px, py);
    }
    return side[0] != side[1];
}

/* The brute force's verdict on a ring set: fault (GF_SHAPE_FAULT_NONE, ZERO_AREA or CROSSING), and parents when
 * valid; -1 when it cannot judge (rings touching off the lattice). `lattice`: every coordinate is o + 100 * k. */
static int brute_check(const gf_point *v, const uint32_t *ends, uint32_t rings, int lattice, uint32_t *parents) {
    brute_ring rs[8];
    brute_rings(v, ends, rings, rs);
    gf_point o = at(0, 0);
    for (uint32_t r = 0; r < rings; r++)
        if (rs[r].n < 3 || brute_zero_area(&rs[r])) return GF_SHAPE_FAULT_ZERO_AREA;
    int unsure = 0;
    for (uint32_t r1 = 0; r1 < rings; r1++)
        for (uint32_t i = 0; i < rs[r1].n; i++)
            for (uint32_t r2 = r1; r2 < rings; r2++)
                for (uint32_t j = r1 == r2 ? i + 1 : 0; j < rs[r2].n; j++) {
                    const brute_ring *a = &rs[r1], *b = &rs[r2];
                    gf_point p = a->p[i], q = a->p[(i + 1) % a->n], s = b->p[j], t = b->p[(j + 1) % b->n];
                    if (r1 == r2) {
                        uint32_t n = a->n;
                        if ((i + 1) % n == j || (j + 1) % n == i) {  /* consecutive: only a fold back is wrong */
                            gf_point x = (i + 1) % n == j ? p : s, m = (i + 1) % n == j ? q : t;
                            gf_point y = (i + 1) % n == j ? t : q;
                            if (cross(x, m, y) == 0 && ((int64_t)x.lon - m.lon) * ((int64_t)y.lon - m.lon)
                                + ((int64_t)x.lat - m.lat) * ((int64_t)y.lat - m.lat) > 0)
                                return GF_SHAPE_FAULT_CROSSING;
                        } else if (segments_meet(p, q, s, t)) {
                            return GF_SHAPE_FAULT_CROSSING;
                        }
                        continue;
                    }
                    if (!segments_meet(p, q, s, t)) continue;
                    int d1 = sign(cross(s, t, p)), d2 = sign(cross(s, t, q)), d3 = sign(cross(p, q, s)),
                        d4 = sign(cross(p, q, t));
                    if (d1 * d2 < 0 && d3 * d4 < 0) return GF_SHAPE_FAULT_CROSSING;
                    if (d1 == 0 && d2 == 0) {  /* on one line: more than a point in common? */
                        int64_t lo1 = p.lon != q.lon ? (p.lon < q.lon ? p.lon : q.lon) : (p.lat < q.lat ? p.lat : q.lat);
                        int64_t hi1 = p.lon != q.lon ? (p.lon < q.lon ? q.lon : p.lon) : (p.lat < q.lat ? q.lat : p.lat);
                        int64_t lo2 = p.lon != q.lon ? (s.lon < t.lon ? s.lon : t.lon) : (s.lat < t.lat ? s.lat : t.lat);
                        int64_t hi2 = p.lon != q.lon ? (s.lon < t.lon ? t.lon : s.lon) : (s.lat < t.lat ? t.lat : s.lat);
                        if ((lo1 > lo2 ? lo1 : lo2) < (hi1 < hi2 ? hi1 : hi2)) return GF_SHAPE_FAULT_CROSSING;
                    }
                    /* A touch at one point: an end of one edge on the other. */
                    gf_point touch = on_segment(s, t, p) ? p : on_segment(s, t, q) ? q : on_segment(p, q, s) ? s : t;
                    if (!lattice) {
                        unsure = 1;
                        continue;
                    }
                    int crossing = brute_cross_at(a, b, touch, o);
                    if (crossing != 0) return GF_SHAPE_FAULT_CROSSING;
                }
    if (unsure) return -1;
    /* Rings that do not cross: containment by a vertex off the other ring (or an edge's middle), and the innermost
     * container is the one with the most containers. */
    uint32_t depth[8];
    int in[8][8];
    for (uint32_t r = 0; r < rings; r++) {
        depth[r] = 0;
        for (uint32_t c = 0; c < rings; c++) {
            in[r][c] = 0;
            if (c == r) continue;
            int decided = 0;
            for (uint32_t i = 0; i < rs[r].n && !decided; i++) {
                /* The vertex, then the edge's middle (coordinates doubled). */
                for (int half = 0; half < 2 && !decided; half++) {
                    gf_point a = rs[r].p[i], b = rs[r].p[(i + 1) % rs[r].n];
                    int64_t px = ((int64_t)a.lon - o.lon) * 2 + (half ? (int64_t)b.lon - a.lon : 0);
                    int64_t py = ((int64_t)a.lat - o.lat) * 2 + (half ? (int64_t)b.lat - a.lat : 0);
                    int on = 0;
                    for (uint32_t k = 0; k < rs[c].n; k++) {
                        gf_point u = rs[c].p[k], w = rs[c].p[(k + 1) % rs[c].n];
                        int64_t ux = ((int64_t)u.lon - o.lon) * 2, uy = ((int64_t)u.lat - o.lat) * 2;
                        int64_t wx = ((int64_t)w.lon - o.lon) * 2, wy = ((int64_t)w.lat - o.lat) * 2;
                        if ((wx - ux) * (py - uy) - (wy - uy) * (px - ux) == 0 && (px - ux) * (px - wx) <= 0
                            && (py - uy) * (py - wy) <= 0)
                            on = 1;
                    }
                    if (on) continue;
                    in[r][c] = brute_in_scaled(&rs[c], o, 2, px, py);
                    decided = 1;
                }
            }
            if (!decided) return -1;
            depth[r] += (uint32_t)in[r][c];
        }
    }
    for (uint32_t r = 0; r < rings; r++) {
        parents[r] = GF_RING_NONE;
        for (uint32_t c = 0; c < rings; c++)
            if (in[r][c] && depth[c] + 1 == depth[r]) parents[r] = c;
    }
    return GF_SHAPE_FAULT_NONE;
}

/* ---- Hand-made shapes ---- */

/* gf_polygon_check of the rings; checks the fault (and rings, when it names them). */
static void expect(const char *what, const gf_point *v, const uint32_t *ends, uint32_t rings, gf_shape_fault fault,
                   uint32_t ring, uint32_t other) {
    uint32_t parents[8];
    gf_shape_problem problem;
    gf_status status = gf_polygon_check(v, ends, rings, parents, &problem);
    CT_STATUS(status, fault == GF_SHAPE_FAULT_NONE ? GF_OK : GF_ERR_SHAPE, what);
    CT_CHECK(problem.fault == fault, "%s: fault %d, expected %d", what, (int)problem.fault, (int)fault);
    if (fault == GF_SHAPE_FAULT_ZERO_AREA) CT_CHECK(problem.ring == ring, "%s: ring %u, expected %u", what, problem.ring, ring);
    if (fault == GF_SHAPE_FAULT_CROSSING)
        CT_CHECK(problem.ring == ring && problem.other_ring == other, "%s: rings %u and %u, expected %u and %u", what,
                 problem.ring, problem.other_ring, ring, other);
    ct_digest(problem.fault);
}

static void test_hand_made(void) {
    /* Two overlapping squares as parts of one MultiPolygon. */
    gf_point overlap[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(50, 50), at(50, 150), at(150, 150),
                          at(150, 50)};
    uint32_t two_squares[] = {4, 8};
    expect("overlapping parts", overlap, two_squares, 2, GF_SHAPE_FAULT_CROSSING, 0, 1);
    /* A part inside another (no edges meet): valid rings, but the inner one's parent is the outer one, which the
     * caller (knowing both are outer rings) refuses. */
    gf_point nested[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(20, 20), at(20, 40), at(40, 40),
                         at(40, 20)};
    uint32_t parents[8];
    gf_shape_problem problem;
    CT_STATUS(gf_polygon_check(nested, two_squares, 2, parents, &problem), GF_OK, "a square inside a square");
    CT_CHECK(parents[0] == GF_RING_NONE && parents[1] == 0, "nested squares: parents %u %u", parents[0], parents[1]);
    /* A hole a degree (about 100 km) outside its shell: valid rings, no parent for the hole. */
    gf_point far_hole[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(100000, 0), at(100000, 100),
                           at(100100, 100), at(100100, 0)};
    CT_STATUS(gf_polygon_check(far_hole, two_squares, 2, parents, &problem), GF_OK, "a hole outside its shell");
    CT_CHECK(parents[0] == GF_RING_NONE && parents[1] == GF_RING_NONE, "far hole: parents %u %u", parents[0],
             parents[1]);
    /* Zero-area rings: a hole on a line, a shell of one point repeated. */
    gf_point flat_hole[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(10, 10), at(20, 20), at(30, 30)};
    uint32_t shell_and_triangle[] = {4, 7};
    expect("a hole on a line", flat_hole, shell_and_triangle, 2, GF_SHAPE_FAULT_ZERO_AREA, 1, 0);
    gf_point point_ring[] = {at(5, 5), at(5, 5), at(5, 5)};
    uint32_t three = 3;
    expect("a ring of one point", point_ring, &three, 1, GF_SHAPE_FAULT_ZERO_AREA, 0, 0);
    /* A bow tie (a ring crossing itself), a spike folding back along an edge. */
    gf_point bow_tie[] = {at(0, 0), at(100, 100), at(100, 0), at(0, 30)};  /* not symmetric: its area is not 0 */
    uint32_t four = 4;
    expect("a bow tie", bow_tie, &four, 1, GF_SHAPE_FAULT_CROSSING, 0, 0);
    gf_point spike[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 50), at(150, 50), at(100, 50), at(100, 0)};
    uint32_t seven = 7;
    expect("a spike", spike, &seven, 1, GF_SHAPE_FAULT_CROSSING, 0, 0);
    /* A hole touching its shell at one point, two parts touching at a corner: valid (OGC allows it). */
    gf_point touching[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(0, 50), at(50, 70), at(50, 30)};
    CT_STATUS(gf_polygon_check(touching, shell_and_triangle, 2, parents, &problem), GF_OK, "a hole touching its shell");
    CT_CHECK(parents[0] == GF_RING_NONE && parents[1] == 0, "touching hole: parents %u %u", parents[0], parents[1]);
    gf_point corner[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(100, 100), at(100, 200), at(200, 200),
                         at(200, 100)};
    CT_STATUS(gf_polygon_check(corner, two_squares, 2, parents, &problem), GF_OK, "parts touching at a corner");
    CT_CHECK(parents[0] == GF_RING_NONE && parents[1] == GF_RING_NONE, "corner parts: parents %u %u", parents[0],
             parents[1]);
    /* Two rings sharing a vertex and crossing there (no two edges cross): refused. */
    gf_point crossing_at_vertex[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(0, 0), at(100, 100),
                                     at(150, -50)};
    uint32_t square_and_triangle[] = {4, 7};
    expect("rings crossing at shared vertices", crossing_at_vertex, square_and_triangle, 2, GF_SHAPE_FAULT_CROSSING,
           0, 1);
    /* Two parts sharing an edge: refused. */
    gf_point sharing[] = {at(0, 0), at(0, 100), at(100, 100), at(100, 0), at(0, 100), at(0, 200), at(100, 200),
                          at(100, 100)};
    expect("parts sharing an edge", sharing, two_squares, 2, GF_SHAPE_FAULT_CROSSING, 0, 1);
    /* Valid: a shell (clockwise), its hole (counter-clockwise), an island in the hole, and a second part. */
    gf_point valid[] = {at(0, 0), at(100, 0), at(100, 100), at(0, 100), at(10, 10), at(10, 90), at(90, 90),
                        at(90, 10), at(40, 40), at(60, 40), at(60, 60), at(40, 60), at(0, 200), at(0, 300),
                        at(100, 300)};
    uint32_t valid_ends[] = {4, 8, 12, 15};
    CT_STATUS(gf_polygon_check(valid, valid_ends, 4, parents, &problem), GF_OK, "shell, hole, island, second part");
    CT_CHECK(parents[0] == GF_RING_NONE && parents[1] == 0 && parents[2] == 1 && parents[3] == GF_RING_NONE,
             "shell, hole, island, part: parents %u %u %u %u", parents[0], parents[1], parents[2], parents[3]);
    /* Arguments, as gf_polygon_add. */
    CT_STATUS(gf_polygon_check(valid, valid_ends, 0, parents, &problem), GF_ERR_SHAPE, "no ring");
    CT_CHECK(problem.fault == GF_SHAPE_FAULT_ARGUMENTS, "no ring: fault %d", (int)problem.fault);
    CT_STATUS(gf_polygon_check(NULL, valid_ends, 1, parents, &problem), GF_ERR_NULL, "NULL vertices");
}

/* Random ring sets on a small lattice (so that edges often touch, overlap and run collinear) and in a wider square,
 * compared with the brute force. */
static void test_random(unsigned *valid_count, unsigned *count) {
    ct_rng rng = ct_rng_seeded(0x76616C6964ULL);
    for (unsigned trial = 0; trial < 40000; trial++) {
        gf_point v[64];
        uint32_t ends[8], rings = (uint32_t)ct_range(&rng, 1, 4), n = 0;
        int32_t spread = trial % 2 ? 6 : 1000;
        for (uint32_t r = 0; r < rings; r++) {
            /* A ring: a random polygon around a random centre (a convex-ish fan of 3..7 vertices, or any points). */
            uint32_t k = (uint32_t)ct_range(&rng, 3, 7);
            int32_t cy = (int32_t)ct_range(&rng, 0, spread), cx = (int32_t)ct_range(&rng, 0, spread);
            int32_t size = (int32_t)ct_range(&rng, 1, spread);
            for (uint32_t i = 0; i < k; i++) {
                if (trial % 3 == 0) {
                    v[n++] = at((int32_t)ct_range(&rng, 0, spread), (int32_t)ct_range(&rng, 0, spread));
                } else {
                    /* Points on a rough circle in order: mostly simple rings. */
                    static const int32_t unit[8][2] = {{10, 0}, {7, 7}, {0, 10}, {-7, 7}, {-10, 0}, {-7, -7}, {0, -10},
                                                       {7, -7}};
                    uint32_t d = i * 8 / k;
                    v[n++] = at(cy + unit[d][0] * size / 10, cx + unit[d][1] * size / 10);
                }
            }
            ends[r] = n;
        }
        uint32_t want_parents[8], parents[8];
        int want = brute_check(v, ends, rings, spread == 6, want_parents);
        if (want < 0) continue;  /* touching off the lattice: the brute force cannot judge it exactly */
        gf_shape_problem problem;
        gf_status status = gf_polygon_check(v, ends, rings, parents, &problem);
        (*count)++;
        if (!CT_CHECK((int)problem.fault == want && status == (want == GF_SHAPE_FAULT_NONE ? GF_OK : GF_ERR_SHAPE),
                      "random ring set %u (%u rings): fault %d (%s), brute force %d", trial, rings, (int)problem.fault,
                      gf_status_name(status), (int)want))
            continue;
        ct_digest(problem.fault);
        if (want != GF_SHAPE_FAULT_NONE) continue;
        (*valid_count)++;
        for (uint32_t r = 0; r < rings; r++) {
            if (!CT_CHECK(parents[r] == want_parents[r], "random ring set %u: ring %u's parent %u, brute force %u",
                          trial, r, parents[r], want_parents[r])) {
                for (uint32_t i = 0, q = 0; i < ends[rings - 1]; i++) {
                    if (i == ends[q]) q++, printf("\n");
                    printf(" (%d, %d)", (v[i].lat - at(0, 0).lat) / 100, (v[i].lon - at(0, 0).lon) / 100);
                }
                printf("\n");
            }
            ct_digest(parents[r]);
        }
    }
}

/* ---- Adversarial shapes ---- */

/* Adds a polygon and reports its grid, or the fault gf_polygon_check names when refused. */
static void adversarial(const char *what, const gf_point *v, const uint32_t *ends, uint32_t rings, int accepted,
                        gf_shape_fault fault) {
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(4, &table), GF_OK, "gf_table_create");
    gf_handle h;
    gf_status status = gf_polygon_add(table, v, ends, rings, &h);
    CT_STATUS(status, accepted ? GF_OK : GF_ERR_SHAPE, what);
    gf_shape_problem problem;
    gf_status checked = gf_polygon_check(v, ends, rings, NULL, &problem);
    CT_CHECK(problem.fault == fault, "%s: gf_polygon_check fault %d (%s), expected %d", what, (int)problem.fault,
             gf_status_name(checked), (int)fault);
    if (status == GF_OK) {
        gf_shape_grid grid;
        CT_STATUS(gf_shape_grid_of(table, h, &grid), GF_OK, "gf_shape_grid_of");
        CT_CHECK(grid.densest <= GF_SHAPE_CELL_EDGES_MAX && grid.entries <= 8 * (uint64_t)grid.edges + 64,
                 "%s: grid of %u edges: %u entries, densest cell %u", what, grid.edges, grid.entries, grid.densest);
        /* A query in the densest region: answered, and the same as gf_fence_distance's. */
        size_t count = 0;
        gf_hit hit;
        CT_STATUS(gf_query(table, v[0], 1000, &hit, 1, &count), GF_OK, "gf_query at a vertex");
        printf("adversarial shapes: %s: accepted, %u edges, %u cells, %u entries (%.2f per edge), densest cell %u "
               "edges, %zu bytes\n", what, grid.edges, grid.cells, grid.entries, (double)grid.entries / grid.edges,
               grid.densest, gf_table_memory(table));
        ct_digest(grid.entries);
        ct_digest(grid.densest);
    } else {
        printf("adversarial shapes: %s: refused (fault %d) near (%d, %d)\n", what, (int)problem.fault, problem.at.lat,
               problem.at.lon);
    }
    gf_table_destroy(table);
}

static void test_adversarial(void) {
    enum { N = 100000 };
    gf_point *v = malloc(sizeof *v * (N + 8));
    uint32_t *ends = malloc(sizeof *ends * (N / 4 + 2));
    if (!CT_CHECK(v != NULL && ends != NULL, "memory for the adversarial shapes")) return;

    /* A star: a fan of N / 3 triangles around one centre (every edge from or to it), all turning the same way. */
    for (uint32_t i = 0; i < N; i++) {
        if (i % 3 == 0) {
            v[i] = at(0, 0);
        } else {
            /* Around a square of side 2 km, in order (integer only). */
            int64_t t = (int64_t)i * 8000 / N;  /* 0 .. 8000 m along the square's perimeter */
            int32_t lat = t < 2000 ? -1000 : t < 4000 ? (int32_t)(t - 3000) : t < 6000 ? 1000 : (int32_t)(7000 - t);
            int32_t lon = t < 2000 ? (int32_t)(t - 1000) : t < 4000 ? 1000 : t < 6000 ? (int32_t)(5000 - t) : -1000;
            v[i] = at(lat, lon);
        }
    }
    uint32_t n = N - N % 3;
    adversarial("star of 99999 vertices", v, &n, 1, 0, GF_SHAPE_FAULT_DENSE);

    /* A shell with 25000 identical square holes. */
    v[0] = at(-1000, -1000), v[1] = at(-1000, 1000), v[2] = at(1000, 1000), v[3] = at(1000, -1000);
    ends[0] = 4;
    uint32_t rings = 1;
    for (uint32_t k = 0; k < N / 4 - 1; k++, rings++) {
        v[4 * rings] = at(0, 0), v[4 * rings + 1] = at(0, 10), v[4 * rings + 2] = at(10, 10), v[4 * rings + 3] = at(10, 0);
        ends[rings] = 4 * rings + 4;
    }
    adversarial("shell with 24999 identical holes", v, ends, rings, 0, GF_SHAPE_FAULT_DENSE);

    /* A comb: a valid polygon whose teeth are 12500 long edges side by side (the full height): no grid within the
     * budget spreads them to GF_SHAPE_CELL_EDGES_MAX a cell, so it is refused rather than slow. */
    uint32_t teeth = N / 8;
    n = 0;
    for (uint32_t k = 0; k < teeth; k++) {
        int32_t x = (int32_t)k * 4;
        v[n++] = at(0, x), v[n++] = at(20000, x), v[n++] = at(20000, x + 2), v[n++] = at(0, x + 2);
    }
    v[n++] = at(-10, (int32_t)teeth * 4), v[n++] = at(-10, 0);
    adversarial("comb of 12500 teeth", v, &n, 1, 0, GF_SHAPE_FAULT_DENSE);

    /* Valid shapes of the same size that are not adversarial: accepted with a small grid. A 400-tooth comb (long
     * edges: more cells along each), and 24999 separate small holes on a lattice. */
    n = 0;
    for (uint32_t k = 0; k < 400; k++) {
        int32_t x = (int32_t)k * 40;
        v[n++] = at(0, x), v[n++] = at(20000, x), v[n++] = at(20000, x + 20), v[n++] = at(0, x + 20);
    }
    v[n++] = at(-10, 400 * 40), v[n++] = at(-10, 0);
    adversarial("comb of 400 teeth", v, &n, 1, 1, GF_SHAPE_FAULT_NONE);
    v[0] = at(-10, -10), v[1] = at(-10, 1600), v[2] = at(1600, 1600), v[3] = at(1600, -10);
    rings = 1;
    for (uint32_t k = 0; k < N / 4 - 1; k++, rings++) {
        int32_t y = (int32_t)(k / 160) * 10, x = (int32_t)(k % 160) * 10;
        v[4 * rings] = at(y, x), v[4 * rings + 1] = at(y, x + 5), v[4 * rings + 2] = at(y + 5, x + 5);
        v[4 * rings + 3] = at(y + 5, x);
        ends[rings] = 4 * rings + 4;
    }
    adversarial("shell with 24999 separate holes", v, ends, rings, 1, GF_SHAPE_FAULT_NONE);
    free(v);
    free(ends);
}

void test_shape_validity(void) {
    test_hand_made();
    unsigned valid = 0, count = 0;
    test_random(&valid, &count);
    printf("shape validity: %u random ring sets against brute force (%u valid)\n", count, valid);
    test_adversarial();
}
