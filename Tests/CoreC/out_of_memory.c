/*
 * out_of_memory.c -- GF_ERR_NOMEM from every allocation the core makes: each call that may allocate is tried with
 * its first, second, ... allocation failing until it succeeds, and after every failure the table must be exactly as
 * before (count, fences, gf_table_verify) and no block may have leaked. Needs the hooks of alloc.c.
 */
#include "core_test.h"

#include <stdio.h>

enum { FENCES = 3000 };  /* enough adds to grow the slot arrays, the entry pool and the cell hash several times */

static gf_handle handles[FENCES];
static gf_point centres[FENCES];
static uint32_t radii[FENCES];

/* The table still holds fences 0..n-1 as they were. Checks a sample, so that this stays linear in FENCES. */
static void intact(const gf_table *table, uint32_t n, const char *after) {
    CT_CHECK(gf_table_count(table) == n, "%s: count %lu, want %lu", after, (unsigned long)gf_table_count(table),
             (unsigned long)n);
    for (uint32_t i = 0; i < n; i += 1 + n / 8) {
        gf_point c = {0, 0};
        uint32_t r = 0;
        CT_CHECK(gf_fence_get(table, handles[i], &c, &r) == GF_OK && c.lat == centres[i].lat &&
                     c.lon == centres[i].lon && r == radii[i], "%s: fence %lu changed", after, (unsigned long)i);
    }
}

/* ---- Shapes: every allocation of building a polygon's or corridor's edge grid, and of checking its rings ---- */

enum { SHAPE_ADD_POLYGON, SHAPE_ADD_CORRIDOR, SHAPE_CHECK_POLYGON };

typedef struct shape_case {
    const char *name;
    int kind;
    const gf_point *vertices;
    const uint32_t *ring_ends;
    uint32_t ring_count;      /* polygons; a corridor's vertex count is ring_ends[0] */
    uint32_t half_width_mm;   /* corridors */
} shape_case;

static gf_status shape_call(gf_table *table, const shape_case *c, gf_handle *handle) {
    switch (c->kind) {
    case SHAPE_ADD_POLYGON: return gf_polygon_add(table, c->vertices, c->ring_ends, c->ring_count, handle);
    case SHAPE_ADD_CORRIDOR: return gf_corridor_add(table, c->vertices, c->ring_ends[0], c->half_width_mm, handle);
    default: {
        uint32_t parents[4];
        gf_shape_problem problem;
        return gf_polygon_check(c->vertices, c->ring_ends, c->ring_count, parents, &problem);
    }
    }
}

/* The call with its first, second, ... allocation failing until one runs without a failure: each failure must be
 * GF_ERR_NOMEM, leave the table's count and memory as they were and leak nothing; the last status must be the one a
 * call without failures returns. Returns the failures. */
static unsigned long shape_failures(gf_table *table, const shape_case *c) {
    gf_handle handle = 0;
    gf_status want = shape_call(table, c, &handle);
    if (c->kind != SHAPE_CHECK_POLYGON && want == GF_OK) CT_STATUS(gf_fence_remove(table, handle), GF_OK, c->name);
    uint32_t count = gf_table_count(table);
    size_t memory = gf_table_memory(table);
    unsigned long failures = 0;
    for (long n = 0;; n++) {
        long live = ct_alloc_live();
        ct_alloc_fail_after(n);
        gf_status status = shape_call(table, c, &handle);
        ct_alloc_fail_after(-1);
        if (status != GF_ERR_NOMEM) {
            CT_STATUS(status, want, c->name);
            if (c->kind != SHAPE_CHECK_POLYGON && status == GF_OK) gf_fence_remove(table, handle);
            break;
        }
        failures++;
        CT_CHECK(ct_alloc_live() == live, "%s: failed with allocation %ld failing and leaked", c->name, n);
        CT_CHECK(gf_table_count(table) == count && gf_table_memory(table) == memory,
                 "%s: failed with allocation %ld failing and changed the table", c->name, n);
        CT_STATUS(gf_table_verify(table), GF_OK, c->name);
    }
    CT_CHECK(failures > 0, "%s: no allocation was ever failed", c->name);
    return failures;
}

/* A square of 0.2 deg with a square hole, and with a second hole of 400 vertices on a small square near one corner:
 * more edges in one cell of the first grid than a cell may list, so the build also tries finer grids (each a new
 * allocation). */
static unsigned long test_shapes_out_of_memory(void) {
    enum { CROWD = 400 };
    static gf_point vertices[4 + 4 + CROWD];
    const int32_t lat = 520000000, lon = 50000000, side = 2000000;
    uint32_t n = 0;
    vertices[n++] = (gf_point){lat, lon};
    vertices[n++] = (gf_point){lat, lon + side};
    vertices[n++] = (gf_point){lat + side, lon + side};
    vertices[n++] = (gf_point){lat + side, lon};
    vertices[n++] = (gf_point){lat + side / 2, lon + side / 2};
    vertices[n++] = (gf_point){lat + side / 2 + side / 8, lon + side / 2};
    vertices[n++] = (gf_point){lat + side / 2 + side / 8, lon + side / 2 + side / 8};
    vertices[n++] = (gf_point){lat + side / 2, lon + side / 2 + side / 8};
    /* The crowded hole: a square of side 0.004 deg near the south-west corner, walked in CROWD vertices. */
    for (uint32_t k = 0; k < CROWD; k++) {
        int32_t quarter = CROWD / 4, step = 40000 / quarter, at = (int32_t)(k % quarter) * step;
        int32_t dlat = 0, dlon = 0;
        switch (k / quarter) {
        case 0: dlat = 0, dlon = at; break;
        case 1: dlat = at, dlon = 40000; break;
        case 2: dlat = 40000, dlon = 40000 - at; break;
        default: dlat = 40000 - at, dlon = 0; break;
        }
        vertices[n++] = (gf_point){lat + 10000 + dlat, lon + 10000 + dlon};
    }
    static const uint32_t polygon_ends[] = {4, 8, 8 + CROWD};
    static const uint32_t square_ends[] = {4, 8};
    static const uint32_t corridor_ends[] = {4};
    const shape_case cases[] = {
        {"polygon add", SHAPE_ADD_POLYGON, vertices, square_ends, 2, 0},
        {"crowded polygon add", SHAPE_ADD_POLYGON, vertices, polygon_ends, 3, 0},
        {"corridor add", SHAPE_ADD_CORRIDOR, vertices, corridor_ends, 1, 250000},
        {"polygon check", SHAPE_CHECK_POLYGON, vertices, square_ends, 2, 0},
        {"crowded polygon check", SHAPE_CHECK_POLYGON, vertices, polygon_ends, 3, 0},
    };
    gf_table *table = NULL;
    if (!CT_STATUS(gf_table_create(16, &table), GF_OK, "create for the shapes")) return 0;
    gf_handle circle;
    CT_STATUS(gf_fence_add(table, (gf_point){lat, lon}, 500000, &circle), GF_OK, "a circle beside the shapes");
    unsigned long failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) failures += shape_failures(table, &cases[i]);
    gf_table_destroy(table);
    return failures;
}

void test_out_of_memory(void) {
    if (!ct_alloc_hooked()) {
        printf("out of memory: skipped (build without the allocation hooks; see Tests/CoreC/alloc.c)\n");
        return;
    }
    long live_before = ct_alloc_live();
    unsigned long failures = 0;
    gf_table *table = NULL;

    /* gf_table_create: every allocation it makes, failed in turn. */
    for (long n = 0;; n++) {
        ct_alloc_fail_after(n);
        gf_status status = gf_table_create(FENCES, &table);
        ct_alloc_fail_after(-1);
        if (status == GF_OK) break;
        failures++;
        if (!CT_STATUS(status, GF_ERR_NOMEM, "create with a failing allocation")) return;
        CT_CHECK(table == NULL && ct_alloc_live() == live_before, "failed create leaked or left *out set");
    }

    ct_rng rng = ct_rng_seeded(0x6E6F6D656DULL);  /* "nomem" */
    for (uint32_t i = 0; i < FENCES; i++) {
        centres[i] = ct_random_centre(&rng);
        radii[i] = ct_random_radius(&rng);
        for (long n = 0;; n++) {
            long live = ct_alloc_live();
            ct_alloc_fail_after(n);
            gf_status status = gf_fence_add(table, centres[i], radii[i], &handles[i]);
            ct_alloc_fail_after(-1);
            if (status == GF_OK) break;
            failures++;
            if (!CT_STATUS(status, GF_ERR_NOMEM, "add with a failing allocation")) break;
            CT_CHECK(ct_alloc_live() == live, "failed add leaked");
            intact(table, i, "failed add");
        }
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after adds with failing allocations");

    /* gf_fence_move may need index room: move fences far (and big), so that it does, and fail that. */
    for (uint32_t i = 0; i < FENCES; i += 7) {
        gf_point to = ct_random_centre(&rng);
        uint32_t radius = ct_random_radius(&rng);
        for (long n = 0;; n++) {
            ct_alloc_fail_after(n);
            gf_status status = gf_fence_move(table, handles[i], to, radius);
            ct_alloc_fail_after(-1);
            if (status == GF_OK) break;
            failures++;
            if (!CT_STATUS(status, GF_ERR_NOMEM, "move with a failing allocation")) break;
            intact(table, FENCES, "failed move");
        }
        centres[i] = to;
        radii[i] = radius;
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after moves with failing allocations");
    gf_table_destroy(table);
    CT_CHECK(ct_alloc_live() == live_before, "blocks leaked: %ld", ct_alloc_live() - live_before);
    CT_CHECK(failures > 0, "no allocation was ever failed");
    printf("out of memory: %lu calls failed with GF_ERR_NOMEM and left the table unchanged; no leaks\n", failures);
    unsigned long shape_failed = test_shapes_out_of_memory();
    CT_CHECK(ct_alloc_live() == live_before, "blocks leaked by the shapes: %ld", ct_alloc_live() - live_before);
    printf("out of memory: shapes: %lu calls (polygon and corridor adds, polygon checks) failed with GF_ERR_NOMEM and "
           "left the table unchanged; no leaks\n", shape_failed);
}
