/*
 * fuzz_core.c -- libFuzzer target for the C core API (include/geofence.h).
 *
 * The input bytes are a program: the first byte picks the table's capacity (1..MODEL_MAX), then each operation is an
 * opcode byte followed by the bytes its arguments consume (missing bytes read as 0, so every input is valid). The
 * operations are gf_fence_add (single and a burst of clustered fences), gf_polygon_add (random small polygons with
 * holes, self-crossing ones too, sometimes on a lattice or malformed), gf_corridor_add (random walks with U-turns and
 * repeated vertices), gf_fence_remove, gf_fence_move and gf_fence_get with live, removed, stale and made-up handles,
 * gf_query, gf_fence_distance and gf_distance. Points come from a generator that mixes raw 32-bit values (mostly out of
 * range), valid points anywhere (|lat| up to 90 degrees, lon up to +-180), the exact limits and one unit past them,
 * the +-180 seam, the poles, points near or on a live circle's boundary, on or next to a shape's edges, and between
 * two of a shape's vertices (often deep inside).
 *
 * The oracle is a brute-force model kept here: the array of live fences (handle, centre, radius, or the shape as
 * given) and the handles removed lately. Shapes are judged by shape_oracle.c: even-odd point-in-polygon on the e7
 * integers, and point-to-edge distances by golden-section search along each edge with the chord formula in double
 * precision; a fix exactly on an edge may fall either side (the core's tie rule) but must be a hit at distance 0.
 * After every operation:
 *   - the status is GF_OK iff every argument is valid (and, for an add, the table is below capacity); otherwise it is
 *     one of the errors that apply (the contract lists them, not their order), and the table is unchanged;
 *   - gf_table_verify is GF_OK, gf_table_count equals the model's, and gf_fence_get returns every live fence as the
 *     model has it;
 *   - after a query: exactly the live circles whose signed distance gf_distance(fix, centre) - radius is <= margin are
 *     reported, each once, with exactly that distance; every polygon containing the fix and every shape whose
 *     signed distance is below margin - e is reported, none above margin + e (e = 20 mm + 1e-7 |d|, the documented
 *     error, + 2 mm for the model), with its distance within e, or for a fix deeper inside a polygon than the margin
 *     between -depth - e and -margin; a polygon never at margin 0 for a fix outside it; each hit's distance is what
 *     gf_fence_distance gives with the margin as its limit; no removed handle ever appears; gf_query_tracked (one
 *     cursor kept across the whole run) gives the same answer; a short buffer (allocated to its exact size, so ASan
 *     catches a write past it) gets GF_ERR_TRUNCATED, the true count and the first hits of the full answer; a
 *     repeated query gives the same answer (the order is deterministic).
 *   - after gf_fence_distance: a circle's is exactly gf_distance - radius; a shape's, with limit L, is within e of
 *     the model's within L, L + 1 outside beyond it, between -depth - e and -L inside deeper than it;
 *   - after a shape's add: the errors the arguments call for (a ring of fewer than 3 vertices, ring ends not
 *     increasing, no ring, a vertex out of range, no edge of non-zero length, a polygon wider than 180 deg; for a
 *     corridor near +-180 deg GF_ERR_SHAPE may also come), gf_fence_get and gf_fence_move give GF_ERR_KIND;
 *   - after gf_distance: symmetric, zero from a point to itself, and within its error bound of the same formula
 *     (ECEF chord c, s = c + c^3 / 24R^2) evaluated independently in double precision from WGS-84 (see
 *     check_distance for the bound).
 * gf_distance is the exact reference for the query (the query promises its own distances, not the geodesic's); the
 * accuracy against Karney's geodesic is the job of Tests/CoreC/accuracy.c.
 *
 * A broken expectation prints what differed and aborts, which libFuzzer records as a crash with its input.
 * Built by `make fuzz-core` (clang, -fsanitize=fuzzer,address,undefined, GF_DEBUG=1); run by scripts/fuzz-core.sh.
 * Seed corpus, fuzz/core/corpus/ (handcrafted in this byte format; libFuzzer mutates from them):
 *   seam-and-poles      bursts of fences on both sides of +-180 (Fiji, 82.5 N), queries across the seam and at 90 N
 *   generation-wrap     capacity 1, one slot added and removed 300 times (the 8-bit generation wraps), dead handles
 *   boundaries          fences of 1 m .. 33 km in a city, queried a few e7 north and south of each boundary
 *   invalid-arguments   the limits and one unit past them, raw values, radius 999 mm and 50 km + 1 mm, margin
 *                       50 km + 1 mm, handle 0, pole to pole distance
 *   full-table          capacity 4 with six adds, moves across the world and back, removes and re-adds
 *   polygons-and-corridors  a concave star with a square hole in Brisbane, lattice boxes on both sides of +-180 at
 *                       Fiji, a corridor with U-turns at 82.5 N; queries and gf_fence_distance between vertices and
 *                       on edges; two removals
 * and reproducers of the fuzzer's own findings (2026-11-29):
 *   shape-across-seam   a 4 cm triangle just east of -180 deg at 84.9 S queried from just west of +180 deg (the core
 *                       missed it: the seam fix in gf_shape.c)
 *   zero-length-ring    a hole whose vertices are all one point: no edge, so no distance to it (the model counted it)
 */
#include "geofence.h"
#include "shape_oracle.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to 128 fences: enough for index cells to hold many entries and for the cell hash to grow, few enough that the
 * brute-force check after each query stays cheap (one gf_distance per circle; a shape's edge search only when the fix
 * is within the margin of its vertices' box or inside it). */
enum { MODEL_MAX = 128, STALE_KEPT = 32, BUFFER_MAX = MODEL_MAX + 8 };

/* ---- Failure ---- */

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("fuzz_core: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    abort();
}

/* ---- Reading the input ---- */

typedef struct reader {
    const uint8_t *data;
    size_t size;
    size_t at;
} reader;

static uint8_t take8(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }
static uint16_t take16(reader *r) { return (uint16_t)(take8(r) | (uint16_t)take8(r) << 8); }
static uint32_t take32(reader *r) { return take16(r) | (uint32_t)take16(r) << 16; }
static int64_t take_signed16(reader *r) { return (int16_t)take16(r); }
/* Uniform enough in lo..hi (inclusive, span < 2^32) from 4 input bytes. */
static int64_t take_range(reader *r, int64_t lo, int64_t hi) {
    return lo + (int64_t)(take32(r) % (uint64_t)(hi - lo + 1));
}

/* ---- The model ---- */

/* A circle (centre, radius) or a shape (is_shape: a polygon or corridor; centre is its first vertex, radius 0). */
typedef struct fence {
    gf_handle handle;
    gf_point centre;
    uint32_t radius_mm;
    int is_shape;
    fz_shape shape;
} fence;

typedef struct model {
    gf_table *table;
    uint32_t capacity;
    fence live[MODEL_MAX];            /* the live fences, in no order */
    uint32_t count;
    gf_handle stale[STALE_KEPT];      /* the last removed handles (a ring) */
    uint32_t stale_count, stale_next;
    gf_cursor cursor;                 /* one vehicle's cursor, kept across every operation of a run */
} model;

/* The index of the live fence with this handle, or -1. */
static int find_live(const model *m, gf_handle handle) {
    for (uint32_t i = 0; i < m->count; i++)
        if (m->live[i].handle == handle) return (int)i;
    return -1;
}

/* A bit per status code that the contract allows for the arguments at hand; 0 means GF_OK is the only answer. */
typedef uint32_t allowed;
#define ALLOW(status) ((allowed)1 << (status))

static allowed fence_errors(gf_point centre, uint32_t radius_mm) {
    allowed errors = 0;
    if (centre.lat < -GF_FENCE_LAT_MAX_E7 || centre.lat > GF_FENCE_LAT_MAX_E7) errors |= ALLOW(GF_ERR_LATITUDE);
    if (centre.lon < -GF_LON_MAX_E7 || centre.lon > GF_LON_MAX_E7) errors |= ALLOW(GF_ERR_LONGITUDE);
    if (radius_mm < GF_RADIUS_MIN_MM || radius_mm > GF_RADIUS_MAX_MM) errors |= ALLOW(GF_ERR_RADIUS);
    return errors;
}

static allowed point_errors(gf_point p) {
    allowed errors = 0;
    if (p.lat < -GF_LAT_MAX_E7 || p.lat > GF_LAT_MAX_E7) errors |= ALLOW(GF_ERR_LATITUDE);
    if (p.lon < -GF_LON_MAX_E7 || p.lon > GF_LON_MAX_E7) errors |= ALLOW(GF_ERR_LONGITUDE);
    return errors;
}

static void expect_status(gf_status got, allowed errors, const char *what) {
    if (errors == 0 && got != GF_OK) fail("%s: got %s, want GF_OK", what, gf_status_name(got));
    if (errors != 0 && (got == GF_OK || (unsigned)got >= 32 || (errors & ALLOW(got)) == 0))
        fail("%s: got %s, want one of the errors 0x%x", what, gf_status_name(got), (unsigned)errors);
}

/* The table must be valid and hold exactly the model's fences. */
static void check_table(const model *m, const char *after) {
    gf_status status = gf_table_verify(m->table);
    if (status != GF_OK) fail("gf_table_verify after %s: %s", after, gf_status_name(status));
    if (gf_table_count(m->table) != m->count)
        fail("after %s: gf_table_count %u, model %u", after, (unsigned)gf_table_count(m->table), (unsigned)m->count);
    for (uint32_t i = 0; i < m->count; i++) {
        const fence *f = &m->live[i];
        gf_point centre = {0, 0};
        uint32_t radius_mm = 0;
        status = gf_fence_get(m->table, f->handle, &centre, &radius_mm);
        if (f->is_shape) {  /* a polygon or corridor: GF_ERR_KIND, nothing written */
            if (status != GF_ERR_KIND || centre.lat != 0 || centre.lon != 0 || radius_mm != 0)
                fail("after %s: gf_fence_get of shape %#x = %s, wrote (%d, %d) r %u", after, (unsigned)f->handle,
                     gf_status_name(status), centre.lat, centre.lon, (unsigned)radius_mm);
            continue;
        }
        if (status != GF_OK || centre.lat != f->centre.lat || centre.lon != f->centre.lon || radius_mm != f->radius_mm)
            fail("after %s: gf_fence_get(%#x) = %s (%d, %d) r %u, model (%d, %d) r %u", after, (unsigned)f->handle,
                 gf_status_name(status), centre.lat, centre.lon, (unsigned)radius_mm, f->centre.lat, f->centre.lon,
                 (unsigned)f->radius_mm);
    }
}

/* ---- Generators ---- */

static int32_t wrap_lon(int64_t lon_e7) {
    while (lon_e7 > GF_LON_MAX_E7) lon_e7 -= 2LL * GF_LON_MAX_E7;
    while (lon_e7 < -GF_LON_MAX_E7) lon_e7 += 2LL * GF_LON_MAX_E7;
    return (int32_t)lon_e7;
}

/* Saturates to int32 without wrapping (a latitude pushed past the pole stays out of range, which is a test too). */
static int32_t saturate32(int64_t value) {
    return (int32_t)(value > INT32_MAX ? INT32_MAX : value < INT32_MIN ? INT32_MIN : value);
}

static const int32_t special_lats[] = {
    0, GF_FENCE_LAT_MAX_E7, -GF_FENCE_LAT_MAX_E7, GF_FENCE_LAT_MAX_E7 + 1, -GF_FENCE_LAT_MAX_E7 - 1,
    GF_LAT_MAX_E7, -GF_LAT_MAX_E7, GF_LAT_MAX_E7 + 1, -GF_LAT_MAX_E7 - 1, INT32_MAX, INT32_MIN, 1, -1,
};
static const int32_t special_lons[] = {
    0, GF_LON_MAX_E7, -GF_LON_MAX_E7, GF_LON_MAX_E7 - 1, -GF_LON_MAX_E7 + 1, GF_LON_MAX_E7 + 1, -GF_LON_MAX_E7 - 1,
    INT32_MAX, INT32_MIN, 900000000, -900000000, 1, -1,
};
/* Places where the index has special cases (the seam, high latitudes) and a dense city. */
static const gf_point clusters[] = {
    {-274679357, 1530281038}, {-171000000, 1799500000}, {-171000000, -1799500000}, {825000000, 1799000000},
    {-845000000, -1795000000}, {849990000, 0}, {0, 0}, {0, GF_LON_MAX_E7},
};
#define COUNT_OF(a) (sizeof (a) / sizeof (a)[0])

/* A random offset of up to 32767 units of 2^0 .. 2^15 e7 (up to 3.6 km .. 117,000 km-equivalent; the big ones wrap
 * in longitude or leave the latitude range). */
static int64_t take_offset(reader *r) {
    unsigned shift = take8(r) % 16;
    return take_signed16(r) * ((int64_t)1 << shift);
}

/* A point near fence f. Not `boundary`: near a circle's centre, or between two vertices of a shape (often deep inside
 * it) and up to 2^15 e7 (3.6 km) off. `boundary`: near a circle's boundary, north or south of the centre (0.0899 e7 of
 * latitude per mm at the equator, a little less towards the poles: close enough to land within metres of it), or next
 * to (or exactly on) one of a shape's edges. */
static gf_point take_point_near(reader *r, const fence *f, int boundary) {
    gf_point p;
    if (f->is_shape) {
        const fz_shape *s = &f->shape;
        uint32_t n = s->ring_ends[s->rings - 1], i = take8(r) % n;
        gf_point a = s->v[i], b = boundary ? s->v[i + 1 < n ? i + 1 : 0] : s->v[take8(r) % n];
        int64_t t = take8(r);  /* 0 .. 255 of 256: the edge's points, its ends included */
        int64_t north, east;
        if (boundary) {
            north = take8(r) & 1 ? (int8_t)take8(r) : 0;
            east = take8(r) & 1 ? (int8_t)take8(r) : 0;
        } else {
            unsigned shift = take8(r) % 16;
            north = take_signed16(r) >> shift;
            east = take_signed16(r) >> shift;
        }
        p.lat = saturate32(a.lat + ((int64_t)b.lat - a.lat) * t / 256 + north);
        p.lon = wrap_lon(a.lon + ((int64_t)b.lon - a.lon) * t / 256 + east);
        return p;
    }
    if (!boundary) {
        p.lat = saturate32(f->centre.lat + take_offset(r));
        p.lon = wrap_lon(f->centre.lon + take_offset(r));
        return p;
    }
    int64_t reach = (int64_t)f->radius_mm * 899 / 10000;
    p.lat = saturate32(f->centre.lat + ((take8(r) & 1) ? reach : -reach) + (int8_t)take8(r));
    p.lon = wrap_lon(f->centre.lon + (int8_t)take8(r));
    return p;
}

static gf_point take_point(reader *r, const model *m) {
    gf_point p = {0, 0};
    uint8_t mode = take8(r) % 10;
    if ((mode == 6 || mode == 7 || mode == 8) && m->count == 0) mode = 1;
    switch (mode) {
    case 0:  /* raw: mostly out of range */
        p.lat = (int32_t)take32(r);
        p.lon = (int32_t)take32(r);
        break;
    case 1:  /* anywhere a fix may be */
        p.lat = (int32_t)take_range(r, -GF_LAT_MAX_E7, GF_LAT_MAX_E7);
        p.lon = (int32_t)take_range(r, -GF_LON_MAX_E7, GF_LON_MAX_E7);
        break;
    case 2:  /* anywhere a fence centre may be */
        p.lat = (int32_t)take_range(r, -GF_FENCE_LAT_MAX_E7, GF_FENCE_LAT_MAX_E7);
        p.lon = (int32_t)take_range(r, -GF_LON_MAX_E7, GF_LON_MAX_E7);
        break;
    case 3: {  /* the limits, one unit past them, and a little around them */
        int64_t lat = special_lats[take8(r) % COUNT_OF(special_lats)];
        int64_t lon = special_lons[take8(r) % COUNT_OF(special_lons)];
        int8_t jiggle_lat = (int8_t)take8(r), jiggle_lon = (int8_t)take8(r);
        p.lat = saturate32(lat + (jiggle_lat > 64 || jiggle_lat < -64 ? 0 : jiggle_lat));
        p.lon = saturate32(lon + (jiggle_lon > 64 || jiggle_lon < -64 ? 0 : jiggle_lon));
        break;
    }
    case 4:  /* near the +-180 seam */
        p.lat = (int32_t)take_range(r, -GF_LAT_MAX_E7, GF_LAT_MAX_E7);
        p.lon = wrap_lon(GF_LON_MAX_E7 + take_offset(r));
        break;
    case 5: {  /* near a cluster */
        gf_point c = clusters[take8(r) % COUNT_OF(clusters)];
        p.lat = saturate32(c.lat + take_offset(r));
        p.lon = wrap_lon(c.lon + take_offset(r));
        break;
    }
    case 6:  /* near a live fence's centre, or (a shape) between two of its vertices */
        p = take_point_near(r, &m->live[take8(r) % m->count], 0);
        break;
    case 7: case 8:  /* near a live fence's boundary */
        p = take_point_near(r, &m->live[take8(r) % m->count], 1);
        break;
    default:  /* near a pole */
        p.lat = saturate32(((take8(r) & 1) ? GF_LAT_MAX_E7 : -GF_LAT_MAX_E7) - (int64_t)(take32(r) % 100000000));
        p.lon = (int32_t)take_range(r, -GF_LON_MAX_E7, GF_LON_MAX_E7);
        break;
    }
    return p;
}

static uint32_t take_radius(reader *r) {
    static const uint32_t specials[] = {0, GF_RADIUS_MIN_MM - 1, GF_RADIUS_MIN_MM, GF_RADIUS_MIN_MM + 1,
                                        GF_RADIUS_MAX_MM - 1, GF_RADIUS_MAX_MM, GF_RADIUS_MAX_MM + 1, UINT32_MAX};
    switch (take8(r) % 8) {
    case 0: return take32(r);
    case 1: return specials[take8(r) % COUNT_OF(specials)];
    case 2: return GF_RADIUS_MIN_MM + take16(r);  /* 1 .. 66.5 m: the finest index levels */
    default: {  /* about log-uniform over 1 m .. 50 km */
        uint64_t lo = (uint64_t)GF_RADIUS_MIN_MM << (take8(r) % 16);
        uint64_t hi = lo * 2 > GF_RADIUS_MAX_MM ? GF_RADIUS_MAX_MM : lo * 2;
        return (uint32_t)take_range(r, (int64_t)lo, (int64_t)hi);
    }
    }
}

static uint32_t take_margin(reader *r) {
    static const uint32_t specials[] = {0, 1, GF_MARGIN_MAX_MM - 1, GF_MARGIN_MAX_MM, GF_MARGIN_MAX_MM + 1,
                                        UINT32_MAX};
    switch (take8(r) % 8) {
    case 0: return take32(r);
    case 1: return specials[take8(r) % COUNT_OF(specials)];
    case 2: return take32(r) % (GF_MARGIN_MAX_MM + 1);
    case 3: return take32(r) % 1000001;  /* up to 1 km */
    default: return take16(r);           /* up to 65 m: the common case of a vehicle's accuracy */
    }
}

/* A handle that should name no live fence: a removed one, 0, a live slot with another generation, or made up. It may
 * still be live (a generation that wrapped around, a lucky guess); the caller checks the model and skips those. */
static gf_handle take_dead_handle(reader *r, const model *m) {
    uint8_t mode = take8(r) % 4;
    if (mode == 0 && m->stale_count > 0) return m->stale[take8(r) % m->stale_count];
    if (mode == 1) return GF_HANDLE_NONE;
    if (mode == 2 && m->count > 0) {  /* a live handle's slot with another generation */
        gf_handle live = m->live[take8(r) % m->count].handle;
        return (live & 0xFFFFFFu) | ((gf_handle)take8(r) << 24);
    }
    return take32(r);
}

/* ---- Operations ---- */

static void forget(model *m, uint32_t index) {
    m->stale[m->stale_next] = m->live[index].handle;
    m->stale_next = (m->stale_next + 1) % STALE_KEPT;
    if (m->stale_count < STALE_KEPT) m->stale_count++;
    m->live[index] = m->live[--m->count];
}

static void do_add(model *m, gf_point centre, uint32_t radius_mm) {
    allowed errors = fence_errors(centre, radius_mm);
    if (m->count >= m->capacity) errors |= ALLOW(GF_ERR_CAPACITY);
    gf_handle handle = GF_HANDLE_NONE;
    gf_status status = gf_fence_add(m->table, centre, radius_mm, &handle);
    expect_status(status, errors, "gf_fence_add");
    if (status == GF_OK) {
        if (handle == GF_HANDLE_NONE || find_live(m, handle) >= 0)
            fail("gf_fence_add returned handle %#x, which is 0 or already live", (unsigned)handle);
        m->live[m->count] = (fence){handle, centre, radius_mm, 0, {{{0, 0}}, {0}, 0, 0}};
        m->count++;
    }
    check_table(m, "gf_fence_add");
}

static void op_add(model *m, reader *r) {
    gf_point centre = take_point(r, m);
    do_add(m, centre, take_radius(r));
}

/* Up to 16 fences around one point, with radii from 1 m to 2^k m: fills index cells and grows the cell hash fast. */
static void op_add_burst(model *m, reader *r) {
    gf_point around = take_point(r, m);
    unsigned n = 1 + take8(r) % 16, octave = take8(r) % 16;
    uint32_t seed = take32(r) | 1;
    for (unsigned i = 0; i < n; i++) {
        seed ^= seed << 13;  /* xorshift32 */
        seed ^= seed >> 17;
        seed ^= seed << 5;
        gf_point centre = {saturate32((int64_t)around.lat + (int16_t)(seed & 0xFFFF)),
                           wrap_lon((int64_t)around.lon + (int16_t)(seed >> 16))};
        uint32_t radius_mm = GF_RADIUS_MIN_MM + (seed % (GF_RADIUS_MIN_MM << octave));
        do_add(m, centre, radius_mm);
    }
}

static void op_remove(model *m, reader *r) {
    if (m->count == 0) return;
    uint32_t index = take8(r) % m->count;
    gf_status status = gf_fence_remove(m->table, m->live[index].handle);
    expect_status(status, 0, "gf_fence_remove of a live fence");
    forget(m, index);
    check_table(m, "gf_fence_remove");
}

/* remove, move or get with a handle that names no live fence: GF_ERR_HANDLE, nothing changes. */
static void op_dead_handle(model *m, reader *r) {
    gf_handle handle = take_dead_handle(r, m);
    if (find_live(m, handle) >= 0) return;  /* a generation that wrapped around to a live one, or a lucky guess */
    gf_point centre = take_point(r, m);
    uint32_t radius_mm = take_radius(r);
    switch (take8(r) % 3) {
    case 0: expect_status(gf_fence_remove(m->table, handle), ALLOW(GF_ERR_HANDLE), "gf_fence_remove of a dead handle");
            break;
    case 1: expect_status(gf_fence_move(m->table, handle, centre, radius_mm),
                          ALLOW(GF_ERR_HANDLE) | fence_errors(centre, radius_mm), "gf_fence_move of a dead handle");
            break;
    default: {
        gf_point out = {12345, 67890};
        uint32_t out_radius = 4242;
        expect_status(gf_fence_get(m->table, handle, &out, &out_radius), ALLOW(GF_ERR_HANDLE),
                      "gf_fence_get of a dead handle");
        if (out.lat != 12345 || out.lon != 67890 || out_radius != 4242) fail("gf_fence_get wrote on GF_ERR_HANDLE");
        break;
    }
    }
    check_table(m, "an operation on a dead handle");
}

static void op_move(model *m, reader *r) {
    if (m->count == 0) return;
    uint32_t index = take8(r) % m->count;
    gf_point centre = take_point(r, m);
    uint32_t radius_mm = (take8(r) & 1) ? m->live[index].radius_mm : take_radius(r);
    gf_status status = gf_fence_move(m->table, m->live[index].handle, centre, radius_mm);
    if (m->live[index].is_shape) {  /* polygons and corridors do not move */
        expect_status(status, ALLOW(GF_ERR_KIND) | fence_errors(centre, radius_mm), "gf_fence_move of a shape");
        check_table(m, "gf_fence_move of a shape");
        return;
    }
    expect_status(status, fence_errors(centre, radius_mm), "gf_fence_move");
    if (status == GF_OK) {
        m->live[index].centre = centre;
        m->live[index].radius_mm = radius_mm;
    }
    check_table(m, "gf_fence_move");
}

static int by_handle(const void *a, const void *b) {
    gf_handle x = ((const gf_hit *)a)->handle, y = ((const gf_hit *)b)->handle;
    return (x > y) - (x < y);
}

/* ---- The shape model ---- */

/* What the brute force knows about a shape at a fix: `on_edge` (a polygon's edge passes exactly through it: the core's
 * tie rule decides the side), `inside`, the signed distance (negative inside) and its tolerance, or only `far`: the
 * fix is outside, farther than `lower` mm from the boundary (then signed_mm is that lower bound). */
typedef struct shape_view {
    int on_edge, inside, far;
    double signed_mm, tolerance_mm;
} shape_view;

/* Prints a shape (before a failure about it), so that a reproducer's message says what the shape was. */
static void print_shape(const fz_shape *s) {
    fprintf(stderr, "fuzz_core: the %s (half-width %u mm), rings ending at", s->half_width_mm ? "corridor" : "polygon",
            (unsigned)s->half_width_mm);
    for (uint32_t ring = 0; ring < s->rings; ring++) fprintf(stderr, " %u", (unsigned)s->ring_ends[ring]);
    fprintf(stderr, ":");
    for (uint32_t i = 0; i < s->ring_ends[s->rings - 1]; i++) fprintf(stderr, " (%d, %d)", s->v[i].lat, s->v[i].lon);
    fputc('\n', stderr);
}

/* The documented error of a shape's distance (20 mm + 1e-7 d, geofence.h) plus 2 mm for the model's double. */
static double shape_tolerance_mm(double d) {
    return 22 + fabs(d) * 1e-7;
}

/* The brute force, skipping the edge search when the fix is outside the polygon (or any corridor) and farther from
 * its vertices' box than `enough` mm. */
static shape_view view_shape(const fz_shape *s, gf_point fix, double enough) {
    shape_view v = {0, 0, 0, 0, 0};
    int polygon = s->half_width_mm == 0;
    int inside = polygon ? fz_polygon_inside(s, fix) : 0;
    v.on_edge = inside < 0;
    if (inside == 0) {
        double lower = fz_boundary_lower_mm(s, fix) - s->half_width_mm;
        if (lower > enough) {
            v.far = 1;
            v.signed_mm = lower;
            return v;
        }
    }
    double d = fz_boundary_mm(s, fix);
    v.signed_mm = polygon ? (inside > 0 ? -d : d) : d - s->half_width_mm;
    v.inside = polygon ? inside > 0 : v.signed_mm < 0;
    v.tolerance_mm = shape_tolerance_mm(v.signed_mm);
    return v;
}

/* gf_query's answer for one shape: `hit` and its distance, against the model (geofence.h, "Polygons and corridors"
 * and gf_query): every fence with signed distance <= margin is a hit; a polygon always contains a fix inside it and
 * never one outside at margin 0 unless the fix is on its boundary; distances are exact within the margin, and deeper
 * inside a polygon at least the margin and at most the depth. */
static void judge_query_hit(const fence *f, gf_point fix, uint32_t margin_mm, const gf_hit *hit) {
    const fz_shape *s = &f->shape;
    int polygon = s->half_width_mm == 0;
    double margin = margin_mm;
    shape_view v = view_shape(s, fix, margin + 100);
    const char *kind = polygon ? "polygon" : "corridor";
    if (v.far || (polygon && !v.on_edge && !v.inside && margin_mm == 0)) {
        if (hit != NULL)
            print_shape(s), fail("gf_query (%d, %d) margin %u: %s %#x hit at %d mm, but it is outside%s (brute force >= %.0f mm)",
                 fix.lat, fix.lon, (unsigned)margin_mm, kind, (unsigned)f->handle, hit->distance_mm,
                 v.far ? " beyond the margin" : " at margin 0", v.signed_mm);
        return;
    }
    double e = v.tolerance_mm;
    if (v.on_edge) {  /* on the boundary: inside or out by the tie rule, a hit at distance 0 either way */
        if (hit == NULL || fabs((double)hit->distance_mm) > e)
            print_shape(s), fail("gf_query (%d, %d) margin %u: polygon %#x, fix on an edge: %s at %d mm", fix.lat, fix.lon,
                 (unsigned)margin_mm, (unsigned)f->handle, hit ? "hit" : "no hit", hit ? hit->distance_mm : 0);
        return;
    }
    int must = (polygon && v.inside) || v.signed_mm <= margin - e;
    int must_not = !(polygon && v.inside) && v.signed_mm > margin + e;
    if ((must && hit == NULL) || (must_not && hit != NULL))
        print_shape(s), fail("gf_query (%d, %d) margin %u: %s %#x %s, brute force signed %.1f mm (%s)", fix.lat, fix.lon,
             (unsigned)margin_mm, kind, (unsigned)f->handle, hit ? "hit" : "not hit", v.signed_mm,
             v.inside ? "inside" : "outside");
    if (hit == NULL) return;
    double got = hit->distance_mm;
    if (polygon && v.inside && -v.signed_mm > margin - e) {  /* deep: a bound on the depth */
        int ok = got <= 0 && got >= v.signed_mm - e && (-v.signed_mm < margin + e || got <= -margin);
        if (!ok)
            print_shape(s), fail("gf_query (%d, %d) margin %u: polygon %#x deep inside at %.0f mm gave %d mm (want <= -margin, >= "
                 "depth - %.0f)", fix.lat, fix.lon, (unsigned)margin_mm, (unsigned)f->handle, v.signed_mm,
                 hit->distance_mm, e);
        return;
    }
    if (fabs(got - v.signed_mm) > e)
        print_shape(s), fail("gf_query (%d, %d) margin %u: %s %#x at %d mm, brute force %.1f mm (tolerance %.1f)", fix.lat, fix.lon,
             (unsigned)margin_mm, kind, (unsigned)f->handle, hit->distance_mm, v.signed_mm, e);
}

/* gf_fence_distance of a shape with limit L (geofence.h): exact within L; outside beyond it L + 1; inside deeper than
 * it at most -L and at least the depth. */
static void judge_fence_distance(const fence *f, gf_point fix, uint32_t limit_mm, int64_t got_mm) {
    const fz_shape *s = &f->shape;
    double limit = limit_mm, got = (double)got_mm;
    shape_view v = view_shape(s, fix, limit + 100);
    const char *kind = s->half_width_mm == 0 ? "polygon" : "corridor";
    if (v.far) {
        if (got_mm != (int64_t)limit_mm + 1)
            print_shape(s), fail("gf_fence_distance (%d, %d) limit %u: %s %#x far away (>= %.0f mm): %lld mm, want limit + 1",
                 fix.lat, fix.lon, (unsigned)limit_mm, kind, (unsigned)f->handle, v.signed_mm, (long long)got_mm);
        return;
    }
    double e = v.tolerance_mm, want = v.signed_mm;
    int exact = fabs(got - want) <= e, beyond = got_mm == (int64_t)limit_mm + 1;
    int bound = got <= -limit && got >= want - e;
    int ok;
    if (v.on_edge) ok = fabs(got) <= e;
    else if (fabs(want) <= limit - e) ok = exact;
    else if (want >= limit + e) ok = beyond;
    else if (want <= -(limit + e)) ok = bound;
    else ok = exact || beyond || bound || (v.inside && got <= 0 && got >= want - e);  /* at the limit */
    if (!ok)
        print_shape(s), fail("gf_fence_distance (%d, %d) limit %u: %s %#x %s: %lld mm, brute force %.1f mm (tolerance %.1f)", fix.lat,
             fix.lon, (unsigned)limit_mm, kind, (unsigned)f->handle, v.on_edge ? "on an edge" : "", (long long)got_mm,
             want, e);
}

static void op_query(model *m, reader *r) {
    gf_point fix = take_point(r, m);
    uint32_t margin_mm = take_margin(r);
    allowed errors = point_errors(fix);
    if (margin_mm > GF_MARGIN_MAX_MM) errors |= ALLOW(GF_ERR_MARGIN);

    gf_hit full[BUFFER_MAX];
    size_t count = 12345;
    gf_status status = gf_query(m->table, fix, margin_mm, full, BUFFER_MAX, &count);
    expect_status(status, errors, "gf_query");
    if (errors != 0) {
        if (count != 0) fail("gf_query failed with %s but set count %zu", gf_status_name(status), count);
        return;
    }

    /* Same answer again (order included). */
    gf_hit again[BUFFER_MAX];
    size_t again_count = 0;
    expect_status(gf_query(m->table, fix, margin_mm, again, BUFFER_MAX, &again_count), 0, "repeated gf_query");
    if (again_count != count || memcmp(again, full, count * sizeof *full) != 0) fail("repeated gf_query differs");

    /* The tracked query, whose cursor has seen every earlier fix and mutation of this run: the same answer. */
    expect_status(gf_query_tracked(m->table, &m->cursor, fix, margin_mm, again, BUFFER_MAX, &again_count), 0,
                  "gf_query_tracked");
    if (again_count != count || memcmp(again, full, count * sizeof *full) != 0) fail("gf_query_tracked differs");

    /* A short buffer of exactly `capacity` entries on the heap: ASan reports any write past it. */
    size_t capacity = take8(r) % (count + 2);
    gf_hit *short_hits = capacity > 0 ? malloc(capacity * sizeof *short_hits) : NULL;
    if (capacity > 0 && short_hits == NULL) abort();
    size_t short_count = 0;
    status = gf_query(m->table, fix, margin_mm, short_hits, capacity, &short_count);
    expect_status(status, count > capacity ? ALLOW(GF_ERR_TRUNCATED) : 0, "gf_query with a short buffer");
    if (short_count != count) fail("gf_query with %zu slots counted %zu hits, not %zu", capacity, short_count, count);
    size_t kept = count < capacity ? count : capacity;
    if (kept > 0 && memcmp(short_hits, full, kept * sizeof *full) != 0)
        fail("gf_query with %zu slots: not the first hits of the full answer", capacity);
    free(short_hits);

    /* Each hit once, of a live fence, at the distance gf_fence_distance gives with the margin as its limit. */
    qsort(full, count, sizeof *full, by_handle);
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && full[i].handle == full[i - 1].handle) fail("gf_query reported %#x twice", (unsigned)full[i].handle);
        if (find_live(m, full[i].handle) < 0) {
            for (uint32_t s = 0; s < m->stale_count; s++)
                if (full[i].handle == m->stale[s]) fail("gf_query reported removed handle %#x", (unsigned)full[i].handle);
            fail("gf_query reported %#x, which names no live fence", (unsigned)full[i].handle);
        }
        int64_t alone = INT64_MIN;
        expect_status(gf_fence_distance(m->table, full[i].handle, fix, margin_mm, &alone), 0, "gf_fence_distance");
        if (alone != full[i].distance_mm)
            fail("gf_query (%d, %d) margin %u: %#x at %d mm, gf_fence_distance with the margin as limit %lld mm",
                 fix.lat, fix.lon, (unsigned)margin_mm, (unsigned)full[i].handle, full[i].distance_mm, (long long)alone);
    }

    /* Brute force: circles by gf_distance (the query's own distance: exactly), shapes by the shape model. */
    for (uint32_t i = 0; i < m->count; i++) {
        const fence *f = &m->live[i];
        gf_hit key = {f->handle, 0};
        const gf_hit *hit = count > 0 ? bsearch(&key, full, count, sizeof *full, by_handle) : NULL;
        if (f->is_shape) {
            judge_query_hit(f, fix, margin_mm, hit);
            continue;
        }
        int64_t d = -1;
        gf_status distance_status = gf_distance(fix, f->centre, &d);
        if (distance_status != GF_OK) fail("gf_distance of valid points: %s", gf_status_name(distance_status));
        int64_t signed_mm = d - (int64_t)f->radius_mm;
        if ((signed_mm <= (int64_t)margin_mm) != (hit != NULL) || (hit != NULL && hit->distance_mm != signed_mm))
            fail("gf_query (%d, %d) margin %u: circle %#x %s at %d mm, brute force %lld mm", fix.lat, fix.lon,
                 (unsigned)margin_mm, (unsigned)f->handle, hit ? "hit" : "not hit", hit ? hit->distance_mm : 0,
                 (long long)signed_mm);
    }
}

/* The chord formula of geofence.h (DISTANCE) in double precision from WGS-84 ECEF, with no shared code. */
static double formula_distance_mm(gf_point a, gf_point b, double *chord_m) {
    const double semi_major = 6378137.0, flattening = 1 / 298.257223563, mean_radius = 6371008.8;
    const double e2 = flattening * (2 - flattening);
    const double radians_per_e7 = 3.14159265358979323846 / 180.0 / 1e7;
    double xyz[2][3];
    const gf_point points[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        double lat = points[i].lat * radians_per_e7, lon = points[i].lon * radians_per_e7;
        double n = semi_major / sqrt(1 - e2 * sin(lat) * sin(lat));
        xyz[i][0] = n * cos(lat) * cos(lon);
        xyz[i][1] = n * cos(lat) * sin(lon);
        xyz[i][2] = n * (1 - e2) * sin(lat);
    }
    double dx = xyz[0][0] - xyz[1][0], dy = xyz[0][1] - xyz[1][1], dz = xyz[0][2] - xyz[1][2];
    double c = sqrt(dx * dx + dy * dy + dz * dz);
    *chord_m = c;
    return (c + c * c * c / (24 * mean_radius * mean_radius)) * 1000;
}

static void op_distance(model *m, reader *r) {
    gf_point a = take_point(r, m), b = (take8(r) & 1) ? take_point(r, m) : a;
    int64_t d = -1;
    gf_status status = gf_distance(a, b, &d);
    expect_status(status, point_errors(a) | point_errors(b), "gf_distance");
    if (status != GF_OK) return;
    int64_t back = -1, self = -1;
    expect_status(gf_distance(b, a, &back), 0, "gf_distance reversed");
    expect_status(gf_distance(a, a, &self), 0, "gf_distance to itself");
    if (d < 0 || back != d || self != 0)
        fail("gf_distance (%d, %d) (%d, %d): %lld mm, reversed %lld, to itself %lld", a.lat, a.lon, b.lat, b.lon,
             (long long)d, (long long)back, (long long)self);
    /* Bound: each point's ECEF is rounded to 0.5 q per axis (sqrt(3) * 0.5 * 3.90625 mm = 3.4 mm each, so 6.8 mm on
     * the chord), the square root and mm rounding add 0.5 mm, and the c^3 term is taken from whole metres of chord
     * (up to 1 m too short, costing c^2 / 8R^2 per metre: 0.05 mm at 131 km, up to 0.5 m at the antipode) with
     * truncating divisions (1 mm). 1 mm of slack for the double evaluation. */
    double chord_m = 0;
    double want = formula_distance_mm(a, b, &chord_m);
    double bound = 6.8 + 0.5 + 1000 * chord_m * chord_m / (8 * 6371008.8 * 6371008.8) + 1 + 1;
    if (fabs((double)d - want) > bound)
        fail("gf_distance (%d, %d) (%d, %d): %lld mm, the formula in double %.3f mm (bound %.2f mm)", a.lat, a.lon,
             b.lat, b.lon, (long long)d, want, bound);
}

/* ---- Polygons and corridors ---- */

/* An offset of up to +-size e7 from the input; on a lattice of size / 4 when asked (axis-parallel and collinear
 * edges, repeated vertices, fixes exactly on edges). */
static int64_t take_shape_offset(reader *r, int64_t size, int lattice) {
    int64_t offset = take_signed16(r) * size / 32768;
    return lattice ? offset / (size / 4) * (size / 4) : offset;
}

/* The errors a polygon or corridor add may give for vertices[0 .. total): a vertex out of range; no edge of non-zero
 * length, or (a polygon) edges spanning more than 180 deg of longitude: GF_ERR_SHAPE. *seam_maybe is set when a
 * corridor's half-width brings its box within reach of +-180 deg (the core's box there is conservative by an amount
 * the model does not repeat): GF_ERR_SHAPE may then come or not. */
static allowed shape_errors(const gf_point *v, const uint32_t *ring_ends, uint32_t rings, uint32_t half_width_mm,
                            int *seam_maybe) {
    *seam_maybe = 0;
    uint32_t total = ring_ends[rings - 1];
    allowed errors = 0;
    for (uint32_t i = 0; i < total; i++) {
        if (v[i].lat < -GF_FENCE_LAT_MAX_E7 || v[i].lat > GF_FENCE_LAT_MAX_E7) errors |= ALLOW(GF_ERR_LATITUDE);
        if (v[i].lon < -GF_LON_MAX_E7 || v[i].lon > GF_LON_MAX_E7) errors |= ALLOW(GF_ERR_LONGITUDE);
    }
    if (errors != 0) return errors;
    int64_t lon_lo = INT64_MAX, lon_hi = INT64_MIN, lat_abs = 0;
    uint32_t start = 0;
    for (uint32_t ring = 0; ring < rings; ring++) {
        uint32_t n = ring_ends[ring] - start, edges = half_width_mm == 0 ? n : n - 1;
        for (uint32_t i = 0; i < edges; i++) {
            gf_point a = v[start + i], b = v[start + (i + 1) % n];
            if (a.lat == b.lat && a.lon == b.lon) continue;
            gf_point ends[2] = {a, b};
            for (int k = 0; k < 2; k++) {
                if (ends[k].lon < lon_lo) lon_lo = ends[k].lon;
                if (ends[k].lon > lon_hi) lon_hi = ends[k].lon;
                int64_t lat = ends[k].lat < 0 ? -(int64_t)ends[k].lat : ends[k].lat;
                if (lat > lat_abs) lat_abs = lat;
            }
        }
        start = ring_ends[ring];
    }
    if (lon_lo == INT64_MAX) return ALLOW(GF_ERR_SHAPE);  /* no edge */
    if (half_width_mm == 0) return lon_hi - lon_lo > GF_LON_MAX_E7 ? ALLOW(GF_ERR_SHAPE) : 0;
    /* A corridor's reach in longitude, generously: W at 0.0905 e7 per mm over cos of the latitude 1.5 deg poleward
     * (the core's boxes round up to the next degree and add slack), 20 % more and 1000 e7. */
    double pole_deg = lat_abs / 1e7 + 1.5;
    double reach = ((double)half_width_mm + 100) * 0.0905 / cos((pole_deg > 89.9 ? 89.9 : pole_deg) * 3.14159265358979 / 180)
                 * 1.2 + 1000;
    *seam_maybe = lon_lo - reach < -GF_LON_MAX_E7 || lon_hi + reach > GF_LON_MAX_E7
               || lon_hi - lon_lo + 2 * reach > GF_LON_MAX_E7;
    return 0;
}

/* gf_polygon_check on the rings gf_polygon_add was just given (which answered `added`): it refuses what the add
 * refuses, with the same status (unless the table was full); on rings the add took it either finds them valid, with a nesting that is a forest
 * (no ring its own ancestor), or names a ring set fault (zero area, rings that meet, crowded edges). */
static void check_polygon_check(const fz_shape *shape, uint32_t ring_count, gf_status added) {
    uint32_t parents[FZ_RINGS_MAX + 1];
    gf_shape_problem problem;
    gf_status status = gf_polygon_check(shape->v, shape->ring_ends, ring_count, ring_count <= FZ_RINGS_MAX ? parents : NULL,
                                        &problem);
    if (added == GF_ERR_CAPACITY) return;  /* the add looked no further than the full table */
    if (added != GF_OK) {
        if (status != added) fail("gf_polygon_check: %s where gf_polygon_add gave %s", gf_status_name(status),
                                  gf_status_name(added));
        return;
    }
    if (status == GF_OK) {
        if (problem.fault != GF_SHAPE_FAULT_NONE) fail("gf_polygon_check: GF_OK with fault %d", (int)problem.fault);
        if (ring_count > FZ_RINGS_MAX) return;
        for (uint32_t r = 0; r < ring_count; r++) {
            uint32_t at = r, steps = 0;
            while (parents[at] != GF_RING_NONE) {
                if (parents[at] >= ring_count || ++steps > ring_count)
                    fail("gf_polygon_check: ring %u's ancestors %u are not a forest", (unsigned)r, (unsigned)parents[at]);
                at = parents[at];
            }
        }
        return;
    }
    if (status != GF_ERR_SHAPE || !(problem.fault == GF_SHAPE_FAULT_ZERO_AREA || problem.fault == GF_SHAPE_FAULT_CROSSING
                                     || problem.fault == GF_SHAPE_FAULT_DENSE)
        || (problem.fault != GF_SHAPE_FAULT_DENSE && problem.ring >= ring_count)
        || (problem.fault == GF_SHAPE_FAULT_CROSSING && problem.other_ring >= ring_count))
        fail("gf_polygon_check on rings gf_polygon_add took: %s, fault %d, rings %u %u", gf_status_name(status),
             (int)problem.fault, (unsigned)problem.ring, (unsigned)problem.other_ring);
}

/* Adds the shape to the table and, on success, to the model. */
static void do_add_shape(model *m, const fz_shape *shape, uint32_t ring_count, allowed errors, int seam_maybe) {
    if (m->count >= m->capacity) errors |= ALLOW(GF_ERR_CAPACITY);
    gf_handle handle = GF_HANDLE_NONE;
    gf_status status = shape->half_width_mm == 0
        ? gf_polygon_add(m->table, shape->v, shape->ring_ends, ring_count, &handle)
        : gf_corridor_add(m->table, shape->v, shape->ring_ends[0], shape->half_width_mm, &handle);
    const char *what = shape->half_width_mm == 0 ? "gf_polygon_add" : "gf_corridor_add";
    if (!(status == GF_ERR_SHAPE && seam_maybe)) expect_status(status, errors, what);
    if (shape->half_width_mm == 0) check_polygon_check(shape, ring_count, status);
    if (status == GF_OK) {
        if (handle == GF_HANDLE_NONE || find_live(m, handle) >= 0)
            fail("%s returned handle %#x, which is 0 or already live", what, (unsigned)handle);
        fence *f = &m->live[m->count++];
        f->handle = handle;
        f->centre = shape->v[0];
        f->radius_mm = 0;
        f->is_shape = 1;
        f->shape = *shape;
    }
    check_table(m, what);
}

/* A random polygon of 1 to 3 rings (an outer ring of 3..12 vertices, holes of 3..6; any of them may cross itself or
 * the others: the even-odd rule decides), 18 cm to 14 km across, sometimes on a lattice, sometimes malformed (no ring,
 * a ring of 2, ring ends not increasing: GF_ERR_SHAPE) or with its first vertex repeated at the end. */
/* Where a shape goes: take_point's point, three times in four moved into the range of fence vertices. */
static gf_point take_anchor(reader *r, const model *m) {
    gf_point p = take_point(r, m);
    if (take8(r) % 4 == 0) return p;
    const int32_t lat_max = GF_FENCE_LAT_MAX_E7 - 1000000;
    p.lat = p.lat > lat_max ? lat_max : p.lat < -lat_max ? -lat_max : p.lat;
    p.lon = p.lon > GF_LON_MAX_E7 ? GF_LON_MAX_E7 : p.lon < -GF_LON_MAX_E7 ? -GF_LON_MAX_E7 : p.lon;
    return p;
}

static void op_add_polygon(model *m, reader *r) {
    fz_shape shape;
    memset(&shape, 0, sizeof shape);
    gf_point anchor = take_anchor(r, m);
    int64_t size = (int64_t)16 << (take8(r) % 14);
    int lattice = take8(r) & 1;
    int64_t stretch = (int64_t)1 << (take8(r) % 3);  /* longitude degrees are short at high latitudes */
    uint32_t rings = 1 + take8(r) % FZ_RINGS_MAX, at = 0;
    for (uint32_t ring = 0; ring < rings; ring++) {
        uint32_t n = ring == 0 ? 3 + take8(r) % 10u : 3 + take8(r) % 4u;
        int64_t scale = ring == 0 ? size : size / 2;
        for (uint32_t i = 0; i < n; i++) {
            int64_t north = take_shape_offset(r, scale, lattice), east = take_shape_offset(r, scale, lattice);
            shape.v[at++] = (gf_point){saturate32(anchor.lat + north), wrap_lon(anchor.lon + east * stretch)};
        }
        shape.ring_ends[ring] = at;
    }
    shape.rings = rings;
    allowed errors = 0;
    uint32_t ring_count = rings;
    switch (take8(r) % 16) {
    case 0: ring_count = 0; errors = ALLOW(GF_ERR_SHAPE); break;
    case 1: shape.ring_ends[rings - 1] = (rings > 1 ? shape.ring_ends[rings - 2] : 0) + 2; errors = ALLOW(GF_ERR_SHAPE);
            break;
    case 2: if (rings > 1) {
                uint32_t swap = shape.ring_ends[0];
                shape.ring_ends[0] = shape.ring_ends[1];
                shape.ring_ends[1] = swap;
                errors = ALLOW(GF_ERR_SHAPE);
            }
            break;
    case 3: if (at < FZ_VERTICES_MAX && rings == 1) {  /* the first vertex again at the end: ignored */
                shape.v[at] = shape.v[0];
                shape.ring_ends[0] = at + 1;
            }
            break;
    default: break;
    }
    int seam_maybe = 0;
    if (errors == 0) {
        errors = shape_errors(shape.v, shape.ring_ends, rings, 0, &seam_maybe);
    } else {  /* malformed: the vertices may add their own errors */
        uint32_t total = 0;
        for (uint32_t ring = 0; ring < rings; ring++)
            if (shape.ring_ends[ring] > total) total = shape.ring_ends[ring];
        for (uint32_t i = 0; i < total; i++) errors |= fence_errors(shape.v[i], GF_RADIUS_MIN_MM);
    }
    do_add_shape(m, &shape, ring_count, errors, seam_maybe);
}

/* A random corridor: a walk of 1 (GF_ERR_SHAPE) to 8 vertices in steps of up to 14 km, U-turns and repeated vertices
 * included, with a half-width from take_radius (invalid ones too). */
static void op_add_corridor(model *m, reader *r) {
    fz_shape shape;
    memset(&shape, 0, sizeof shape);
    gf_point at = take_anchor(r, m);
    int64_t size = (int64_t)16 << (take8(r) % 14);
    int lattice = take8(r) & 1;
    int64_t stretch = (int64_t)1 << (take8(r) % 3);
    uint32_t count = 1 + take8(r) % 8;
    for (uint32_t i = 0; i < count; i++) {
        shape.v[i] = at;
        int64_t north = take_shape_offset(r, size, lattice), east = take_shape_offset(r, size, lattice);
        at = (gf_point){saturate32(at.lat + north), wrap_lon(at.lon + east * stretch)};
    }
    shape.ring_ends[0] = count;
    shape.rings = 1;
    shape.half_width_mm = take_radius(r);
    allowed errors = 0;
    int seam_maybe = 0;
    if (shape.half_width_mm < GF_RADIUS_MIN_MM || shape.half_width_mm > GF_RADIUS_MAX_MM) errors |= ALLOW(GF_ERR_RADIUS);
    if (count < 2) errors |= ALLOW(GF_ERR_SHAPE);
    for (uint32_t i = 0; i < count; i++) errors |= fence_errors(shape.v[i], GF_RADIUS_MIN_MM);
    if (errors == 0) errors = shape_errors(shape.v, shape.ring_ends, 1, shape.half_width_mm, &seam_maybe);
    if (shape.half_width_mm == 0) shape.half_width_mm = 1;  /* never stored when invalid; keeps the model's kind */
    do_add_shape(m, &shape, 1, errors, seam_maybe);
}

/* gf_fence_distance of a live fence (circles: exactly gf_distance - radius; shapes: the model, judge_fence_distance),
 * of a dead handle (GF_ERR_HANDLE), and with NULL arguments. */
static void op_fence_distance(model *m, reader *r) {
    uint8_t mode = take8(r) % 8;
    /* The fence: any, or (mode 2..5) a shape if there is one, after the first live one a walk from a random index. */
    const fence *f = m->count > 0 ? &m->live[take8(r) % m->count] : NULL;
    for (uint32_t k = 0; f != NULL && mode >= 2 && mode <= 5 && !f->is_shape && k < m->count; k++)
        f = &m->live[(uint32_t)(f - m->live + 1) % m->count];
    gf_point fix = f != NULL && (take8(r) & 1) ? take_point_near(r, f, take8(r) & 1) : take_point(r, m);
    uint32_t limit_mm = take_margin(r);
    allowed errors = point_errors(fix);
    if (limit_mm > GF_MARGIN_MAX_MM) errors |= ALLOW(GF_ERR_MARGIN);
    int64_t d = 12345;
    if (mode == 0 || f == NULL) {
        gf_handle handle = take_dead_handle(r, m);
        if (find_live(m, handle) >= 0) return;
        expect_status(gf_fence_distance(m->table, handle, fix, limit_mm, &d), errors | ALLOW(GF_ERR_HANDLE),
                      "gf_fence_distance of a dead handle");
        return;
    }
    if (mode == 1) {
        expect_status(gf_fence_distance(NULL, f->handle, fix, limit_mm, &d), errors | ALLOW(GF_ERR_NULL),
                      "gf_fence_distance of a NULL table");
        expect_status(gf_fence_distance(m->table, f->handle, fix, limit_mm, NULL), errors | ALLOW(GF_ERR_NULL),
                      "gf_fence_distance into NULL");
        return;
    }
    gf_status status = gf_fence_distance(m->table, f->handle, fix, limit_mm, &d);
    expect_status(status, errors, "gf_fence_distance");
    if (status != GF_OK) return;
    if (f->is_shape) {
        judge_fence_distance(f, fix, limit_mm, d);
        return;
    }
    int64_t centre_mm = -1;
    expect_status(gf_distance(fix, f->centre, &centre_mm), 0, "gf_distance");
    if (d != centre_mm - (int64_t)f->radius_mm)
        fail("gf_fence_distance (%d, %d) limit %u: circle %#x at %lld mm, gf_distance - radius %lld mm", fix.lat,
             fix.lon, (unsigned)limit_mm, (unsigned)f->handle, (long long)d, (long long)(centre_mm - f->radius_mm));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size, 0};
    static model m;  /* static: 3 KB of model need not sit on the fuzzer's stack */
    memset(&m, 0, sizeof m);
    m.capacity = 1 + take8(&r) % MODEL_MAX;
    gf_status status = gf_table_create(m.capacity, &m.table);
    if (status != GF_OK) fail("gf_table_create(%u): %s", (unsigned)m.capacity, gf_status_name(status));

    while (r.at < r.size) {
        switch (take8(&r) % 16) {  /* 0..7 as before shapes came; 8..15 shapes and gf_fence_distance */
        case 0: case 1: op_add(&m, &r); break;
        case 2: op_add_burst(&m, &r); break;
        case 3: case 13: op_remove(&m, &r); break;
        case 4: op_move(&m, &r); break;
        case 5: op_dead_handle(&m, &r); break;
        case 6: case 12: op_query(&m, &r); break;
        case 7: op_distance(&m, &r); break;
        case 8: case 9: op_add_polygon(&m, &r); break;
        case 10: case 14: op_add_corridor(&m, &r); break;
        default: op_fence_distance(&m, &r); break;
        }
    }
    /* A last look from every live fence's centre with a margin of 0: each must find at least itself. */
    for (uint32_t i = 0; i < m.count; i++) {
        if (m.live[i].is_shape) continue;  /* a shape's first vertex is on its boundary: the tie rule's */
        size_t count = 0;
        gf_hit hits[BUFFER_MAX];
        expect_status(gf_query(m.table, m.live[i].centre, 0, hits, BUFFER_MAX, &count), 0, "gf_query at a centre");
        int found = 0;
        for (size_t h = 0; h < count; h++) found |= hits[h].handle == m.live[i].handle && hits[h].distance_mm < 0;
        if (!found) fail("gf_query at the centre of %#x does not find it inside", (unsigned)m.live[i].handle);
    }
    gf_table_destroy(m.table);
    return 0;
}
