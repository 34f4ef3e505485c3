/*
 * fuzz_core.c -- libFuzzer target for the C core API (include/geofence.h).
 *
 * The input bytes are a program: the first byte picks the table's capacity (1..MODEL_MAX), then each operation is an
 * opcode byte followed by the bytes its arguments consume (missing bytes read as 0, so every input is valid). The
 * operations are gf_fence_add (single and a burst of clustered fences), gf_fence_remove, gf_fence_move and
 * gf_fence_get with live, removed, stale and made-up handles, gf_query and gf_distance. Points come from a generator
 * that mixes raw 32-bit values (mostly out of range), valid points anywhere (|lat| up to 90 degrees, lon up to +-180),
 * the exact limits and one unit past them, the +-180 seam, the poles, and points near or on a live fence's boundary.
 *
 * The oracle is a brute-force model kept here: the array of live fences (handle, centre, radius) and the handles
 * removed lately. After every operation:
 *   - the status is GF_OK iff every argument is valid (and, for an add, the table is below capacity); otherwise it is
 *     one of the errors that apply (the contract lists them, not their order), and the table is unchanged;
 *   - gf_table_verify is GF_OK, gf_table_count equals the model's, and gf_fence_get returns every live fence as the
 *     model has it;
 *   - after a query: exactly the live fences whose signed distance gf_distance(fix, centre) - radius is <= margin are
 *     reported, each once, with exactly that distance; no removed handle ever appears; a short buffer (allocated to
 *     its exact size, so ASan catches a write past it) gets GF_ERR_TRUNCATED, the true count and the first hits of
 *     the full answer; a repeated query gives the same answer (the order is deterministic).
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
 */
#include "geofence.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Up to 128 fences: enough for index cells to hold many entries and for the cell hash to grow, few enough that the
 * brute-force check after each query stays cheap (one gf_distance per fence). */
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

typedef struct fence {
    gf_handle handle;
    gf_point centre;
    uint32_t radius_mm;
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

static gf_point take_point(reader *r, const model *m) {
    gf_point p = {0, 0};
    uint8_t mode = take8(r) % 9;
    if ((mode == 6 || mode == 7) && m->count == 0) mode = 1;
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
    case 6: {  /* near a live fence's centre */
        gf_point c = m->live[take8(r) % m->count].centre;
        p.lat = saturate32(c.lat + take_offset(r));
        p.lon = wrap_lon(c.lon + take_offset(r));
        break;
    }
    case 7: {  /* near a live fence's boundary, north or south of the centre (0.0899 e7 of latitude per mm at the
                * equator, a little less towards the poles: close enough to land within metres of it) */
        const fence *f = &m->live[take8(r) % m->count];
        int64_t reach = (int64_t)f->radius_mm * 899 / 10000;
        int64_t lat = f->centre.lat + ((take8(r) & 1) ? reach : -reach) + (int8_t)take8(r);
        p.lat = saturate32(lat);
        p.lon = wrap_lon(f->centre.lon + (int8_t)take8(r));
        break;
    }
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
        m->live[m->count++] = (fence){handle, centre, radius_mm};
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

    /* Brute force: the live fences within margin of the fix, by gf_distance. */
    gf_hit want[MODEL_MAX];
    size_t want_count = 0;
    for (uint32_t i = 0; i < m->count; i++) {
        int64_t d = -1;
        gf_status distance_status = gf_distance(fix, m->live[i].centre, &d);
        if (distance_status != GF_OK) fail("gf_distance of valid points: %s", gf_status_name(distance_status));
        int64_t signed_mm = d - (int64_t)m->live[i].radius_mm;
        if (signed_mm <= (int64_t)margin_mm) want[want_count++] = (gf_hit){m->live[i].handle, (int32_t)signed_mm};
    }
    if (count != want_count)
        fail("gf_query (%d, %d) margin %u: %zu hits, brute force %zu (of %u fences)", fix.lat, fix.lon,
             (unsigned)margin_mm, count, want_count, (unsigned)m->count);

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

    qsort(full, count, sizeof *full, by_handle);
    qsort(want, want_count, sizeof *want, by_handle);
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && full[i].handle == full[i - 1].handle) fail("gf_query reported %#x twice", (unsigned)full[i].handle);
        for (uint32_t s = 0; s < m->stale_count; s++)
            if (full[i].handle == m->stale[s] && find_live(m, full[i].handle) < 0)
                fail("gf_query reported removed handle %#x", (unsigned)full[i].handle);
        if (full[i].handle != want[i].handle || full[i].distance_mm != want[i].distance_mm)
            fail("gf_query (%d, %d) margin %u: hit %zu is %#x at %d mm, brute force %#x at %d mm", fix.lat, fix.lon,
                 (unsigned)margin_mm, i, (unsigned)full[i].handle, full[i].distance_mm, (unsigned)want[i].handle,
                 want[i].distance_mm);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size, 0};
    static model m;  /* static: 3 KB of model need not sit on the fuzzer's stack */
    memset(&m, 0, sizeof m);
    m.capacity = 1 + take8(&r) % MODEL_MAX;
    gf_status status = gf_table_create(m.capacity, &m.table);
    if (status != GF_OK) fail("gf_table_create(%u): %s", (unsigned)m.capacity, gf_status_name(status));

    while (r.at < r.size) {
        switch (take8(&r) % 8) {
        case 0: case 1: op_add(&m, &r); break;
        case 2: op_add_burst(&m, &r); break;
        case 3: op_remove(&m, &r); break;
        case 4: op_move(&m, &r); break;
        case 5: op_dead_handle(&m, &r); break;
        case 6: op_query(&m, &r); break;
        default: op_distance(&m, &r); break;
        }
    }
    /* A last look from every live fence's centre with a margin of 0: each must find at least itself. */
    for (uint32_t i = 0; i < m.count; i++) {
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
