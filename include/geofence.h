/*
 * geofence.h -- the C core of Geofencing: which of N circular fences is a fix inside or near.
 *
 * Every public symbol starts with gf_ (types, functions) or GF_ (macros, status codes).
 *
 * COORDINATES
 *   WGS-84 latitude and longitude as int32 in units of 1e-7 degree ("e7"):
 *     lat_e7 = round(lat_deg * 1e7),  -900000000 <= lat_e7 <= 900000000
 *     lon_e7 = round(lon_deg * 1e7), -1800000000 <= lon_e7 <= 1800000000 (+180 and -180 are one meridian)
 *   Worked example: Brisbane GPO, -27.4679357, 153.0281038  ->  { -274679357, 1530281038 }.
 *   One unit is 1.11 cm of latitude (and 1.11 cm * cos(lat) of longitude), so rounding a coordinate to e7 moves it
 *   by at most 0.79 cm. Fence centres must lie within |lat| <= 85 degrees; fixes may be anywhere.
 *
 * DISTANCE
 *   Distances are geodesic distances on the WGS-84 ellipsoid (height ignored), in millimetres. The core computes them
 *   from the straight-line chord between the two points in earth-centred (ECEF) coordinates:
 *     chord c = |ECEF(fix) - ECEF(centre)|,   geodesic s = c + c^3 / (24 R^2)   (R = 6371008.8 m)
 *   ECEF is held in units of q = 2^-8 m (3.90625 mm) as int32 (|coordinate| <= 6378137 m = 1.63e9 q); the ECEF of a
 *   point is computed from its e7 coordinate with integer-only arithmetic (per-degree Taylor tables, see
 *   CSources/gf_tables.c) and is accurate to 0.5 q per axis (rounding only; the arithmetic adds < 1e-5 m).
 *
 *   Error budget of a returned distance, against Karney's geodesic between the same e7 points:
 *     ECEF rounding of both points            <= 6.8 mm
 *     chord-to-geodesic series (fixed R)       <= 1.5 mm at 50 km, <= 12 mm at 100 km (1.1 % of c^3 / 24R^2)
 *     square root and millimetre rounding      <= 0.5 mm
 *   so |error| <= 10 mm for s <= 50 km and <= 20 mm for s <= 100 km. Measured over the accuracy fixture (11,709
 *   GeographicLib vectors, r <= 50 km): worst 5.7 mm (at 50 km, where the band is 5.02 m), at most 0.28 of the band
 *   (5.6 mm at r = 2.5 m); along a meridian at the equator: -12.8 mm at 100 km. The tests print the current figures.
 *
 * THE BAND (the accuracy contract)
 *   For a fence of radius r (1 m <= r <= 50 km) the band is  b(r) = 20 mm + r / 10000.
 *   A fix whose geodesic distance d from the centre satisfies d <= r - b(r) is classified inside; d >= r + b(r) is
 *   classified outside; the signed distance returned with a hit differs from d - r by at most b(r).
 *   Spherical haversine, for comparison, is off by up to 0.56 % of r.
 *
 * THREADING
 *   A gf_table has no internal lock. Any number of threads may call the functions that take a const table (gf_query,
 *   gf_query_tracked with a cursor of their own, gf_fence_get, gf_table_count, gf_table_memory, gf_table_verify) at
 *   the same time, provided no thread is inside a mutating function (gf_fence_add, gf_fence_remove, gf_fence_move,
 *   gf_table_destroy) on the same table; callers serialise writers against readers (a reader-writer lock or a single
 *   owning thread). Different tables are independent.
 *   The library has no global mutable state and no lazy initialisation.
 *
 * HOT PATH
 *   gf_query and gf_query_tracked allocate nothing and use no floating point: every translation unit except
 *   gf_convert.c compiles with gcc -mgeneral-regs-only (checked in CI). Work per query grows with the fences near
 *   the fix (for polygons and corridors: with their edges near it), never with N or with a shape's vertex count.
 *
 * PORTABILITY
 *   C11 (static assertions) plus <stdint.h>; no compiler extensions. Assumes two's complement integers, arithmetic
 *   right shift of negative values and 8-bit bytes (every gcc and clang target has them; checked by static asserts in
 *   CSources/gf_internal.h). Int sizes: only the fixed-width types above; size_t and pointers may be 32 or 64 bits.
 *   Alignment: gf_point and gf_hit are 8 bytes with 4-byte alignment (static asserts), so a gf_hit array may sit at
 *   any 4-byte boundary. Byte order does not matter: nothing is serialised. Results are bit-identical on every
 *   architecture (integer arithmetic only; checked on x86-64, aarch64, armhf and s390x by scripts/cross-check.sh).
 */
#ifndef GEOFENCE_H
#define GEOFENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Limits ------------------------------------------------------------------------------------------------- */

#define GF_E7_PER_DEGREE      10000000          /* units of gf_point per degree */
#define GF_LAT_MAX_E7         900000000         /* |lat| of any point */
#define GF_LON_MAX_E7         1800000000        /* |lon| of any point */
#define GF_FENCE_LAT_MAX_E7   850000000         /* |lat| of a fence centre: 85 degrees */
#define GF_RADIUS_MIN_MM      1000u             /* smallest fence radius: 1 m */
#define GF_RADIUS_MAX_MM      50000000u         /* largest fence radius: 50 km */
#define GF_MARGIN_MAX_MM      50000000u         /* largest query margin: 50 km */
#define GF_CAPACITY_MAX       16777215u         /* largest table capacity: 2^24 - 1 fences */
#define GF_SHAPE_VERTICES_MAX 4000000u          /* most vertices of one polygon (all rings) or corridor */
#define GF_SHAPE_CELL_EDGES_MAX 256u            /* most edges one cell of a shape's edge grid lists (see Polygons) */

/* ---- Types -------------------------------------------------------------------------------------------------- */

/* A WGS-84 position in 1e-7 degree. */
typedef struct gf_point {
    int32_t lat;    /* latitude,  -900000000 .. 900000000 */
    int32_t lon;    /* longitude, -1800000000 .. 1800000000 */
} gf_point;

/* A stable name for a fence: valid from gf_fence_add until gf_fence_remove, unchanged by gf_fence_move.
 * Layout: bits 0..23 the slot, bits 24..31 a generation (1..255) that changes each time the slot is reused, so a
 * stale handle is detected (unless the slot was reused exactly a multiple of 255 times since). Never 0. */
typedef uint32_t gf_handle;
#define GF_HANDLE_NONE ((gf_handle)0)

/* One query result: a fence that contains the fix or whose boundary lies within the margin of it. */
typedef struct gf_hit {
    gf_handle handle;       /* the fence */
    int32_t   distance_mm;  /* signed distance from the boundary: negative inside, positive outside (error <= band) */
} gf_hit;

/* A set of fences with a spatial index. Opaque. */
typedef struct gf_table gf_table;

/* Result codes. Every function that can fail returns one; nothing else reports errors (no errno). */
typedef enum gf_status {
    GF_OK = 0,              /* success */
    GF_ERR_NULL = 1,        /* a required pointer argument is NULL */
    GF_ERR_LATITUDE = 2,    /* latitude NaN, infinite, beyond +-90 degrees, or a fence centre beyond +-85 degrees */
    GF_ERR_LONGITUDE = 3,   /* longitude NaN, infinite or beyond +-180 degrees */
    GF_ERR_RADIUS = 4,      /* radius outside GF_RADIUS_MIN_MM .. GF_RADIUS_MAX_MM */
    GF_ERR_MARGIN = 5,      /* margin above GF_MARGIN_MAX_MM */
    GF_ERR_CAPACITY = 6,    /* the table holds its capacity already, or a capacity of 0 or above GF_CAPACITY_MAX */
    GF_ERR_HANDLE = 7,      /* the handle names no live fence of this table (never added, removed, or stale) */
    GF_ERR_NOMEM = 8,       /* memory allocation failed; the table is unchanged */
    GF_ERR_TRUNCATED = 9,   /* the hit buffer was too short: it holds the first hits, *count tells how many exist */
    GF_ERR_CORRUPT = 10,    /* gf_table_verify found a broken invariant (a bug in this library) */
    GF_ERR_SHAPE = 11,      /* a polygon or corridor the core does not take (see gf_polygon_add, gf_corridor_add) */
    GF_ERR_KIND = 12        /* the handle names a polygon or corridor, and the function takes circles only */
} gf_status;

/* The name of a status code ("GF_ERR_RADIUS"), or "GF_UNKNOWN" for a value that is none of them. Never NULL. */
const char *gf_status_name(gf_status status);

/* A one-line English description of a status code. Never NULL. */
const char *gf_status_message(gf_status status);

/* ---- Coordinates (the only functions that use floating point) -------------------------------------------------- */

/* Converts degrees to a gf_point, rounding each coordinate to the nearest 1e-7 degree (ties away from zero).
 * lat_deg in [-90, 90] and lon_deg in [-180, 180]; lon_deg = 180 becomes -1800000000 (the same meridian).
 * Returns GF_ERR_LATITUDE or GF_ERR_LONGITUDE for NaN, infinities and out-of-range values (out untouched),
 * GF_ERR_NULL if out is NULL. */
gf_status gf_point_from_degrees(double lat_deg, double lon_deg, gf_point *out);

/* Converts a gf_point back to degrees (exact to the double's precision). Either output may be NULL. */
void gf_point_to_degrees(gf_point point, double *lat_deg, double *lon_deg);

/* ---- Distance (integer only) ----------------------------------------------------------------------------------- */

/* The core's geodesic distance in millimetres between two points, computed exactly as gf_query computes it.
 * Error against Karney's geodesic <= 20 mm for distances up to 100 km (see DISTANCE); beyond that the error grows
 * with the cube of the distance (0.3 m at 670 km): the function serves fences, not continents.
 * Returns GF_ERR_LATITUDE / GF_ERR_LONGITUDE for coordinates out of range, GF_ERR_NULL if distance_mm is NULL. */
gf_status gf_distance(gf_point a, gf_point b, int64_t *distance_mm);

/* ---- Fence table --------------------------------------------------------------------------------------------- */

/* Creates an empty table that will hold up to capacity fences (1 .. GF_CAPACITY_MAX). Memory grows with the fences
 * actually added, not with capacity. Returns GF_ERR_CAPACITY, GF_ERR_NOMEM or GF_ERR_NULL (out NULL). */
gf_status gf_table_create(uint32_t capacity, gf_table **out);

/* Frees a table and everything in it. NULL is allowed and does nothing. Handles of the table become invalid. */
void gf_table_destroy(gf_table *table);

/* The number of live fences. */
uint32_t gf_table_count(const gf_table *table);

/* The capacity given to gf_table_create. */
uint32_t gf_table_capacity(const gf_table *table);

/* The bytes the table has allocated right now (fence records, index cells, index entries), as counted by its own
 * allocations. */
size_t gf_table_memory(const gf_table *table);

/* Adds a circular fence. centre: |lat| <= GF_FENCE_LAT_MAX_E7, |lon| <= GF_LON_MAX_E7; radius_mm:
 * GF_RADIUS_MIN_MM .. GF_RADIUS_MAX_MM. On success stores the new fence's handle in *out.
 * Errors: GF_ERR_NULL, GF_ERR_LATITUDE, GF_ERR_LONGITUDE, GF_ERR_RADIUS, GF_ERR_CAPACITY, GF_ERR_NOMEM; on any error
 * the table is unchanged. Amortised O(1) (plus the few index cells the fence covers). */
gf_status gf_fence_add(gf_table *table, gf_point centre, uint32_t radius_mm, gf_handle *out);

/* Removes a fence; its handle becomes invalid. Errors: GF_ERR_NULL, GF_ERR_HANDLE (table unchanged).
 * O(1) amortised plus the length of the index cells the fence is in (every so often a removal rebuilds the index's
 * occupancy filter: one pass over its hash slots). Never allocates. */
gf_status gf_fence_remove(gf_table *table, gf_handle handle);

/* Moves and/or resizes a fence, keeping its handle. Same argument rules as gf_fence_add plus GF_ERR_HANDLE.
 * On any error the fence keeps its old centre and radius. */
gf_status gf_fence_move(gf_table *table, gf_handle handle, gf_point centre, uint32_t radius_mm);

/* Reads a fence's centre and radius. Either output may be NULL. Errors: GF_ERR_NULL (table), GF_ERR_HANDLE. */
gf_status gf_fence_get(const gf_table *table, gf_handle handle, gf_point *centre, uint32_t *radius_mm);

/* The signed distance in mm from a fix to one fence's boundary (negative inside), as gf_query computes it.
 * Circles: exact (within the DISTANCE error) at any distance. Polygons and corridors: exact when the fix is within
 * limit_mm of the boundary; outside beyond it, limit_mm + 1 (only "farther than the limit" is known); inside deeper
 * than it, at least limit_mm in magnitude and at most the true depth. Cost: a circle's one distance; a shape's
 * query test with limit_mm as margin (the edges of its cells within the limit: a large limit on a large shape
 * walks many edges). Errors: GF_ERR_NULL, GF_ERR_LATITUDE / GF_ERR_LONGITUDE (the fix), GF_ERR_MARGIN (limit_mm >
 * GF_MARGIN_MAX_MM), GF_ERR_HANDLE. Integer only, allocation-free. */
gf_status gf_fence_distance(const gf_table *table, gf_handle handle, gf_point fix, uint32_t limit_mm,
                            int64_t *distance_mm);

/* ---- Polygons and corridors -------------------------------------------------------------------------------------
 *
 * Fences of other shapes in the same table: the same handles, queries, margins and signed distances as circles.
 * Their edges are straight lines in (longitude, latitude), as GeoJSON's are (RFC 7946 3.1.1).
 *   Polygon: inside by the even-odd rule over all its rings (an outer ring and holes, any orientation), decided
 *   exactly on the e7 integers (a point exactly on an edge is decided as if moved by an infinitesimal step east and a
 *   smaller one north). Signed distance: minus/plus the geodesic distance to the nearest point of any edge.
 *   Corridor: a path with a half-width W (a road, a route): inside when the geodesic distance to the path is at most
 *   W; signed distance = that distance - W.
 * Distance error <= 20 mm + 1e-7 * distance (see CSources/gf_shape.c). For a fix inside a polygon the distance is
 * exact within the query margin and at least one cell of the polygon's own edge grid (about its mean edge length)
 * of the boundary; deeper inside it is reported as how far the search reached: a lower bound on the depth, at least
 * the margin (gf_fence_distance measures it with a larger limit).
 * The edge grid: square cells over the shape's box, about one per edge, each listing the edges that pass through it
 * (corridors: whose half-width reaches it). Built in O(V log) time whatever the shape: a grid whose cells would list
 * more than 8 entries per edge (long edges across many cells) is made coarser, and one that leaves more than
 * GF_SHAPE_CELL_EDGES_MAX edges in a cell (detail crowded in one place) finer, up to 16 cells per edge; a shape for
 * which no such grid keeps every cell to GF_SHAPE_CELL_EDGES_MAX edges (many edges meeting at one point, rings on top
 * of each other, thousands of long edges side by side) is refused with GF_ERR_SHAPE (gf_polygon_check names it
 * GF_SHAPE_FAULT_DENSE).
 * Work per query: the edges of the grid cells the query searches, at most GF_SHAPE_CELL_EDGES_MAX each: the fix's cell
 * for inside or not, the cells within the margin (and at least the fix's cell and its 8 neighbours) for the distance.
 * Never all of a shape's vertices.
 * Limits: vertices within |lat| <= 85 deg; no shape (with its half-width) across +-180 deg or wider than 180 deg
 * of longitude; at most GF_SHAPE_VERTICES_MAX vertices; at most GF_SHAPE_CELL_EDGES_MAX edges per grid cell.
 * Memory: about 8 + 12 bytes per vertex for most shapes, at most 8 + 4 * (8 entries + 16 cells) + 4 bytes per edge,
 * allocated at add.
 * Validity: a polygon's rings are decided by the even-odd rule as given; gf_polygon_check tells whether they form a
 * valid ring set (where that rule means the union of parts minus their holes, as GeoJSON does) and how they nest.
 * A corridor's path may be any polyline (it may cross or retrace itself: the distance to it is still defined); only
 * the density limit applies to it.
 * gf_fence_remove removes them; gf_fence_move and gf_fence_get return GF_ERR_KIND for them. */

/* Adds a polygon of ring_count rings: ring i is vertices[ring_ends[i - 1] .. ring_ends[i]) (ring_ends[-1] = 0),
 * at least 3 vertices each, without repeating the first vertex at the end (a repeated one is ignored). The first ring
 * is the outer boundary, the others holes (the even-odd rule does not check that they nest: gf_polygon_check does).
 * Errors: GF_ERR_NULL, GF_ERR_LATITUDE / GF_ERR_LONGITUDE (a vertex), GF_ERR_SHAPE (ring_count 0, a ring of fewer
 * than 3 vertices, ring_ends not increasing, too many vertices, across +-180 deg, too many edges crowded in one
 * place), GF_ERR_CAPACITY, GF_ERR_NOMEM; on any error the table is unchanged. Time O(V log V), memory O(V). */
gf_status gf_polygon_add(gf_table *table, const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count,
                         gf_handle *out);

/* What is wrong with a polygon or corridor that gf_polygon_check (or an add, for the faults it checks) refuses. */
typedef enum gf_shape_fault {
    GF_SHAPE_FAULT_NONE = 0,        /* nothing: the shape is valid */
    GF_SHAPE_FAULT_ARGUMENTS = 1,   /* the status says what (no ring, a ring of < 3 vertices, ring_ends, a vertex) */
    GF_SHAPE_FAULT_SPAN = 2,        /* across +-180 deg or wider than 180 deg of longitude */
    GF_SHAPE_FAULT_ZERO_AREA = 3,   /* ring `ring` encloses no area (fewer than 3 distinct vertices, all on a line) */
    GF_SHAPE_FAULT_CROSSING = 4,    /* rings `ring` and `other_ring` (the same ring when it meets itself) cross or
                                     * share part of an edge, or a ring touches itself, near `at` */
    GF_SHAPE_FAULT_DENSE = 5        /* more than GF_SHAPE_CELL_EDGES_MAX edges near `at`: one cell of the edge grid,
                                     * as fine as its memory budget allows, would list them all */
} gf_shape_fault;

/* gf_polygon_check's account of a refused shape. */
typedef struct gf_shape_problem {
    gf_shape_fault fault;
    uint32_t ring;          /* the ring at fault (0-based), when the fault names one */
    uint32_t other_ring;    /* GF_SHAPE_FAULT_CROSSING: the other ring (== ring when a ring meets itself) */
    gf_point at;            /* a vertex near the fault: an end of one of the edges concerned, or of a dense cell */
} gf_shape_problem;

/* "No ring": gf_polygon_check's parent of a ring that no other ring contains. */
#define GF_RING_NONE UINT32_MAX

/* Checks that a polygon's rings (as gf_polygon_add takes them) form a valid ring set, where the even-odd rule means
 * what GeoJSON (RFC 7946) and OGC simple features mean: every ring encloses a non-zero area; no two edges cross or
 * overlap along a line; a ring meets itself only where consecutive edges share their vertex; two rings may touch at
 * single points but not cross there. Then rings nest: parents[i] (when parents is not NULL; ring_count entries) is
 * set to the innermost other ring containing ring i, or GF_RING_NONE. A caller that knows which rings are outer rings
 * and which holes compares that nesting with it: a hole's parent must be its own outer ring, an outer ring's parent
 * none or a hole of another part (an island in a lake). gf_polygon_add itself does not require a valid ring set: it
 * decides any rings by the even-odd rule, which for invalid ones need not be what their author meant.
 * Also refuses what gf_polygon_add refuses (the same status). Returns GF_OK (problem->fault NONE), GF_ERR_SHAPE with
 * *problem saying what and where, GF_ERR_LATITUDE / GF_ERR_LONGITUDE / GF_ERR_NULL (problem: ARGUMENTS), or
 * GF_ERR_NOMEM. Time: the edge grid's build, at most GF_SHAPE_CELL_EDGES_MAX / 2 edge-pair tests per grid entry,
 * a sort of the rings, and per ring a walk west along one grid row to the first edge of another ring (at most the
 * row's cells). Memory O(V), freed before returning. Integer only; exact. */
gf_status gf_polygon_check(const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count,
                           uint32_t *parents, gf_shape_problem *problem);

/* Adds a corridor: the path path[0 .. count) (count >= 2) with half-width half_width_mm (GF_RADIUS_MIN_MM ..
 * GF_RADIUS_MAX_MM). Errors as gf_polygon_add, GF_ERR_RADIUS for the half-width. */
gf_status gf_corridor_add(gf_table *table, const gf_point *path, uint32_t count, uint32_t half_width_mm,
                          gf_handle *out);

/* ---- Query (integer only, allocation-free) ----------------------------------------------------------------------- */

/* Finds every fence that contains the fix or whose boundary lies within margin_mm of it, that is every fence whose
 * signed distance (as computed, see DISTANCE) is <= margin_mm. The fix may be anywhere (|lat| <= 90 degrees).
 *   hits, capacity: a caller-provided buffer of capacity entries (hits may be NULL when capacity is 0).
 *   count: set to the number of matching fences, which may exceed capacity.
 * Each matching fence appears once. The order is deterministic for a given sequence of table operations (the same on
 * every architecture): index level by level, and within a level by the fences' internal slots (the order they were
 * added in, until removals free slots for reuse); nothing else is promised.
 * Returns GF_OK, GF_ERR_TRUNCATED when *count > capacity (the buffer holds capacity of the hits), GF_ERR_NULL,
 * GF_ERR_LATITUDE / GF_ERR_LONGITUDE (fix out of range), GF_ERR_MARGIN (margin_mm > GF_MARGIN_MAX_MM); on those
 * errors *count is 0 when count is not NULL.
 * Cost: four cell lookups per occupied index level (2 x 2 around the fix; most lookups of empty cells end at a filter
 * bit) and a box compare per fence in the probed cells; the distance test only for fences whose box overlaps the
 * fix's. A margin much larger than the fences near the fix probes more cells (about (2 * margin / cell size + 2)^2
 * per level), at most one pass over the index's hash slots per level. */
gf_status gf_query(const gf_table *table, gf_point fix, uint32_t margin_mm,
                   gf_hit *hits, size_t capacity, size_t *count);

/* ---- Tracking one vehicle (integer only, allocation-free) ------------------------------------------------------ */

/* What gf_query_tracked remembers between the fixes of one vehicle: an area around the last fix and the fences
 * whose index box meets it, with those boxes, so that a fix in the same area (most fixes of a drive) skips the hash
 * lookups and tests only those fences. The area is 8 x 8 cells of the finest occupied index level (728 m or more on
 * a side), or 8 x 8 query boxes when those are wider, when at most GF_CURSOR_CANDIDATES fences meet it (narrower
 * after an area whose fences were dense enough that every fix would test many); else a square half as wide, and so
 * on down to one such cell, or, when more than GF_CURSOR_CANDIDATES meet even that, the one cell with no fences
 * remembered (fixes there search the index). Opaque
 * storage, owned by the caller (on the stack, in a struct: anywhere); no allocation, nothing to free.
 * A cursor belongs to one table at a time: any add, remove or move on that table makes it forget (checked on each
 * query), and it notices being used with another table, except with a new table created at the address of a
 * destroyed one: call gf_cursor_reset before using a cursor with a different table. Not shared between threads
 * (each thread or vehicle has its own; the table may be shared as gf_query allows). */
/* Most fences a cursor remembers (more: fixes in its area search the index). Enough for a 4 x 4 area among a city's
 * densely placed stops, where a smaller cursor overflows and a drive pays the index's lookups at every fix; a cursor
 * is then about 1.3 KB. */
#define GF_CURSOR_CANDIDATES 64

typedef struct gf_cursor {
    /* Private: read and written only by the library. */
    const struct gf_table *table_;  /* the table it remembers, or NULL */
    uint64_t epoch_;                /* that table's epoch (changed by every add, remove, move) */
    uint32_t lat_lo_, lat_hi_;      /* the area (grid offsets): a square, 2^k finest cells on a side */
    uint32_t u_lo_, u_hi_;
    uint32_t margin_mm_;            /* the margin the reaches below are for; UINT32_MAX: none */
    uint32_t lat_reach_, lon_reach_; /* a query box's half-extents (e7) for that margin, the largest in the area */
    uint32_t area_;                 /* 0 when it remembers an area; UINT32_MAX when nothing */
    uint32_t candidates_;           /* how many of candidate_ hold; UINT32_MAX: too many, search the index */
    uint32_t candidate_[GF_CURSOR_CANDIDATES];  /* level index << 24 | fence slot, in query order */
    uint32_t box_[GF_CURSOR_CANDIDATES][4];     /* where their boxes meet the area, as the fix offsets (lat + 90,
                                                 * lon + 180 deg, e7) whose query box meets them: latitudes from [0],
                                                 * [1] more, longitudes from [2], [3] more (modulo 2^32) */
} gf_cursor;

/* Makes a cursor remember nothing (also what zero-filled storage means). */
void gf_cursor_reset(gf_cursor *cursor);

/* gf_query for consecutive fixes of one vehicle: the same results, in the same order, as gf_query with the same
 * arguments, for any sequence of fixes; faster when consecutive fixes are near each other. Same errors as gf_query;
 * GF_ERR_NULL also for a NULL cursor. */
gf_status gf_query_tracked(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count);

/* ---- Debugging ---------------------------------------------------------------------------------------------- */

/* Checks every invariant of the table (each live fence is in exactly the index cells its bounding box covers, every
 * index entry names a live fence, counts agree). O(fences + cells). Returns GF_OK or GF_ERR_CORRUPT. For tests. */
gf_status gf_table_verify(const gf_table *table);

/* The size of a polygon's or corridor's edge grid, which bounds a query's work on it: each fix tests the edges of
 * at most `densest` per cell it searches. */
typedef struct gf_shape_grid {
    uint32_t edges;     /* edges of non-zero length */
    uint32_t cells;     /* cells of the grid */
    uint32_t entries;   /* (cell, edge) entries: at most 8 per edge + 64 */
    uint32_t densest;   /* most edges of one cell: at most GF_SHAPE_CELL_EDGES_MAX */
} gf_shape_grid;

/* Reads the grid of the shape `handle`. Errors: GF_ERR_NULL, GF_ERR_HANDLE, GF_ERR_KIND (a circle). For tests. */
gf_status gf_shape_grid_of(const gf_table *table, gf_handle handle, gf_shape_grid *grid);

#ifdef __cplusplus
}
#endif

#endif /* GEOFENCE_H */
