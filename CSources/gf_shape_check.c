/*
 * gf_shape_check.c -- whether a polygon's rings form a valid ring set, and how they nest (gf_polygon_check).
 *
 * The core decides a polygon by the even-odd rule over all its rings. That is what GeoJSON (RFC 7946) and OGC simple
 * features mean -- a MultiPolygon the union of its parts, a hole taken from its own outer ring only -- exactly when
 * the rings are valid and nest as declared. This file checks the first and computes the nesting, so that a caller
 * knowing the declared structure can compare:
 *   - every ring encloses a non-zero area (its signed area, summed exactly in 128 bits);
 *   - no two edges cross or overlap along a line; a ring meets itself only where consecutive edges share their
 *     vertex; two rings may touch at single points (as OGC allows) but not cross there: at a point where they meet,
 *     the second ring's boundary must leave on one side of the first's. Then rings are non-crossing closed curves
 *     and nest as a forest;
 *   - the parent of each ring: the innermost other ring containing it.
 * Everything runs on the shape's own edge grid (gf_shape.c), whose cells list at most GF_SHAPE_CELL_EDGES_MAX edges:
 *   - two edges that meet share a cell (the cell of a common point), so testing the pairs within each cell finds
 *     every meeting: at most GF_SHAPE_CELL_EDGES_MAX / 2 tests per grid entry, O(V) in all;
 *   - the parent of ring r: from a point p just inside r at its least vertex v (gf__ray), the first edge of another
 *     ring met by the ray west from p. If that edge's ring R has its inside on the edge's east side, R is the
 *     innermost ring containing p, so r's parent; else R is a sibling and r's parent is R's. Every ring such a ray
 *     meets first is placed earlier (by least vertex, see gf__ring_start_compare), so one pass in that order works.
 *     The first edge is found by walking the grid row west from v's cell, a column at a time, until the best edge
 *     so far meets the ray east of the column's west side.
 * Exact: orientations of e7 points (differences <= 1.8e9 in longitude, the shape spanning at most 180 deg, and
 * 1.7e9 in latitude: products < 2^62), 128-bit products where the ray's crossings are compared, and a symbolic
 * perturbation (powers of eps) for the ray's start and line, so that it passes through no vertex.
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

/* ---- The check ---- */

typedef struct gf__rings {
    const gf__shape *s;
    uint32_t *ring_of;     /* per vertex of s->vertices: its ring */
    uint32_t *next_edge;   /* per edge: the ring's next edge (zero-length edges skipped) */
    uint32_t *prev_edge;   /* per edge: the ring's previous edge */
    int8_t *orientation;   /* per ring: sign of its area (+1 counter-clockwise in (lon, lat)) */
} gf__rings;

static int gf__same_point(gf_point a, gf_point b) { return a.lat == b.lat && a.lon == b.lon; }

/* The directions from P of a ring's boundary through P, where P lies on edge g of the ring: to the edge's other end
 * and to the neighbouring edge's far end when P is a vertex, to both ends when P is inside the edge. */
static void gf__arms(const gf__rings *g, uint32_t e, gf_point p, gf_point *arm1, gf_point *arm2) {
    const gf_point *v = g->s->vertices;
    gf_point a, b;
    if (gf__same_point(p, v[e])) a = v[e + 1], b = v[g->prev_edge[e]];
    else if (gf__same_point(p, v[e + 1])) a = v[e], b = v[g->next_edge[e] + 1];
    else a = v[e], b = v[e + 1];
    arm1->lon = a.lon - p.lon, arm1->lat = a.lat - p.lat;  /* |lon| <= 1.8e9, |lat| <= 1.7e9: fit int32 */
    arm2->lon = b.lon - p.lon, arm2->lat = b.lat - p.lat;
}

static int64_t gf__cross_arms(gf_point u, gf_point w) {
    return (int64_t)u.lon * w.lat - (int64_t)u.lat * w.lon;
}

/* Whether direction d lies strictly inside the sector swept counter-clockwise from a1 to a2. */
static int gf__in_sector(gf_point a1, gf_point a2, gf_point d) {
    int64_t c1 = gf__cross_arms(a1, d), c2 = gf__cross_arms(d, a2), c12 = gf__cross_arms(a1, a2);
    if (c12 > 0) return c1 > 0 && c2 > 0;
    if (c12 < 0) return !(c1 <= 0 && c2 <= 0);
    return c1 > 0;  /* a1 and a2 opposite: the half-plane to the left of a1 */
}

/* Whether edges e and f (e != f) meet where a valid ring set allows none: they cross, overlap along a line, or touch
 * where a ring meets itself (other than consecutive edges at their shared vertex) or where two rings cross. Two rings
 * may touch at single points where neither crosses the other (as OGC simple features allow). */
static int gf__edges_conflict(const gf__rings *g, uint32_t e, uint32_t f) {
    const gf_point *v = g->s->vertices;
    gf_point p1 = v[e], p2 = v[e + 1], q1 = v[f], q2 = v[f + 1];
    int d1 = gf__orient(q1, q2, p1), d2 = gf__orient(q1, q2, p2);
    int d3 = gf__orient(p1, p2, q1), d4 = gf__orient(p1, p2, q2);
    if (d1 * d2 < 0 && d3 * d4 < 0) return 1;  /* a proper crossing */
    gf_point touch;
    if (d1 == 0 && d2 == 0) {
        /* On one line: overlapping along it, touching at a shared end, or apart. */
        int by_lon = p1.lon != p2.lon;
        int64_t plo = by_lon ? (p1.lon < p2.lon ? p1.lon : p2.lon) : (p1.lat < p2.lat ? p1.lat : p2.lat);
        int64_t phi = by_lon ? (p1.lon < p2.lon ? p2.lon : p1.lon) : (p1.lat < p2.lat ? p2.lat : p1.lat);
        int64_t qlo = by_lon ? (q1.lon < q2.lon ? q1.lon : q2.lon) : (q1.lat < q2.lat ? q1.lat : q2.lat);
        int64_t qhi = by_lon ? (q1.lon < q2.lon ? q2.lon : q1.lon) : (q1.lat < q2.lat ? q2.lat : q1.lat);
        int64_t lo = plo > qlo ? plo : qlo, hi = phi < qhi ? phi : qhi;
        if (lo > hi) return 0;
        if (lo < hi) return 1;
        touch = gf__same_point(p1, q1) || gf__same_point(p1, q2) ? p1 : p2;
    } else if (d1 == 0 && gf__within(q1, q2, p1)) {
        touch = p1;
    } else if (d2 == 0 && gf__within(q1, q2, p2)) {
        touch = p2;
    } else if (d3 == 0 && gf__within(p1, p2, q1)) {
        touch = q1;
    } else if (d4 == 0 && gf__within(p1, p2, q2)) {
        touch = q2;
    } else {
        return 0;
    }
    if (g->ring_of[e] == g->ring_of[f]) {
        /* One ring: only consecutive edges at their shared vertex. */
        if (g->next_edge[e] == f && gf__same_point(touch, v[f])) return 0;
        if (g->next_edge[f] == e && gf__same_point(touch, v[e])) return 0;
        return 1;
    }
    /* Two rings touching at one point: they cross there when the second's boundary leaves on both sides of the
     * first's (its two directions from the point in different sectors of the first's two). */
    gf_point a1, a2, b1, b2;
    gf__arms(g, e, touch, &a1, &a2);
    gf__arms(g, f, touch, &b1, &b2);
    return gf__in_sector(a1, a2, b1) != gf__in_sector(a1, a2, b2);
}

/* The ray that places a ring. v: the ring's lexicographically least vertex (least longitude, then latitude), a
 * convex corner opening east; u and w: its two edges' directions there, u the one the ray leaves by (below). The ray
 * starts at p = v + eps * u + eps^2 * w, inside the ring right beside its edge u -- so outside every ring nested in
 * it, even one touching it at v, whose corner there lies strictly between u and w -- and runs west along the line
 * y = p.lat + eps^3. It crosses u at once and never meets the ring again (nothing of it lies west of v), so the
 * first edge of another ring it meets decides: the rings containing p are those containing the ring. */
typedef struct gf__ray {
    gf_point v, u, w;   /* u, w: differences of two vertices (|lon| <= 1.8e9, |lat| <= 1.7e9); u.lon >= 0 */
} gf__ray;

/* The sign of the ray line's offset from v.lat (eps * u.lat + eps^2 * w.lat + eps^3): -1 below, +1 above. */
static int gf__ray_side(const gf__ray *r) {
    return r->u.lat != 0 ? (r->u.lat > 0 ? 1 : -1) : r->w.lat != 0 ? (r->w.lat > 0 ? 1 : -1) : 1;
}

/* Whether a vertex lies above the ray's line. */
static int gf__above(const gf__ray *r, gf_point a) {
    return a.lat > r->v.lat || (a.lat == r->v.lat && gf__ray_side(r) < 0);
}

/* Where edge e, which straddles the ray's line, meets the line y = v.lat: x0 = m / d (d > 0); dx: its longitude
 * step over d of latitude (so the slope s = dx / d). On the ray's line it meets x0 + (y - v.lat) * s. */
typedef struct gf__crossing {
    uint32_t edge;
    int64_t m, d, dx;
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

static int gf__sign(int64_t v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

/* Which of two crossings lies further east on the ray's line: the sign of x1 - x2. */
static int gf__crossing_compare(const gf__ray *r, const gf__crossing *c1, const gf__crossing *c2) {
    int k = gf__i128_compare(gf__i128_mul(c1->m, c2->d), gf__i128_mul(c2->m, c1->d));
    if (k != 0) return k;
    /* Through one point of y = v.lat: x1 - x2 = (y - v.lat) * (s1 - s2). */
    return gf__ray_side(r) * gf__sign(c1->dx * c2->d - c2->dx * c1->d);
}

/* Whether a crossing lies west of the ray's start p: the first non-zero term of x - p.lon, which is
 * (x0 - v.lon) + eps * (u.lat * s - u.lon) + eps^2 * (w.lat * s - w.lon) + eps^3 * s. */
static int gf__west_of_start(const gf__ray *r, const gf__crossing *c) {
    int64_t start = (int64_t)r->v.lon * c->d;
    if (c->m != start) return c->m < start;
    /* Through v (a ring touching this one there). Products < 3.1e18. */
    int64_t t1 = (int64_t)r->u.lat * c->dx - (int64_t)r->u.lon * c->d;
    if (t1 != 0) return t1 < 0;
    int64_t t2 = (int64_t)r->w.lat * c->dx - (int64_t)r->w.lon * c->d;
    if (t2 != 0) return t2 < 0;
    return c->dx < 0;
}

/* Each ring's ray, and the ring. */
typedef struct gf__ring_start {
    gf__ray ray;
    uint32_t ring;
} gf__ring_start;

/* The order rings are placed in: by least vertex; among rings sharing it (touching there), the one whose edge u is
 * steeper (its angle from east larger) first: a ray sweeping from u towards west meets only corners steeper than u
 * on its side, whose rings it may depend on. */
static int gf__ring_start_compare(const void *x, const void *y) {
    const gf__ring_start *a = x, *b = y;
    if (a->ray.v.lon != b->ray.v.lon) return a->ray.v.lon < b->ray.v.lon ? -1 : 1;
    if (a->ray.v.lat != b->ray.v.lat) return a->ray.v.lat < b->ray.v.lat ? -1 : 1;
    int64_t alat = a->ray.u.lat < 0 ? -(int64_t)a->ray.u.lat : a->ray.u.lat;
    int64_t blat = b->ray.u.lat < 0 ? -(int64_t)b->ray.u.lat : b->ray.u.lat;
    int64_t ka = alat * b->ray.u.lon, kb = blat * a->ray.u.lon;  /* |u.lat| / u.lon compared: < 3.1e18 */
    if (ka != kb) return ka > kb ? -1 : 1;
    return a->ring < b->ring ? -1 : a->ring > b->ring ? 1 : 0;
}

/* The first edge of another ring that the ring's ray meets, or UINT32_MAX. */
static uint32_t gf__first_edge_west(const gf__rings *g, uint32_t ring, const gf__ray *r) {
    const gf__shape *s = g->s;
    int64_t y = r->v.lat;
    uint32_t row = gf__shape_row(s, y);
    /* The ray's line runs just below v.lat: the row below, when v.lat is on a row line. */
    if (gf__ray_side(r) < 0 && row > 0 && ((y - s->y0) & (((int64_t)1 << s->shift) - 1)) == 0) row--;
    gf__crossing best = {UINT32_MAX, 0, 1, 0};
    for (uint32_t col = gf__shape_col(s, r->v.lon) + 1; col-- > 0;) {
        uint64_t cell = (uint64_t)row * s->gx + col;
        for (uint32_t k = s->cell_start[cell]; k < s->cell_start[cell + 1]; k++) {
            uint32_t e = s->cell_edges[k];
            if (g->ring_of[e] == ring) continue;
            if (gf__above(r, s->vertices[e]) == gf__above(r, s->vertices[e + 1])) continue;
            gf__crossing c = gf__crossing_at(s, e, y);
            if (!gf__west_of_start(r, &c)) continue;
            if (best.edge == UINT32_MAX || gf__crossing_compare(r, &c, &best) > 0) best = c;
        }
        /* Nothing further west can be nearer once the best meets the line in or east of this column (an edge
         * meeting it on the column's west side is listed in this column too). */
        int64_t west_side = s->x0 + ((int64_t)col << s->shift);
        if (best.edge != UINT32_MAX && best.m >= west_side * best.d) break;
    }
    return best.edge;
}

static gf_status gf__nesting(const gf__rings *g, uint32_t ring_count, uint32_t *parents) {
    const gf__shape *s = g->s;
    gf__ring_start *starts = malloc((size_t)ring_count * sizeof *starts);
    uint8_t *placed = calloc(ring_count, 1);
    if (starts == NULL || placed == NULL) {
        free(starts);
        free(placed);
        return GF_ERR_NOMEM;
    }
    for (uint32_t r = 0; r < ring_count; r++) starts[r].ring = UINT32_MAX;
    for (uint32_t e = 0; e + 1 < s->vertex_count; e++) {
        if (!gf__shape_is_edge(s, e)) continue;
        gf__ring_start *w = &starts[g->ring_of[e]];
        gf_point p = s->vertices[e];
        if (w->ring == UINT32_MAX || p.lon < w->ray.v.lon || (p.lon == w->ray.v.lon && p.lat < w->ray.v.lat)) {
            gf_point u = s->vertices[e + 1], t = s->vertices[g->prev_edge[e]];
            w->ring = g->ring_of[e];
            w->ray.v = p;
            gf_point a = {u.lat - p.lat, u.lon - p.lon}, b = {t.lat - p.lat, t.lon - p.lon};
            /* u: the edge the ray leaves by at once. Its line runs above v when u points north, below when it
             * points south; going west it then leaves the corner (which opens east) by its northernmost edge or
             * its southernmost one. So: the more counter-clockwise edge if that points north, else the other. */
            int a_first = (int64_t)b.lon * a.lat - (int64_t)b.lat * a.lon > 0;  /* a counter-clockwise of b */
            gf_point ccw = a_first ? a : b, cw = a_first ? b : a;
            w->ray.u = ccw.lat > 0 ? ccw : cw;
            w->ray.w = ccw.lat > 0 ? cw : ccw;
        }
    }
    qsort(starts, ring_count, sizeof *starts, gf__ring_start_compare);
    for (uint32_t k = 0; k < ring_count; k++) {
        uint32_t r = starts[k].ring, e = gf__first_edge_west(g, r, &starts[k].ray);
        placed[r] = 1;
        if (e == UINT32_MAX) {
            parents[r] = GF_RING_NONE;
            continue;
        }
        uint32_t other = g->ring_of[e];
        GF__ASSERT(placed[other]);  /* the order above places every ring a ray can meet first */
        /* Inside on the east side of e: a counter-clockwise ring going south there, or a clockwise one going north. */
        int south = s->vertices[e + 1].lat < s->vertices[e].lat;
        parents[r] = (g->orientation[other] > 0) == south ? other : parents[other];
    }
    free(starts);
    free(placed);
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
                   malloc((size_t)s->vertex_count * sizeof(uint32_t)),
                   malloc((size_t)s->vertex_count * sizeof(uint32_t)), orientation};
    if (g.ring_of == NULL || g.next_edge == NULL || g.prev_edge == NULL) {
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
        for (uint32_t i = first; i < last; i++)
            if (gf__shape_is_edge(s, i)) g.prev_edge[g.next_edge[i]] = i;
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
    free(g.prev_edge);
    free(orientation);
    gf__shape_free(s);
    return status;
}
