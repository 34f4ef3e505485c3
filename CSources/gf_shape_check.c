/*
 * gf_shape_check.c -- whether a polygon's rings form a valid ring set, and how they nest (gf_polygon_check).
 *
 * The core decides a polygon by the even-odd rule over all its rings. That is what GeoJSON (RFC 7946) and OGC simple
 * features mean -- a MultiPolygon the union of its parts, a hole taken from its own outer ring only -- exactly when
 * the rings are valid and nest as declared. This file checks the first and computes the nesting, so that a caller
 * knowing the declared structure can compare:
 *   - every ring encloses a non-zero area (its signed area, summed exactly in 128 bits);
 *   - no two edges meet, except consecutive edges of one ring at their shared vertex (and those not along a line);
 *     so rings are simple, disjoint curves. Stricter than OGC, which lets rings touch at single points: with no
 *     shared point, any vertex of a ring tells which rings contain it, and the nesting is a forest;
 *   - the parent of each ring: the innermost ring containing it.
 * Everything runs on the shape's own edge grid (gf_shape.c), whose cells list at most GF_SHAPE_CELL_EDGES_MAX edges:
 *   - two edges that meet share a cell (the cell of their common point), so testing the pairs within each cell
 *     finds every meeting: at most GF_SHAPE_CELL_EDGES_MAX / 2 tests per grid entry, O(V) in all;
 *   - the parent of ring r: from its westernmost vertex v, the first edge of another ring met by the ray west along
 *     the line y = v.lat + eps^2 (the core's symbolic perturbation, so the ray meets no vertex). With disjoint rings,
 *     if that edge's ring R has its inside on the edge's east side, R contains r; else R and r are siblings and r's
 *     parent is R's. R's westernmost vertex lies west of v, so taking rings from west to east finds R's parent first.
 *     The ray's first edge is found by walking the grid row west from v's cell, a column at a time, until the best
 *     edge so far meets the ray east of the column's west side.
 * Exact: orientations of e7 points (differences <= 1.8e9 in longitude, the shape spanning at most 180 deg, and
 * 1.7e9 in latitude: products < 2^62), and 128-bit products where the ray's crossings are compared.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Exact arithmetic ---- */

/* A signed 128-bit integer: hi * 2^64 + lo. */
typedef struct gf__i128 {
    int64_t hi;
    uint64_t lo;
} gf__i128;

static void gf__i128_add(gf__i128 *x, int64_t v) {
    uint64_t lo = x->lo + (uint64_t)v;
    x->hi += (v < 0 ? -1 : 0) + (lo < x->lo ? 1 : 0);
    x->lo = lo;
}

static int gf__i128_sign(gf__i128 x) {
    return x.hi < 0 ? -1 : (x.hi > 0 || x.lo != 0) ? 1 : 0;
}

/* m * d exactly, for d in [0, 2^32). */
static gf__i128 gf__i128_mul(int64_t m, int64_t d) {
    uint64_t mag = m < 0 ? (uint64_t)0 - (uint64_t)m : (uint64_t)m;
    uint64_t p0 = (mag & 0xFFFFFFFFu) * (uint64_t)d, p1 = (mag >> 32) * (uint64_t)d;
    uint64_t lo = p0 + (p1 << 32);
    gf__i128 r = {(int64_t)((p1 >> 32) + (lo < p0 ? 1 : 0)), lo};
    if (m < 0) {  /* two's complement negation */
        r.lo = ~r.lo + 1;
        r.hi = (int64_t)(~(uint64_t)r.hi + (r.lo == 0 ? 1 : 0));
    }
    return r;
}

static int gf__i128_compare(gf__i128 x, gf__i128 y) {
    if (x.hi != y.hi) return x.hi < y.hi ? -1 : 1;
    return x.lo == y.lo ? 0 : x.lo < y.lo ? -1 : 1;
}

/* The sign of the cross product (b - a) x (c - a): > 0 when c lies to the left of a -> b. */
static int gf__orient(gf_point a, gf_point b, gf_point c) {
    int64_t cross = ((int64_t)b.lon - a.lon) * ((int64_t)c.lat - a.lat) - ((int64_t)b.lat - a.lat) * ((int64_t)c.lon - a.lon);
    return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

/* For c on the line through a and b: whether it lies on the segment a-b. */
static int gf__within(gf_point a, gf_point b, gf_point c) {
    return (c.lon >= (a.lon < b.lon ? a.lon : b.lon)) && (c.lon <= (a.lon < b.lon ? b.lon : a.lon))
        && (c.lat >= (a.lat < b.lat ? a.lat : b.lat)) && (c.lat <= (a.lat < b.lat ? b.lat : a.lat));
}

/* Whether the closed segments p1-p2 and q1-q2 share any point. */
static int gf__segments_meet(gf_point p1, gf_point p2, gf_point q1, gf_point q2) {
    int d1 = gf__orient(q1, q2, p1), d2 = gf__orient(q1, q2, p2);
    int d3 = gf__orient(p1, p2, q1), d4 = gf__orient(p1, p2, q2);
    if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
    return (d1 == 0 && gf__within(q1, q2, p1)) || (d2 == 0 && gf__within(q1, q2, p2))
        || (d3 == 0 && gf__within(p1, p2, q1)) || (d4 == 0 && gf__within(p1, p2, q2));
}

/* ---- The check ---- */

typedef struct gf__rings {
    const gf__shape *s;
    uint32_t *ring_of;     /* per vertex of s->vertices: its ring */
    uint32_t *next_edge;   /* per edge: the ring's next edge (zero-length edges skipped) */
    int8_t *orientation;   /* per ring: sign of its area (+1 counter-clockwise in (lon, lat)) */
} gf__rings;

/* Whether edges e and f (e != f) meet where a valid ring set allows none. */
static int gf__edges_conflict(const gf__rings *g, uint32_t e, uint32_t f) {
    const gf_point *v = g->s->vertices;
    if (g->next_edge[f] == e) {
        uint32_t t = e;
        e = f;
        f = t;
    }
    if (g->next_edge[e] == f && g->next_edge[f] != e) {
        /* Consecutive: they share v[e + 1] == v[f]; wrong only when f folds back along e. */
        gf_point p = v[e], q = v[f], r = v[f + 1];
        if (gf__orient(p, q, r) != 0) return 0;
        return ((int64_t)p.lon - q.lon) * ((int64_t)r.lon - q.lon) + ((int64_t)p.lat - q.lat) * ((int64_t)r.lat - q.lat) > 0;
    }
    if (g->next_edge[e] == f) return 1;  /* a ring of two edges: there and back */
    return gf__segments_meet(v[e], v[e + 1], v[f], v[f + 1]);
}

/* A ray's crossing of edge e at latitude y (which e straddles) as m / d, d > 0. */
typedef struct gf__crossing {
    uint32_t edge;
    int64_t m, d, dx;   /* x = m / d; dx: the edge's longitude step per d of latitude (its slope, for ties) */
} gf__crossing;

static gf__crossing gf__crossing_at(const gf__shape *s, uint32_t e, int64_t y) {
    gf_point a = s->vertices[e], b = s->vertices[e + 1];
    if (a.lat > b.lat) {
        gf_point t = a;
        a = b;
        b = t;
    }
    gf__crossing c;
    c.edge = e;
    c.d = (int64_t)b.lat - a.lat;
    c.dx = (int64_t)b.lon - a.lon;
    c.m = (int64_t)a.lon * c.d + (y - a.lat) * c.dx;  /* each term < 3.1e18 */
    return c;
}

/* Which crossing lies further east on the line y + eps^2: the sign of x1 - x2 (ties at y broken by the slopes). */
static int gf__crossing_compare(const gf__crossing *c1, const gf__crossing *c2) {
    int k = gf__i128_compare(gf__i128_mul(c1->m, c2->d), gf__i128_mul(c2->m, c1->d));
    if (k != 0) return k;
    int64_t s1 = c1->dx * c2->d, s2 = c2->dx * c1->d;
    return s1 == s2 ? 0 : s1 < s2 ? -1 : 1;
}

/* The westernmost vertex of each ring (its index in s->vertices), for the sort. */
typedef struct gf__ring_start {
    gf_point at;
    uint32_t ring, vertex;
} gf__ring_start;

static int gf__ring_start_compare(const void *x, const void *y) {
    const gf__ring_start *a = x, *b = y;
    if (a->at.lon != b->at.lon) return a->at.lon < b->at.lon ? -1 : 1;
    if (a->at.lat != b->at.lat) return a->at.lat < b->at.lat ? -1 : 1;
    return a->ring < b->ring ? -1 : a->ring > b->ring ? 1 : 0;
}

/* The first edge of another ring that the ray west from v (line v.lat + eps^2) meets, or UINT32_MAX. */
static uint32_t gf__first_edge_west(const gf__rings *g, uint32_t ring, gf_point v) {
    const gf__shape *s = g->s;
    int64_t y = v.lat;
    uint32_t row = gf__shape_row(s, y);
    gf__crossing best = {UINT32_MAX, 0, 1, 0};
    for (uint32_t col = gf__shape_col(s, v.lon) + 1; col-- > 0;) {
        uint64_t cell = (uint64_t)row * s->gx + col;
        for (uint32_t k = s->cell_start[cell]; k < s->cell_start[cell + 1]; k++) {
            uint32_t e = s->cell_edges[k];
            if (g->ring_of[e] == ring) continue;
            gf_point a = s->vertices[e], b = s->vertices[e + 1];
            if (((int64_t)a.lat > y) == ((int64_t)b.lat > y)) continue;  /* does not straddle the line */
            gf__crossing c = gf__crossing_at(s, e, y);
            /* West of v: x < v.lon (never equal: no other ring passes through v). */
            if (gf__i128_compare(gf__i128_mul(c.m, 1), gf__i128_mul(v.lon, c.d)) >= 0) continue;
            if (best.edge == UINT32_MAX || gf__crossing_compare(&c, &best) > 0) best = c;
        }
        /* Nothing further west can be nearer once the best meets the ray in or east of this column. */
        int64_t west_side = s->x0 + ((int64_t)col << s->shift);
        if (best.edge != UINT32_MAX && best.m >= west_side * best.d) break;
    }
    return best.edge;
}

static gf_status gf__nesting(const gf__rings *g, uint32_t ring_count, uint32_t *parents) {
    const gf__shape *s = g->s;
    gf__ring_start *starts = malloc((size_t)ring_count * sizeof *starts);
    if (starts == NULL) return GF_ERR_NOMEM;
    for (uint32_t r = 0; r < ring_count; r++) starts[r].ring = UINT32_MAX;
    for (uint32_t i = 0; i < s->vertex_count; i++) {
        gf__ring_start *w = &starts[g->ring_of[i]];
        gf_point p = s->vertices[i];
        if (w->ring == UINT32_MAX || p.lon < w->at.lon || (p.lon == w->at.lon && p.lat < w->at.lat)) {
            w->ring = g->ring_of[i];
            w->at = p;
            w->vertex = i;
        }
    }
    qsort(starts, ring_count, sizeof *starts, gf__ring_start_compare);
    for (uint32_t k = 0; k < ring_count; k++) {
        uint32_t r = starts[k].ring, e = gf__first_edge_west(g, r, starts[k].at);
        if (e == UINT32_MAX) {
            parents[r] = GF_RING_NONE;
            continue;
        }
        uint32_t other = g->ring_of[e];
        /* Inside on the east side of e: a counter-clockwise ring going south there, or a clockwise one going north. */
        int south = s->vertices[e + 1].lat < s->vertices[e].lat;
        parents[r] = (g->orientation[other] > 0) == south ? other : parents[other];
    }
    free(starts);
    return GF_OK;
}

gf_status gf_polygon_check(const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count,
                           uint32_t *parents, gf_shape_problem *problem) {
    if (problem == NULL) return GF_ERR_NULL;
    memset(problem, 0, sizeof *problem);
    problem->fault = GF_SHAPE_FAULT_ARGUMENTS;
    if (vertices == NULL || ring_ends == NULL) return GF_ERR_NULL;
    gf_status status = gf__polygon_arguments(vertices, ring_ends, ring_count);
    if (status != GF_OK) return status;
    problem->fault = GF_SHAPE_FAULT_NONE;

    /* Areas first (they need no grid): twice the signed area of each ring, exactly. */
    int8_t *orientation = malloc(ring_count);
    if (orientation == NULL) return GF_ERR_NOMEM;
    uint32_t start = 0;
    for (uint32_t r = 0; r < ring_count; r++) {
        gf__i128 area = {0, 0};
        gf_point o = vertices[start];
        for (uint32_t i = start; i < ring_ends[r]; i++) {
            gf_point p = vertices[i], q = vertices[i + 1 < ring_ends[r] ? i + 1 : start];
            int64_t px = (int64_t)p.lon - o.lon, py = (int64_t)p.lat - o.lat;
            int64_t qx = (int64_t)q.lon - o.lon, qy = (int64_t)q.lat - o.lat;
            /* |p - o| <= 3.6e9 by 1.8e9: products < 6.5e18 each; added one at a time. */
            gf__i128_add(&area, px * qy);
            gf__i128_add(&area, -(qx * py));
        }
        orientation[r] = (int8_t)gf__i128_sign(area);
        if (orientation[r] == 0) {
            free(orientation);
            problem->fault = GF_SHAPE_FAULT_ZERO_AREA;
            problem->ring = r;
            problem->at = o;
            return GF_ERR_SHAPE;
        }
        start = ring_ends[r];
    }

    gf__shape *s = NULL;
    size_t bytes = 0;
    status = gf__shape_build(vertices, ring_ends, ring_count, 0, &s, &bytes, problem);
    if (status != GF_OK) {
        free(orientation);
        return status;
    }

    /* Rings and the next edge of each edge (s->vertices: ring r's vertices, then its first again). */
    gf__rings g = {s, malloc((size_t)s->vertex_count * sizeof(uint32_t)),
                   malloc((size_t)s->vertex_count * sizeof(uint32_t)), orientation};
    if (g.ring_of == NULL || g.next_edge == NULL) {
        status = GF_ERR_NOMEM;
        goto done;
    }
    uint32_t first = 0;
    for (uint32_t r = 0; r < ring_count; r++) {
        uint32_t length = ring_ends[r] - (r == 0 ? 0 : ring_ends[r - 1]), last = first + length;  /* closing vertex */
        uint32_t following = UINT32_MAX;  /* the next edge after i, walking the ring backwards from its end */
        for (uint32_t i = first; i <= last; i++) g.ring_of[i] = r;
        for (uint32_t i = last; i-- > first;)
            if (gf__shape_is_edge(s, i)) {
                if (following == UINT32_MAX) following = i;  /* the ring's last edge: fixed below */
                g.next_edge[i] = following;
                following = i;
            }
        /* following is now the ring's first edge: the last edge's successor. */
        for (uint32_t i = last; i-- > first;)
            if (gf__shape_is_edge(s, i)) {
                g.next_edge[i] = following;
                break;
            }
        first = last + 1;
    }

    /* Every pair of edges within a cell. */
    uint64_t cells = (uint64_t)s->gx * s->gy;
    for (uint64_t c = 0; c < cells; c++)
        for (uint32_t k = s->cell_start[c]; k < s->cell_start[c + 1]; k++)
            for (uint32_t l = k + 1; l < s->cell_start[c + 1]; l++) {
                uint32_t e = s->cell_edges[k], f = s->cell_edges[l];
                if (!gf__edges_conflict(&g, e, f)) continue;
                problem->fault = GF_SHAPE_FAULT_CROSSING;
                problem->ring = g.ring_of[e] < g.ring_of[f] ? g.ring_of[e] : g.ring_of[f];
                problem->other_ring = g.ring_of[e] < g.ring_of[f] ? g.ring_of[f] : g.ring_of[e];
                problem->at = s->vertices[g.ring_of[e] < g.ring_of[f] ? e : f];
                status = GF_ERR_SHAPE;
                goto done;
            }

    if (parents != NULL) status = gf__nesting(&g, ring_count, parents);

done:
    free(g.ring_of);
    free(g.next_edge);
    free(orientation);
    gf__shape_free(s);
    return status;
}
