/*
 * gf_shape.c -- polygon and corridor fences: building a shape's own edge grid, and the per-fix test (inside or not,
 * signed distance to the boundary). Integer only (compiles with -mgeneral-regs-only like the rest of the core).
 *
 * THE MODEL. A polygon's edges are straight lines in (longitude, latitude), as GeoJSON defines them (RFC 7946 3.1.1),
 * so inside/outside is planar point-in-polygon on the e7 integers and is decided exactly (even-odd rule over all
 * rings). A point exactly on an edge is decided as if it were moved by (+eps, +eps^2) in (lon, lat): a symbolic
 * perturbation that puts no point on the boundary and keeps every decision consistent (the tie-break terms below).
 * A corridor is a polyline, straight in (lon, lat) between its vertices, with a half-width W: inside when the
 * distance to the polyline is at most W.
 *
 * DISTANCE. The distance to an edge is the geodesic distance from the fix to the edge's nearest point. The nearest
 * point is found in a local frame at the fix (equirectangular: x = dlon * s_lon, y = dlat * s_lat, exact straight
 * lines because it is an affine map of (lon, lat)); its distance is then measured like a circle's, through ECEF
 * chords (gf__arc_mm). Error: a foot point off by delta * d along the edge lengthens the distance by about
 * delta^2 * d / 2. The frame's scales are those of the fix's latitude band (2^18 e7 = 2.9 km tall), off by delta <=
 * 4e-4 relative at 60 deg; but the frame also ignores the convergence of the meridians and the change of the
 * longitude scale between the fix and the foot (delta = dlon * sin(lat) and tan(lat) * dlat: 1.1 m at 50 km, 76 deg),
 * so beyond 1 km the foot is refined on the exact chord (gf__refined_foot; measured: <= 18 mm against brute force at
 * 0..84 deg and up to 50 km). Rounding the foot point to e7 adds <= 8 mm and the chord <= 10 mm. So |error| <= 2 cm
 * + 1e-7 * d. The sign (inside or not) has no error for polygons; a corridor's sign follows its distance (band 2 cm).
 *
 * THE EDGE GRID. Per shape, a uniform grid of square cells of 2^shift e7 over its box (about one cell per edge), each
 * cell listing the edges that pass through it (a superset: gf__edge_cols; corridors: whose W-neighbourhood reaches
 * it). The cell size is chosen so that the grid lists at most GF__ENTRIES_PER_EDGE entries per edge and, where that
 * allows, at most GF_SHAPE_CELL_EDGES_MAX edges per cell (else the shape is refused). A polygon also keeps, per
 * cell, whether the cell's south-west corner is inside. A fix is then inside iff that corner is, flipped by each edge
 * crossing the two-leg path corner -> (fix.lon, corner.lat) -> fix, which lies in the cell, so only the cell's edges
 * can cross it: the work per fix depends on the edges near it, not on the shape's vertex count.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

#define GF__BAND_SHIFT 18      /* latitude bands of the local frame's scales: 2^18 e7 = 0.026 deg = 2.9 km */
#define GF__SCALE_STEP 65536   /* scales are q per GF__SCALE_STEP e7 (ECEF chords over 0.0066 deg) */
#define GF__ENTRIES_PER_EDGE 8 /* the edge grid's budget: at most this many cell entries per edge (plus 64) */
#define GF__CELLS_PER_EDGE 16  /* and at most this many cells per edge (plus 64), when it is made finer */

/* ---- Exact predicates on e7 integers (differences <= 1.8e9 and 1.7e9: every product < 2^62) ---- */

/* Whether edge a-b straddles the horizontal line y = Y (one end above, the other at or below). */
static int gf__straddles_y(gf_point a, gf_point b, int64_t y) {
    return ((int64_t)a.lat > y) != ((int64_t)b.lat > y);
}

static int gf__straddles_x(gf_point a, gf_point b, int64_t x) {
    return ((int64_t)a.lon > x) != ((int64_t)b.lon > x);
}

/* For an edge that straddles y = Y: whether it meets that line to the east of (X + eps, Y + eps^2), i.e. whether a
 * ray from the perturbed point (X, Y) towards +lon crosses it. The cross product decides; when it is 0 (the point is
 * on the edge's line) the eps term, -(b.lat - a.lat), does, which never agrees with the edge's direction. */
static int gf__east_of(gf_point a, gf_point b, int64_t x, int64_t y) {
    int64_t dy = (int64_t)b.lat - a.lat, dx = (int64_t)b.lon - a.lon;
    int64_t cross = ((int64_t)a.lon - x) * dy - ((int64_t)a.lat - y) * dx;
    if (cross == 0) return 0;
    return (cross > 0) == (dy > 0);
}

/* For an edge that straddles x = X: whether it meets that (perturbed) vertical line north of (X + eps, Y + eps^2).
 * Tie-breaks: the eps term dy, then the eps^2 term -dx (dx != 0 since the edge straddles x = X). */
static int gf__north_of(gf_point a, gf_point b, int64_t x, int64_t y) {
    int64_t dy = (int64_t)b.lat - a.lat, dx = (int64_t)b.lon - a.lon;
    int64_t cross = ((int64_t)a.lat - y) * dx - ((int64_t)a.lon - x) * dy;
    int sign = cross != 0 ? (cross > 0 ? 1 : -1) : dy != 0 ? (dy > 0 ? 1 : -1) : (dx > 0 ? -1 : 1);
    return (sign > 0) == (dx > 0);
}

/* ---- Cells ---- */

static uint32_t gf__cell_col(const gf__shape *s, int64_t lon) {
    int64_t c = (lon - s->x0) >> s->shift;
    return (uint32_t)(c < 0 ? 0 : c >= s->gx ? s->gx - 1 : c);
}

static uint32_t gf__cell_row(const gf__shape *s, int64_t lat) {
    int64_t r = (lat - s->y0) >> s->shift;
    return (uint32_t)(r < 0 ? 0 : r >= s->gy ? s->gy - 1 : r);
}

/* The box of edge i, grown by the shape's half-width (corridors), as e7 lon/lat bounds. */
static void gf__edge_box(const gf__shape *s, uint32_t i, int64_t *lon_lo, int64_t *lon_hi, int64_t *lat_lo,
                         int64_t *lat_hi) {
    gf_point a = s->vertices[i], b = s->vertices[i + 1];
    *lon_lo = a.lon < b.lon ? a.lon : b.lon;
    *lon_hi = a.lon < b.lon ? b.lon : a.lon;
    *lat_lo = a.lat < b.lat ? a.lat : b.lat;
    *lat_hi = a.lat < b.lat ? b.lat : a.lat;
    if (s->half_width_mm == 0) return;
    /* The W-neighbourhood of a lon/lat-straight edge: its latitude reach is W's; its longitude reach is largest at
     * the poleward end, whose box gf__box_around gives (both ends' boxes, so either may be it). */
    for (int end = 0; end < 2; end++) {
        gf__box box = gf__box_around(end == 0 ? a : b, (uint64_t)s->half_width_mm + GF__BOX_SLACK_MM);
        int64_t lo = (int64_t)box.u_lo - GF_LON_MAX_E7, hi = box.u_hi - GF_LON_MAX_E7;
        if (box.full_lon) lo = -GF_LON_MAX_E7, hi = GF_LON_MAX_E7;
        int64_t centre_lon = end == 0 ? a.lon : b.lon;
        if (lo > centre_lon) lo -= GF__LON_SPAN_E7;  /* u_lo wrapped past the seam */
        if (lo < *lon_lo) *lon_lo = lo;
        if (hi > *lon_hi) *lon_hi = hi;
        int64_t lat_lo_end = (int64_t)box.lat_lo - GF_LAT_MAX_E7, lat_hi_end = (int64_t)box.lat_hi - GF_LAT_MAX_E7;
        if (lat_lo_end < *lat_lo) *lat_lo = lat_lo_end;
        if (lat_hi_end > *lat_hi) *lat_hi = lat_hi_end;
    }
}

/* Whether i is an edge (not the step from one ring's closing vertex to the next ring, not a zero-length edge). */
static int gf__is_edge(const gf__shape *s, uint32_t i) {
    if (i + 1 >= s->vertex_count || (s->ring_end_bits[i >> 6] >> (i & 63) & 1u)) return 0;
    return s->vertices[i].lat != s->vertices[i + 1].lat || s->vertices[i].lon != s->vertices[i + 1].lon;
}

/* ---- Local frame scales ---- */

/* q per GF__SCALE_STEP e7 of latitude and of longitude at latitude lat (e7), from ECEF chords. */
static void gf__scales_at(int32_t lat, uint32_t *per_lat, uint32_t *per_lon) {
    if (lat > GF_FENCE_LAT_MAX_E7 + 10000000) lat = GF_FENCE_LAT_MAX_E7 + 10000000;  /* stay off the poles */
    if (lat < -GF_FENCE_LAT_MAX_E7 - 10000000) lat = -GF_FENCE_LAT_MAX_E7 - 10000000;
    gf_point north = {lat + GF__SCALE_STEP / 2, 0}, south = {lat - GF__SCALE_STEP / 2, 0};
    gf_point east = {lat, GF__SCALE_STEP / 2}, west = {lat, -GF__SCALE_STEP / 2};
    *per_lat = (uint32_t)gf__isqrt(gf__chord2(gf__ecef_of(north), gf__ecef_of(south)));
    *per_lon = (uint32_t)gf__isqrt(gf__chord2(gf__ecef_of(east), gf__ecef_of(west)));
}

/* ---- Building ---- */

void gf__shape_free(gf__shape *s) {
    if (s == NULL) return;
    free(s->vertices);
    free(s->ring_end_bits);
    free(s->cell_start);
    free(s->cell_edges);
    free(s->corner_bits);
    free(s->scales);
    free(s->fill);  /* set only by a build that failed while filling the cells */
    free(s);
}

/* Floor and ceiling of n / d for d > 0. */
static int64_t gf__floor_div(int64_t n, int64_t d) {
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

static int64_t gf__ceil_div(int64_t n, int64_t d) {
    return n >= 0 ? (n + d - 1) / d : -(-n / d);
}

/* An edge with the reach of its box beyond the segment (corridors: the half-width's; polygons: 0). */
typedef struct gf__edge_reach {
    gf_point a, b;
    int64_t lat_lo, lat_hi;             /* the grown box's latitudes */
    int64_t north, south, west, east;   /* how far the grown box reaches beyond the segment's own box */
} gf__edge_reach;

static gf__edge_reach gf__reach_of(const gf__shape *s, uint32_t i) {
    gf__edge_reach r;
    r.a = s->vertices[i];
    r.b = s->vertices[i + 1];
    int64_t lon_lo, lon_hi;
    gf__edge_box(s, i, &lon_lo, &lon_hi, &r.lat_lo, &r.lat_hi);
    r.north = r.lat_hi - (r.a.lat > r.b.lat ? r.a.lat : r.b.lat);
    r.south = (r.a.lat < r.b.lat ? r.a.lat : r.b.lat) - r.lat_lo;
    r.west = (r.a.lon < r.b.lon ? r.a.lon : r.b.lon) - lon_lo;
    r.east = lon_hi - (r.a.lon > r.b.lon ? r.a.lon : r.b.lon);
    return r;
}

/* The columns of row `row` the edge can meet (corridors: its half-width's neighbourhood): *col_lo .. *col_hi, or 0
 * when it meets none. A superset of the cells the segment passes through: its longitudes over the latitudes that
 * reach the row (the row's closed band, widened by the reach), rounded outwards and widened by one unit. So a long
 * edge is listed in the cells along it, not in every cell of its box: a shape's grid lists O(edges + their lengths
 * in cells) entries whatever the edges' directions. */
static int gf__edge_cols(const gf__shape *s, const gf__edge_reach *r, uint32_t row, uint32_t *col_lo,
                         uint32_t *col_hi) {
    int64_t y_lo = s->y0 + ((int64_t)row << s->shift), y_hi = y_lo + ((int64_t)1 << s->shift);
    int64_t seg_lo = r->a.lat < r->b.lat ? r->a.lat : r->b.lat, seg_hi = r->a.lat < r->b.lat ? r->b.lat : r->a.lat;
    int64_t lo = y_lo - r->north, hi = y_hi + r->south;  /* the segment's latitudes whose reach meets the row */
    if (lo < seg_lo) lo = seg_lo;
    if (hi > seg_hi) hi = seg_hi;
    if (lo > hi) return 0;
    int64_t dy = (int64_t)r->b.lat - r->a.lat, dx = (int64_t)r->b.lon - r->a.lon;
    int64_t west, east;
    if (dy == 0) {
        west = r->a.lon < r->b.lon ? r->a.lon : r->b.lon;
        east = r->a.lon < r->b.lon ? r->b.lon : r->a.lon;
    } else {
        /* lon(y) = a.lon + (y - a.lat) * dx / dy; |y - a.lat| < 1.7e9 and |dx| <= 1.8e9: the products fit. */
        int64_t n_lo = (lo - r->a.lat) * dx, n_hi = (hi - r->a.lat) * dx;
        if (dy < 0) dy = -dy, n_lo = -n_lo, n_hi = -n_hi;
        int64_t w1 = gf__floor_div(n_lo, dy), w2 = gf__floor_div(n_hi, dy);
        int64_t e1 = gf__ceil_div(n_lo, dy), e2 = gf__ceil_div(n_hi, dy);
        west = r->a.lon + (w1 < w2 ? w1 : w2);
        east = r->a.lon + (e1 > e2 ? e1 : e2);
    }
    *col_lo = gf__cell_col(s, west - r->west - 1);
    *col_hi = gf__cell_col(s, east + r->east + 1);
    return 1;
}

/* The rows the edge's grown box covers. */
static void gf__edge_rows(const gf__shape *s, const gf__edge_reach *r, uint32_t *row_lo, uint32_t *row_hi) {
    *row_lo = gf__cell_row(s, r->lat_lo);
    *row_hi = gf__cell_row(s, r->lat_hi);
}

/* Grid entries of the edges at the shape's current shift, counting stops once above `budget`. */
static uint64_t gf__count_entries(const gf__shape *s, uint64_t budget) {
    uint64_t entries = 0;
    for (uint32_t i = 0; i + 1 < s->vertex_count && entries <= budget; i++) {
        if (!gf__is_edge(s, i)) continue;
        gf__edge_reach r = gf__reach_of(s, i);
        uint32_t row_lo, row_hi, col_lo, col_hi;
        gf__edge_rows(s, &r, &row_lo, &row_hi);
        for (uint32_t row = row_lo; row <= row_hi; row++)
            if (gf__edge_cols(s, &r, row, &col_lo, &col_hi)) entries += (uint64_t)(col_hi - col_lo) + 1;
    }
    return entries;
}

/* Corner parities of a polygon: each edge straddling a row line y = y0 + row * side flips every corner of that line
 * west of where it meets it (the corners whose eastward ray crosses it), recorded in flips[row * (gx + 1) + k] for
 * corners 0 .. k-1 and summed from the east. Per edge: one binary search per row line it straddles. */
static void gf__corner_flips(const gf__shape *s, uint8_t *flips) {
    int64_t side = (int64_t)1 << s->shift;
    for (uint32_t e = 0; e + 1 < s->vertex_count; e++) {
        if (!gf__is_edge(s, e)) continue;
        gf_point a = s->vertices[e], b = s->vertices[e + 1];
        int64_t lat_lo = a.lat < b.lat ? a.lat : b.lat, lat_hi = a.lat < b.lat ? b.lat : a.lat;
        /* Row lines y with lat_lo <= y < lat_hi (those the edge straddles). */
        int64_t first = (lat_lo - s->y0 + side - 1) >> s->shift, last = (lat_hi - 1 - s->y0) >> s->shift;
        if (last >= s->gy) last = (int64_t)s->gy - 1;
        for (int64_t row = first; row <= last; row++) {
            int64_t y = s->y0 + (row << s->shift);
            /* The corners east_of holds for form a prefix 0 .. k-1: binary search for k. */
            uint32_t lo = 0, hi = s->gx + 1;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (gf__east_of(a, b, (int64_t)s->x0 + ((int64_t)mid << s->shift), y)) lo = mid + 1;
                else hi = mid;
            }
            flips[(size_t)row * (s->gx + 1) + lo] ^= 1u;
        }
    }
}

/* Sets the grid's cell size (2^shift e7) and so its columns and rows over a box of width x height e7. */
static void gf__set_shift(gf__shape *s, uint32_t shift, int64_t width, int64_t height) {
    s->shift = shift;
    s->gx = (uint32_t)(((width - 1) >> shift) + 1);
    s->gy = (uint32_t)(((height - 1) >> shift) + 1);
}

/* Walks every pair (edge, cell the edge passes through), in edge order. Without s->fill it counts each cell's edges
 * into s->cell_start[cell + 1] (zeroed by the caller); with s->fill (cell_start summed into row starts) it writes
 * each edge into its cell's list. One walk for both passes, so the lists hold exactly the entries counted. */
static void gf__walk_edge_cells(gf__shape *s) {
    for (uint32_t i = 0; i + 1 < s->vertex_count; i++) {
        if (!gf__is_edge(s, i)) continue;
        gf__edge_reach r = gf__reach_of(s, i);
        uint32_t row_lo, row_hi, col_lo, col_hi;
        gf__edge_rows(s, &r, &row_lo, &row_hi);
        for (uint32_t row = row_lo; row <= row_hi; row++) {
            if (!gf__edge_cols(s, &r, row, &col_lo, &col_hi)) continue;
            for (uint32_t col = col_lo; col <= col_hi; col++) {
                uint64_t cell = (uint64_t)row * s->gx + col;
                if (s->fill == NULL) {
                    s->cell_start[cell + 1]++;
                } else {
                    s->cell_edges[s->cell_start[cell] + s->fill[cell]++] = i;
                }
            }
        }
    }
}

/* Counts the edges of each cell into s->cell_start[cell + 1] (zeroed by the caller); returns the most in one cell,
 * and that cell in *densest_cell. */
static uint32_t gf__count_cells(gf__shape *s, uint64_t *densest_cell) {
    GF__ASSERT(s->fill == NULL);
    gf__walk_edge_cells(s);
    uint32_t densest = 0;
    uint64_t cells = (uint64_t)s->gx * s->gy;
    for (uint64_t c = 0; c < cells; c++)
        if (s->cell_start[c + 1] > densest) densest = s->cell_start[c + 1], *densest_cell = c;
    return densest;
}

/* The box of a shape's edges (a corridor's grown by its half-width), e7 longitudes and latitudes. */
typedef struct gf__shape_bounds {
    int64_t lon_lo, lon_hi, lat_lo, lat_hi;
} gf__shape_bounds;

/* Phase 1: the shape's own vertices, each polygon ring closed by repeating its first vertex (a corridor's path kept
 * as given), and the bit of each ring's last vertex (no edge starts there). GF_OK or GF_ERR_NOMEM. */
static gf_status gf__copy_rings(gf__shape *s, const gf_point *vertices, const uint32_t *ring_ends) {
    uint32_t total = ring_ends[s->ring_count - 1];
    s->vertex_count = s->half_width_mm == 0 ? total + s->ring_count : total;
    s->vertices = malloc((size_t)s->vertex_count * sizeof *s->vertices);
    s->ring_end_bits = calloc(((size_t)s->vertex_count + 63) / 64, sizeof *s->ring_end_bits);
    if (s->vertices == NULL || s->ring_end_bits == NULL) return GF_ERR_NOMEM;
    uint32_t at = 0, start = 0;
    for (uint32_t r = 0; r < s->ring_count; r++) {
        for (uint32_t v = start; v < ring_ends[r]; v++) s->vertices[at++] = vertices[v];
        if (s->half_width_mm == 0) s->vertices[at++] = vertices[start];
        s->ring_end_bits[(at - 1) >> 6] |= (uint64_t)1 << ((at - 1) & 63);
        start = ring_ends[r];
    }
    return GF_OK;
}

/* Phase 2: the edges' box, their count, and the grid's origin one unit south-west of every vertex (so the first
 * corner of each row is outside). GF_ERR_SHAPE, with *problem, for no edge of non-zero length
 * (GF_SHAPE_FAULT_ZERO_AREA), or a shape (with its half-width) that reaches across +-180 deg or spans more than half
 * the globe (GF_SHAPE_FAULT_SPAN), whose edges would be ambiguous. */
static gf_status gf__bound_edges(gf__shape *s, gf__shape_bounds *b, gf_shape_problem *problem) {
    b->lon_lo = INT64_MAX, b->lon_hi = INT64_MIN, b->lat_lo = INT64_MAX, b->lat_hi = INT64_MIN;
    uint32_t edges = 0;
    for (uint32_t i = 0; i + 1 < s->vertex_count; i++) {
        if (!gf__is_edge(s, i)) continue;
        edges++;
        int64_t lon_lo, lon_hi, lat_lo, lat_hi;
        gf__edge_box(s, i, &lon_lo, &lon_hi, &lat_lo, &lat_hi);
        if (lon_lo < b->lon_lo) b->lon_lo = lon_lo;
        if (lon_hi > b->lon_hi) b->lon_hi = lon_hi;
        if (lat_lo < b->lat_lo) b->lat_lo = lat_lo;
        if (lat_hi > b->lat_hi) b->lat_hi = lat_hi;
    }
    if (edges == 0 || b->lon_lo < -GF_LON_MAX_E7 || b->lon_hi > GF_LON_MAX_E7
        || b->lon_hi - b->lon_lo > GF_LON_MAX_E7) {
        if (problem != NULL) {
            problem->fault = edges == 0 ? GF_SHAPE_FAULT_ZERO_AREA : GF_SHAPE_FAULT_SPAN;
            problem->at = s->vertices[0];  /* the caller's first vertex */
        }
        return GF_ERR_SHAPE;
    }
    s->edge_count = edges;
    s->x0 = b->lon_lo - 1;
    s->y0 = b->lat_lo - 1;
    return GF_OK;
}

/* Where a crowded cell is: its middle, within the edges' box (so a valid coordinate). */
static gf_point gf__cell_middle(const gf__shape *s, const gf__shape_bounds *b, uint64_t cell) {
    int64_t half = ((int64_t)1 << s->shift) / 2;
    int64_t lat = s->y0 + ((int64_t)(cell / s->gx) << s->shift) + half;
    int64_t lon = s->x0 + ((int64_t)(cell % s->gx) << s->shift) + half;
    gf_point middle = {(int32_t)(lat < b->lat_lo ? b->lat_lo : lat > b->lat_hi ? b->lat_hi : lat),
                       (int32_t)(lon < b->lon_lo ? b->lon_lo : lon > b->lon_hi ? b->lon_hi : lon)};
    return middle;
}

/* Phase 3: the cell size, and each cell's edge count in s->cell_start[cell + 1]. About one cell per edge to start
 * with, then coarser until the edges' entries fit the budget (GF__ENTRIES_PER_EDGE per edge), or finer (up to 4
 * steps) while a cell lists more than GF_SHAPE_CELL_EDGES_MAX edges (detail crowded in one place of a large shape),
 * as long as the finer grid keeps to the budget and to GF__CELLS_PER_EDGE cells per edge. Each try costs O(edges +
 * budget + cells), and there are at most 36 of them, so the build is O(V log) in time and O(V) in memory for any
 * shape (a fan of long edges, many coincident rings). GF_ERR_NOMEM; GF_ERR_SHAPE with *problem
 * (GF_SHAPE_FAULT_DENSE) when too many edges lie near one place for any grid within the budget: a query there would
 * walk them all. */
static gf_status gf__size_grid(gf__shape *s, const gf__shape_bounds *b, gf_shape_problem *problem) {
    const uint32_t edges = s->edge_count;
    const int64_t width = b->lon_hi - s->x0 + 1, height = b->lat_hi - s->y0 + 1;
    uint32_t shift = 0;
    while ((((width - 1) >> shift) + 1) * (((height - 1) >> shift) + 1) > (int64_t)(edges < 4 ? 4 : edges)) shift++;
    const uint64_t budget = (uint64_t)edges * GF__ENTRIES_PER_EDGE + 64;
    for (;; shift++) {
        gf__set_shift(s, shift, width, height);
        if (gf__count_entries(s, budget) <= budget || (s->gx == 1 && s->gy == 1)) break;
    }
    uint64_t densest_cell = 0;
    uint32_t densest = 0;
    for (uint32_t fit = shift;; shift--) {
        free(s->cell_start);
        s->cell_start = calloc((size_t)s->gx * s->gy + 1, sizeof *s->cell_start);
        if (s->cell_start == NULL) return GF_ERR_NOMEM;
        densest = gf__count_cells(s, &densest_cell);
        if (densest <= GF_SHAPE_CELL_EDGES_MAX || shift == 0 || fit - shift >= 4) break;
        uint32_t finer_gx = (uint32_t)(((width - 1) >> (shift - 1)) + 1);
        uint32_t finer_gy = (uint32_t)(((height - 1) >> (shift - 1)) + 1);
        if ((uint64_t)finer_gx * finer_gy > (uint64_t)edges * GF__CELLS_PER_EDGE + 64) break;
        gf__set_shift(s, shift - 1, width, height);
        if (gf__count_entries(s, budget) > budget) {
            gf__set_shift(s, shift, width, height);
            break;
        }
    }
    if (densest > GF_SHAPE_CELL_EDGES_MAX) {
        if (problem != NULL) {
            problem->fault = GF_SHAPE_FAULT_DENSE;
            problem->at = gf__cell_middle(s, b, densest_cell);
        }
        return GF_ERR_SHAPE;
    }
    return GF_OK;
}

/* Phase 4: the edge lists per cell: the counts of phase 3 summed into compressed rows, then filled. GF_OK or
 * GF_ERR_NOMEM. */
static gf_status gf__fill_cells(gf__shape *s) {
    uint64_t cells = (uint64_t)s->gx * s->gy;
    for (uint64_t c = 0; c < cells; c++) s->cell_start[c + 1] += s->cell_start[c];
    uint64_t entries = s->cell_start[cells];
    s->cell_edges = malloc((size_t)(entries == 0 ? 1 : entries) * sizeof *s->cell_edges);
    s->fill = calloc((size_t)cells, sizeof *s->fill);
    if (s->cell_edges == NULL || s->fill == NULL) return GF_ERR_NOMEM;
    gf__walk_edge_cells(s);
    free(s->fill);
    s->fill = NULL;
    return GF_OK;
}

/* Phase 5, polygons: the inside bit of every cell's south-west corner, row line by row line. GF_OK or
 * GF_ERR_NOMEM. */
static gf_status gf__mark_corners(gf__shape *s) {
    uint64_t cells = (uint64_t)s->gx * s->gy;
    s->corner_bits = calloc(((size_t)cells + 63) / 64, sizeof *s->corner_bits);
    uint8_t *flips = calloc((size_t)s->gy * (s->gx + 1), 1);
    const gf_status status = s->corner_bits != NULL && flips != NULL ? GF_OK : GF_ERR_NOMEM;
    if (status == GF_OK) {
        gf__corner_flips(s, flips);
        for (uint32_t row = 0; row < s->gy; row++) {
            /* Corner col is flipped by the edges met east of it: those recorded at col + 1 .. gx. */
            const uint8_t *line = flips + (size_t)row * (s->gx + 1);
            uint8_t inside = 0;
            for (uint32_t col = s->gx; col-- > 0;) {
                inside ^= line[col + 1];
                if (inside) {
                    uint64_t cell = (uint64_t)row * s->gx + col;
                    s->corner_bits[cell >> 6] |= (uint64_t)1 << (cell & 63);
                }
            }
        }
    }
    free(flips);
    return status;
}

/* Phase 6: the local frame's scales per latitude band over the box. GF_OK or GF_ERR_NOMEM. */
static gf_status gf__measure_scales(gf__shape *s, const gf__shape_bounds *b) {
    s->band_lat0 = (int32_t)((s->y0 >> GF__BAND_SHIFT) * ((int64_t)1 << GF__BAND_SHIFT));  /* floor to a band */
    s->band_count = (uint32_t)(((b->lat_hi - s->band_lat0) >> GF__BAND_SHIFT) + 1);
    s->scales = malloc((size_t)s->band_count * 2 * sizeof *s->scales);
    if (s->scales == NULL) return GF_ERR_NOMEM;
    for (uint32_t band = 0; band < s->band_count; band++) {
        int64_t mid = (int64_t)s->band_lat0 + ((int64_t)band << GF__BAND_SHIFT) + (1 << (GF__BAND_SHIFT - 1));
        if (mid > GF_LAT_MAX_E7) mid = GF_LAT_MAX_E7;
        gf__scales_at((int32_t)mid, &s->scales[2 * band], &s->scales[2 * band + 1]);
    }
    return GF_OK;
}

/* Phase 7: the index box: the edges' box (corridors: grown by W), plus the core's slack, as grid offsets. */
static void gf__set_index_box(gf__shape *s, const gf__shape_bounds *b) {
    gf_point sw = {(int32_t)(b->lat_lo < -GF_LAT_MAX_E7 ? -GF_LAT_MAX_E7 : b->lat_lo), 0};
    gf__box slack = gf__box_around(sw, GF__BOX_SLACK_MM);
    int64_t lat_slack = (int64_t)slack.lat_hi - slack.lat_lo, lon_slack = slack.u_hi - slack.u_lo;
    int64_t box_lat_lo = b->lat_lo - lat_slack, box_lat_hi = b->lat_hi + lat_slack;
    if (box_lat_lo < -GF_LAT_MAX_E7) box_lat_lo = -GF_LAT_MAX_E7;
    if (box_lat_hi > GF_LAT_MAX_E7) box_lat_hi = GF_LAT_MAX_E7;
    s->box.lat_lo = (uint32_t)(box_lat_lo + GF_LAT_MAX_E7);
    s->box.lat_hi = (uint32_t)(box_lat_hi + GF_LAT_MAX_E7);
    int64_t u_lo = b->lon_lo - lon_slack - 2 + GF_LON_MAX_E7, u_hi = b->lon_hi + lon_slack + 2 + GF_LON_MAX_E7;
    s->box.full_lon = u_hi - u_lo >= GF__LON_SPAN_E7 - 1;
    if (s->box.full_lon) {
        u_lo = 0;
        u_hi = GF__LON_SPAN_E7 - 1;
    } else if (u_lo < 0) {
        u_lo += GF__LON_SPAN_E7;
        u_hi += GF__LON_SPAN_E7;
    } else if (u_lo >= GF__LON_SPAN_E7) {
        u_lo -= GF__LON_SPAN_E7;
        u_hi -= GF__LON_SPAN_E7;
    }
    s->box.u_lo = u_lo;
    s->box.u_hi = u_hi;
}

/* The bytes a built shape holds (what gf_table_memory counts for it). */
static size_t gf__shape_bytes(const gf__shape *s) {
    uint64_t cells = (uint64_t)s->gx * s->gy;
    return sizeof *s + (size_t)s->vertex_count * sizeof *s->vertices
         + ((size_t)s->vertex_count + 63) / 64 * sizeof *s->ring_end_bits
         + ((size_t)cells + 1) * sizeof *s->cell_start + (size_t)s->cell_start[cells] * sizeof *s->cell_edges
         + (s->half_width_mm == 0 ? ((size_t)cells + 63) / 64 * sizeof *s->corner_bits : 0)
         + (size_t)s->band_count * 2 * sizeof *s->scales;
}

/* The phases in order, each run only when the ones before it succeeded; on any failure everything allocated so far
 * is freed in one place (gf__shape_free, which takes a partly built shape). */
gf_status gf__shape_build(const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count,
                          uint32_t half_width_mm, gf__shape **out, size_t *bytes, gf_shape_problem *problem) {
    *out = NULL;
    if (problem != NULL) memset(problem, 0, sizeof *problem);
    gf__shape_bounds bounds;
    gf__shape *s = calloc(1, sizeof *s);
    gf_status status = GF_ERR_NOMEM;
    if (s != NULL) {
        s->half_width_mm = half_width_mm;
        s->ring_count = ring_count;
        status = gf__copy_rings(s, vertices, ring_ends);
    }
    if (status == GF_OK) status = gf__bound_edges(s, &bounds, problem);
    if (status == GF_OK) status = gf__size_grid(s, &bounds, problem);
    if (status == GF_OK) status = gf__fill_cells(s);
    if (status == GF_OK && half_width_mm == 0) status = gf__mark_corners(s);
    if (status == GF_OK) status = gf__measure_scales(s, &bounds);
    if (status == GF_OK) {
        gf__set_index_box(s, &bounds);
        s->bytes = gf__shape_bytes(s);
        *bytes += s->bytes;
        *out = s;
    } else {
        gf__shape_free(s);
    }
    return status;
}

/* ---- The per-fix test ---- */

static int gf__corner_inside(const gf__shape *s, uint64_t cell) {
    return (int)(s->corner_bits[cell >> 6] >> (cell & 63) & 1u);
}

/* Even-odd inside test of a polygon for a fix (fx, fy) = (lon on the shape's side of the seam, lat) (THE EDGE GRID). */
static int gf__polygon_contains(const gf__shape *s, int64_t fx, int64_t fy) {
    if (fx < s->x0 || fy < s->y0 || fx >= s->x0 + ((int64_t)s->gx << s->shift)
        || fy >= s->y0 + ((int64_t)s->gy << s->shift))
        return 0;  /* outside the grid, which holds every vertex */
    uint32_t col = (uint32_t)((fx - s->x0) >> s->shift), row = (uint32_t)((fy - s->y0) >> s->shift);
    uint64_t cell = (uint64_t)row * s->gx + col;
    int64_t cx = s->x0 + ((int64_t)col << s->shift), cy = s->y0 + ((int64_t)row << s->shift);
    int inside = gf__corner_inside(s, cell);
    for (uint32_t k = s->cell_start[cell]; k < s->cell_start[cell + 1]; k++) {
        uint32_t e = s->cell_edges[k];
        gf_point a = s->vertices[e], b = s->vertices[e + 1];
        /* Leg 1: along y = cy from the corner east to fx. */
        if (gf__straddles_y(a, b, cy) && gf__east_of(a, b, cx, cy) && !gf__east_of(a, b, fx, cy)) inside ^= 1;
        /* Leg 2: along x = fx from cy north to fy. */
        if (gf__straddles_x(a, b, fx) && gf__north_of(a, b, fx, cy) && !gf__north_of(a, b, fx, fy)) inside ^= 1;
    }
    return inside;
}

/* d * t for t = t32 / 2^32 in [0, 1], rounded, with |d| < 2^46: the product split so that it stays in 64 bits and t
 * keeps all 32 bits (on a 100 km edge, 16 bits of t would be 1.5 m). */
static int64_t gf__scale_by_t(int64_t d, uint64_t t32) {
    int64_t hi = d * (int64_t)(t32 >> 16), lo = (d * (int64_t)(t32 & 0xFFFF)) >> 16;
    return (hi + lo + (1 << 15)) >> 16;
}

/* a + (b - a) * t on e7. */
static int32_t gf__lerp(int32_t a, int32_t b, uint64_t t32) {
    return (int32_t)(a + gf__scale_by_t((int64_t)b - a, t32));
}

/* Distance state of one fix against one shape. */
#define GF__HAVE_LOCAL 1u
#define GF__HAVE_MM 2u

typedef struct gf__nearest {
    gf_point fix;
    int64_t fix_lon;        /* fix.lon on the shape's side of the +-180 seam (may lie beyond it by the search's reach) */
    gf__ecef *fix_ecef;     /* the fix's ECEF, computed on first need (the query's, shared with its circles) */
    int *fix_ecef_ready;
    int64_t s_lat, s_lon;   /* scales at the fix: q per GF__SCALE_STEP e7 */
    int64_t best_local;     /* smallest local-frame distance of the first pass, in q (valid with GF__HAVE_LOCAL) */
    int64_t best_mm;        /* smallest exact distance of the second pass, in mm (valid with GF__HAVE_MM) */
    /* One 32-bit word of flags rather than INT64_MAX sentinels or two adjacent flags: on armhf gcc stores a 64-bit
     * constant through a VFP register, which the no-FPU check (rightly) refuses on the query path. */
    uint32_t have;
} gf__nearest;

/* The foot of the fix on edge i (its nearest point in the local frame) as t in 2^-32, and the local distance to it
 * in q, as max + min / 2 of the two axes: between the Euclidean length and 1.118 times it. */
static int64_t gf__local_foot(const gf__shape *s, uint32_t i, const gf__nearest *n, uint64_t *t_out) {
    gf_point a = s->vertices[i], b = s->vertices[i + 1];
    /* Local frame in q: x = dlon * s_lon / 2^16, y = dlat * s_lat / 2^16 (|d| <= 3.6e9, scale <= 1.9e5: < 2^60). */
    int64_t ax = ((int64_t)a.lon - n->fix_lon) * n->s_lon / GF__SCALE_STEP;
    int64_t ay = ((int64_t)a.lat - n->fix.lat) * n->s_lat / GF__SCALE_STEP;
    int64_t dx = ((int64_t)b.lon - a.lon) * n->s_lon / GF__SCALE_STEP;
    int64_t dy = ((int64_t)b.lat - a.lat) * n->s_lat / GF__SCALE_STEP;
    /* Scale the vectors down until every product below fits (components < 2^29). */
    int64_t big = 0;
    int64_t parts[4] = {ax, ay, dx, dy};
    for (int k = 0; k < 4; k++) {
        int64_t v = parts[k] < 0 ? -parts[k] : parts[k];
        if (v > big) big = v;
    }
    unsigned down = 0;
    while ((big >> down) >= ((int64_t)1 << 29)) down++;
    int64_t sax = ax >> down, say = ay >> down, sdx = dx >> down, sdy = dy >> down;
    int64_t len2 = sdx * sdx + sdy * sdy;
    int64_t dot = -(sax * sdx + say * sdy);  /* (fix - a) . (b - a) */
    uint64_t t32;
    if (len2 == 0 || dot <= 0) t32 = 0;
    else if (dot >= len2) t32 = (uint64_t)1 << 32;
    else {
        /* dot < len2 < 2^59: shift both down so that dot << 32 fits. */
        unsigned k = 0;
        while ((dot >> k) >= ((int64_t)1 << 31)) k++;
        int64_t den = len2 >> k;
        t32 = den == 0 ? 0 : ((uint64_t)(dot >> k) << 32) / (uint64_t)den;
        if (t32 > ((uint64_t)1 << 32)) t32 = (uint64_t)1 << 32;
    }
    int64_t fx = ax + gf__scale_by_t(dx, t32);  /* |dx| < 2^34 */
    int64_t fy = ay + gf__scale_by_t(dy, t32);
    int64_t fax = fx < 0 ? -fx : fx, fay = fy < 0 ? -fy : fy;
    *t_out = t32;
    return fax > fay ? fax + fay / 2 : fay + fax / 2;
}

/* Pass 1: the smallest local distance over edge i. */
static void gf__first_pass(const gf__shape *s, uint32_t i, gf__nearest *n) {
    uint64_t t32;
    int64_t local = gf__local_foot(s, i, n, &t32);
    if (!(n->have & GF__HAVE_LOCAL) || local < n->best_local) {
        n->best_local = local;
        n->have |= GF__HAVE_LOCAL;
    }
}

/* The exact distance in mm from the fix to the point t32 of edge i (the fix's ECEF computed on first need). */
static int64_t gf__foot_mm(const gf__shape *s, uint32_t i, gf__nearest *n, uint64_t t32) {
    gf_point a = s->vertices[i], b = s->vertices[i + 1];
    gf_point foot = {gf__lerp(a.lat, b.lat, t32), gf__lerp(a.lon, b.lon, t32)};
    if (!*n->fix_ecef_ready) {
        *n->fix_ecef = gf__ecef_of(n->fix);
        *n->fix_ecef_ready = 1;
    }
    return gf__arc_mm(gf__chord2(*n->fix_ecef, gf__ecef_of(foot)));
}

/* Refining a far foot. The local frame is equirectangular at the fix: it ignores that meridians converge (by dlon *
 * sin(lat) between the fix and the foot) and that the longitude scale changes with latitude (by tan(lat) * dlat), so
 * for a fix d away its foot is off along the edge by up to about d times those angles, which lengthens the distance
 * by that offset squared over 2d: over a metre at 50 km and 76 deg. From 1 km (where it is < 2 mm even at 85 deg) the
 * foot is therefore refined on the exact squared chord: a parabola through three samples h = d / 8 apart around it
 * (the squared chord along an edge is a parabola to within h^2 / R of its vertex, which costs < 1 mm at 50 km; the
 * ECEF rounding moves the vertex by < 1 m). Not beyond 2^26 q (262 km): chords stay below 2^31 q there, so their
 * squares and differences fit in 64 bits. */
#define GF__REFINE_FROM_Q (1000 * GF__Q_PER_M)
#define GF__REFINE_UP_TO_Q ((int64_t)1 << 26)

static uint64_t gf__refined_foot(const gf__shape *s, uint32_t i, gf__nearest *n, uint64_t t32, int64_t local) {
    gf_point a = s->vertices[i], b = s->vertices[i + 1];
    int64_t dx = ((int64_t)b.lon - a.lon) * n->s_lon / GF__SCALE_STEP;
    int64_t dy = ((int64_t)b.lat - a.lat) * n->s_lat / GF__SCALE_STEP;
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    int64_t length = dx > dy ? dx + dy / 2 : dy + dx / 2;  /* 1 .. 1.118 times the edge's local length, in q */
    if (length == 0) return t32;
    uint64_t half = (uint64_t)1 << 31;
    uint64_t h32 = local / 8 >= length / 2 ? half : ((uint64_t)(local / 8) << 32) / (uint64_t)length;
    if (h32 == 0) return t32;
    uint64_t centre = t32 < h32 ? h32 : t32 > ((uint64_t)1 << 32) - h32 ? ((uint64_t)1 << 32) - h32 : t32;
    int64_t f[3];
    for (int k = 0; k < 3; k++) {
        uint64_t t = centre - h32 + (uint64_t)k * h32;
        gf_point p = {gf__lerp(a.lat, b.lat, t), gf__lerp(a.lon, b.lon, t)};
        f[k] = (int64_t)gf__chord2(*n->fix_ecef, gf__ecef_of(p));
    }
    int64_t num = f[0] - f[2], den = 2 * (f[0] - 2 * f[1] + f[2]);
    while (num >= ((int64_t)1 << 30) || num <= -((int64_t)1 << 30)) {
        num /= 2;
        den /= 2;
    }
    if (den <= 0) return t32;  /* not convex at this resolution (the ECEF rounding): keep the local foot */
    int64_t step = (int64_t)h32 * num / den;
    if (step > 2 * (int64_t)h32) step = 2 * (int64_t)h32;
    if (step < -2 * (int64_t)h32) step = -2 * (int64_t)h32;
    int64_t t = (int64_t)centre + step;
    return (uint64_t)(t < 0 ? 0 : t > ((int64_t)1 << 32) ? ((int64_t)1 << 32) : t);
}

/* Pass 2: the exact distance to the foot of every edge whose local distance could make it the nearest. The local
 * distance is at least the true one and at most 1.118 times it, and the local frame is off by < 1e-3 relative plus
 * the rounding (64 q), so the nearest edge is never skipped. */
static void gf__second_pass(const gf__shape *s, uint32_t i, gf__nearest *n) {
    uint64_t t32;
    int64_t local = gf__local_foot(s, i, n, &t32);
    if (local > n->best_local + n->best_local / 4 + 64) return;
    int64_t mm = gf__foot_mm(s, i, n, t32);
    if (local >= GF__REFINE_FROM_Q && local <= GF__REFINE_UP_TO_Q) {
        /* Either foot is a point of the edge, so the nearer one is the better answer. */
        int64_t refined = gf__foot_mm(s, i, n, gf__refined_foot(s, i, n, t32, local));
        if (refined < mm) mm = refined;
    }
    if (!(n->have & GF__HAVE_MM) || mm < n->best_mm) {
        n->best_mm = mm;
        n->have |= GF__HAVE_MM;
    }
}

/* The largest measured distance that may belong to a fix exactly on an edge: the measure's error bound near 0 (20 mm,
 * geofence.h), with room to spare. */
#define GF__ON_EDGE_CHECK_MM 32

/* Whether the fix lies exactly on an edge of its cell (so on the polygon's boundary: distance 0). */
static int gf__on_boundary(const gf__shape *s, int64_t fx, int64_t fy) {
    if (fx < s->x0 || fy < s->y0 || fx >= s->x0 + ((int64_t)s->gx << s->shift)
        || fy >= s->y0 + ((int64_t)s->gy << s->shift))
        return 0;
    uint64_t cell = (uint64_t)((fy - s->y0) >> s->shift) * s->gx + (uint64_t)((fx - s->x0) >> s->shift);
    for (uint32_t k = s->cell_start[cell]; k < s->cell_start[cell + 1]; k++) {
        gf_point a = s->vertices[s->cell_edges[k]], b = s->vertices[s->cell_edges[k] + 1];
        int64_t cross = ((int64_t)b.lon - a.lon) * (fy - a.lat) - ((int64_t)b.lat - a.lat) * (fx - a.lon);
        if (cross != 0) continue;
        if (fx >= (a.lon < b.lon ? a.lon : b.lon) && fx <= (a.lon < b.lon ? b.lon : a.lon)
            && fy >= (a.lat < b.lat ? a.lat : b.lat) && fy <= (a.lat < b.lat ? b.lat : a.lat))
            return 1;
    }
    return 0;
}

int gf__shape_test(const gf__shape *s, gf_point fix, gf__ecef *fix_ecef, int *fix_ecef_ready, uint32_t margin_mm,
                   int64_t *distance_mm) {
    int polygon = s->half_width_mm == 0;
    /* The fix's longitude on the shape's side of the seam (the shape spans at most 180 deg): a fix just west of
     * +180 deg is measured against a shape just east of -180 deg as the neighbour it is, and lon +180 is lon -180. */
    int64_t grid_middle = s->x0 + ((int64_t)s->gx << s->shift) / 2, fix_lon = fix.lon;
    if (fix_lon - grid_middle > GF_LON_MAX_E7) fix_lon -= GF__LON_SPAN_E7;
    if (grid_middle - fix_lon > GF_LON_MAX_E7) fix_lon += GF__LON_SPAN_E7;
    int inside = polygon ? gf__polygon_contains(s, fix_lon, fix.lat) : 0;
    if (polygon && !inside && margin_mm == 0) {
        /* Outside with no margin: a hit only on the boundary itself, where the distance is 0. */
        if (!gf__on_boundary(s, fix_lon, fix.lat)) return 0;
        *distance_mm = 0;
        return 1;
    }

    /* The cells to search: those the query box (fix +- margin) overlaps (a corridor's edges are in every cell their
     * half-width reaches, so that is enough for it), and for a polygon at least the fix's cell and its neighbours,
     * so that an inside fix's distance is exact within a cell of the boundary. */
    gf__box box = gf__box_around(fix, (uint64_t)margin_mm + GF__BOX_SLACK_MM);
    int64_t lon_reach = ((int64_t)box.u_hi - box.u_lo) / 2;  /* the box is fix.lon +- that (modulo 360 deg) */
    int64_t lon_lo = box.full_lon ? -GF_LON_MAX_E7 : fix_lon - lon_reach;
    int64_t lon_hi = box.full_lon ? GF_LON_MAX_E7 : fix_lon + lon_reach;
    int64_t lat_lo = (int64_t)box.lat_lo - GF_LAT_MAX_E7, lat_hi = (int64_t)box.lat_hi - GF_LAT_MAX_E7;
    int64_t side = polygon ? (int64_t)1 << s->shift : 0;
    if (lon_lo > fix_lon - side) lon_lo = fix_lon - side;
    if (lon_hi < fix_lon + side) lon_hi = fix_lon + side;
    if (lat_lo > fix.lat - side) lat_lo = fix.lat - side;
    if (lat_hi < fix.lat + side) lat_hi = fix.lat + side;

    gf__nearest n;
    n.fix = fix;
    n.fix_lon = fix_lon;
    n.fix_ecef = fix_ecef;
    n.fix_ecef_ready = fix_ecef_ready;
    int64_t band = ((int64_t)fix.lat - s->band_lat0) >> GF__BAND_SHIFT;
    if (band < 0) band = 0;
    if (band >= s->band_count) band = s->band_count - 1;
    n.s_lat = s->scales[2 * band];
    n.s_lon = s->scales[2 * band + 1];
    n.have = 0;
    int64_t grid_east = s->x0 + ((int64_t)s->gx << s->shift), grid_north = s->y0 + ((int64_t)s->gy << s->shift);
    if (lon_hi >= s->x0 && lon_lo < grid_east && lat_hi >= s->y0 && lat_lo < grid_north) {
        /* Two passes over the same cells: the local distances first, then exact measures only for the edges that
         * can be the nearest (one or two, where measuring each edge exactly costs an ECEF and a square root). */
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t row = gf__cell_row(s, lat_lo); row <= gf__cell_row(s, lat_hi); row++)
                for (uint32_t col = gf__cell_col(s, lon_lo); col <= gf__cell_col(s, lon_hi); col++) {
                    uint64_t cell = (uint64_t)row * s->gx + col;
                    for (uint32_t k = s->cell_start[cell]; k < s->cell_start[cell + 1]; k++) {
                        if (pass == 0) gf__first_pass(s, s->cell_edges[k], &n);
                        else gf__second_pass(s, s->cell_edges[k], &n);
                    }
                }
    }
    /* A fix exactly on a polygon's edge is at distance 0, whatever the measure's rounding gave (at most its 20 mm
     * error, so only a measure that small is checked): the fix that is a hit at margin 0 (the boundary, above) stays
     * a hit at every larger margin. */
    if (polygon && (n.have & GF__HAVE_MM) && n.best_mm > 0 && n.best_mm <= GF__ON_EDGE_CHECK_MM
        && gf__on_boundary(s, fix_lon, fix.lat))
        n.best_mm = 0;
    /* How far the search reached for sure: the distance from the fix to the nearest side of the searched area that
     * is not the grid's own edge (beyond which there are no edges), as a lower bound in mm. */
    int64_t reach_e7 = INT64_MAX;
    if (lon_lo > s->x0) reach_e7 = fix_lon - lon_lo;
    if (lon_hi < grid_east && lon_hi - fix_lon < reach_e7) reach_e7 = lon_hi - fix_lon;
    if (lat_lo > s->y0 && (int64_t)fix.lat - lat_lo < reach_e7) reach_e7 = (int64_t)fix.lat - lat_lo;
    if (lat_hi < grid_north && lat_hi - fix.lat < reach_e7) reach_e7 = lat_hi - fix.lat;
    int64_t reach_mm = INT64_MAX;
    if (reach_e7 != INT64_MAX) {
        /* mm per e7 >= 2^24 / lon_per_mm (longitude, the smaller of the two scales) at the search's poleward edge. */
        int64_t pole = lat_hi > -lat_lo ? lat_hi : -lat_lo;
        uint32_t deg = (uint32_t)((pole + GF_E7_PER_DEGREE / 2) / GF_E7_PER_DEGREE);
        int64_t per_mm = deg > 90 ? 0 : gf__lon_per_mm_table[deg];
        reach_mm = per_mm == 0 ? 0 : (reach_e7 << 24) / per_mm;
    }
    /* The conversion above uses the longitude scale for every side, which understates a latitude side by cos(lat)
     * (and a longitude side near a degree boundary by a little): the search box holds every point within margin + 50
     * mm of the fix by construction (gf__box_around), so no edge nearer than the margin was missed. */
    if (reach_mm < (int64_t)margin_mm) reach_mm = margin_mm;

    /* The distance to the boundary, or a lower bound on it when no edge was found within reach. */
    int64_t boundary_mm = (n.have & GF__HAVE_MM) && n.best_mm < reach_mm ? n.best_mm : reach_mm;
    if (s->half_width_mm != 0) {
        if (!(n.have & GF__HAVE_MM)) return 0;  /* no edge within reach: outside by more than the margin */
        *distance_mm = n.best_mm - (int64_t)s->half_width_mm;
        return *distance_mm <= (int64_t)margin_mm;
    }
    if (inside) {
        if (boundary_mm > INT32_MAX) boundary_mm = INT32_MAX;
        *distance_mm = -boundary_mm;
        return 1;
    }
    if (!(n.have & GF__HAVE_MM) || n.best_mm > (int64_t)margin_mm) return 0;
    *distance_mm = n.best_mm;
    return 1;
}

int gf__shape_is_edge(const gf__shape *s, uint32_t i) { return gf__is_edge(s, i); }
uint32_t gf__shape_col(const gf__shape *s, int64_t lon) { return gf__cell_col(s, lon); }
uint32_t gf__shape_row(const gf__shape *s, int64_t lat) { return gf__cell_row(s, lat); }
