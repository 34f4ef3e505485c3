/*
 * tracked.c -- gf_query_tracked against gf_query: for drives (steps of 0.5 m to 2 km, so fixes stay in a cell for a
 * while and then cross into the next), across the +-180 seam and near the fence latitude limit, with margins that
 * change between fixes, with fences added, removed and moved between fixes, and with one cursor handed between two
 * tables. Every answer must equal gf_query's exactly: the same hits in the same order, the same status.
 */
#include "core_test.h"

#include <stdio.h>
#include <string.h>

enum { BUFFER = 512, TABLE_FENCES = 3000, STEPS = 20000 };

static unsigned long hits_seen;

/* Asks a fix of gf_query and of gf_query_tracked, each with a buffer of `capacity` hits (want, got; NULL when 0), and
 * returns whether they agreed: the same status and count, and the same hits kept, in the same order. `digest`: the
 * tracked answer goes into the run's digest. *found: gf_query's count. */
static int agree(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm, gf_hit *want,
                 gf_hit *got, size_t capacity, int digest, size_t *found) {
    size_t want_count = 0, got_count = 0;
    gf_status want_status = gf_query(table, fix, margin_mm, capacity ? want : NULL, capacity, &want_count);
    gf_status got_status =
        gf_query_tracked(table, cursor, fix, margin_mm, capacity ? got : NULL, capacity, &got_count);
    size_t kept = want_count < capacity ? want_count : capacity;
    if (digest) {
        ct_digest(got_status);
        ct_digest_hits(got, got_count < capacity ? got_count : capacity);
    }
    *found = want_count;
    return CT_CHECK(got_status == want_status && got_count == want_count
                        && memcmp(got, want, kept * sizeof *got) == 0,
                    "tracked query at (%d, %d) margin %u into %zu places: %s with %zu hits, gf_query %s with %zu",
                    fix.lat, fix.lon, (unsigned)margin_mm, capacity, gf_status_name(got_status), got_count,
                    gf_status_name(want_status), want_count);
}

/* Compares one tracked query with gf_query; returns whether they agreed. Then the same with a buffer of 0 to 3 hits,
 * which the cursor answers from what it remembers: both keep the first hits and count the rest (GF_ERR_TRUNCATED when
 * there are more). Only the full answer goes into the digest. */
static int same_as_query(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm) {
    gf_hit want[BUFFER], got[BUFFER];
    size_t found = 0, found_again = 0;
    int agreed = agree(table, cursor, fix, margin_mm, want, got, BUFFER, 1, &found);
    hits_seen += found;
    return agree(table, cursor, fix, margin_mm, want, got, hits_seen % 4, 0, &found_again) && agreed;
}

/* A table of fences around a few places (and some anywhere): a quarter anywhere with radii 1 m .. 50 km, a quarter
 * within 20 km of a place with the same radii, half within 1 km of a place with radii 1 .. 60 m (about one per cell
 * of the finest index level there, so a drive keeps crossing into cells with other fences). */
static gf_table *make_table(ct_rng *rng, gf_handle *handles, const gf_point *places, size_t place_count) {
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(TABLE_FENCES * 2, &table), GF_OK, "gf_table_create");
    for (size_t i = 0; i < TABLE_FENCES; i++) {
        gf_point centre = ct_random_centre(rng);
        uint32_t radius_mm = ct_random_radius(rng);
        if (i % 4 == 1) centre = ct_random_fix_near(rng, places[i % place_count], 20000000);
        if (i % 2 == 0) {
            centre = ct_random_fix_near(rng, places[i % place_count], 1000000);
            radius_mm = (uint32_t)ct_range(rng, GF_RADIUS_MIN_MM, 60000);
        }
        if (centre.lat > GF_FENCE_LAT_MAX_E7) centre.lat = GF_FENCE_LAT_MAX_E7;
        if (centre.lat < -GF_FENCE_LAT_MAX_E7) centre.lat = -GF_FENCE_LAT_MAX_E7;
        CT_STATUS(gf_fence_add(table, centre, radius_mm, &handles[i]), GF_OK, "gf_fence_add");
    }
    return table;
}

/* One step of a drive: `step_mm` in a direction that turns slowly (roughly: the step is split between latitude and
 * longitude by a heading in 1/64 turns). */
static gf_point drive_step(gf_point at, int64_t *heading, int64_t step_mm, ct_rng *rng) {
    static const int8_t dir[8][2] = {{8, 0}, {6, 6}, {0, 8}, {-6, 6}, {-8, 0}, {-6, -6}, {0, -8}, {6, -6}};
    *heading = (*heading + ct_range(rng, -2, 2) + 64) % 64;
    int64_t e7 = step_mm * 9 / 100;  /* about 0.09 e7 per mm */
    int64_t lat = at.lat + dir[*heading / 8][0] * e7 / 8;
    int64_t lon = at.lon + dir[*heading / 8][1] * e7 / 8;
    if (lat > GF_LAT_MAX_E7 || lat < -GF_LAT_MAX_E7) lat = at.lat - (lat - at.lat);
    at.lat = (int32_t)lat;
    at.lon = ct_wrap_lon(lon);
    return at;
}

void test_tracked(void) {
    ct_rng rng = ct_rng_seeded(0x747261636B6564ULL);  /* "tracked" */
    const gf_point places[] = {
        {-274679357, 1530281038},  /* Brisbane */
        {0, 1799990000},           /* on the equator just west of +-180 */
        {845000000, 100000000},    /* near the fence latitude limit */
        {-600000000, -1799000000}, /* south, just east of +-180 */
    };
    static gf_handle handles_a[TABLE_FENCES], handles_b[TABLE_FENCES];
    gf_table *a = make_table(&rng, handles_a, places, 4);
    gf_table *b = make_table(&rng, handles_b, places + 1, 2);

    /* Zero-filled storage is a cursor that remembers nothing; so is a reset one. */
    gf_cursor cursor;
    memset(&cursor, 0, sizeof cursor);
    unsigned long agreed = 0, steps = 0;
    for (size_t drive = 0; drive < 8; drive++) {
        gf_point at = ct_random_fix_near(&rng, places[drive % 4], 500000);
        int64_t heading = ct_range(&rng, 0, 63);
        int64_t step_mm = drive % 2 == 0 ? ct_range(&rng, 500, 5000) : ct_range(&rng, 5000, 2000000);
        for (size_t i = 0; i < STEPS / 8; i++, steps++) {
            at = drive_step(at, &heading, step_mm, &rng);
            uint32_t margin_mm = i % 97 == 0 ? ct_random_margin(&rng) : (drive % 4 == 3 ? 25000 : 0);
            gf_table *table = (i / 300) % 5 == 4 ? b : a;  /* now and then the other table, same cursor */
            agreed += (unsigned long)same_as_query(table, &cursor, at, margin_mm);

            /* Mutations between fixes, most of them near the vehicle, so that cached cells change. */
            if (i % 53 == 0) {
                size_t k = (size_t)ct_range(&rng, 0, TABLE_FENCES - 1);
                gf_point centre = ct_random_fix_near(&rng, at, 3000000);
                if (centre.lat > GF_FENCE_LAT_MAX_E7) centre.lat = GF_FENCE_LAT_MAX_E7;
                if (centre.lat < -GF_FENCE_LAT_MAX_E7) centre.lat = -GF_FENCE_LAT_MAX_E7;
                gf_handle *h = table == a ? &handles_a[k] : &handles_b[k];
                switch (i % 3) {
                case 0:
                    CT_STATUS(gf_fence_move(table, *h, centre, ct_random_radius(&rng)), GF_OK, "gf_fence_move");
                    break;
                case 1:
                    CT_STATUS(gf_fence_remove(table, *h), GF_OK, "gf_fence_remove");
                    CT_STATUS(gf_fence_add(table, centre, ct_random_radius(&rng), h), GF_OK, "gf_fence_add");
                    break;
                default:
                    gf_cursor_reset(&cursor);
                    break;
                }
            }
        }
    }
    CT_CHECK(agreed == steps, "tracked queries: %lu of %lu agreed with gf_query", agreed, steps);

    /* Small fences spread thin (about one per 2 x 2 cells of the finest level, radii 1 .. 40 m, within 4 km of
     * Brisbane): here the cursor remembers a wider area than one cell and merges the finest cells in it, so a fence
     * of any of them may be the one a fix hits. Drives of 3 .. 30 m steps, margins 0 and up to 30 m. */
    gf_table *sparse = NULL;
    CT_STATUS(gf_table_create(TABLE_FENCES, &sparse), GF_OK, "gf_table_create");
    for (size_t i = 0; i < TABLE_FENCES; i++) {
        gf_point centre = ct_random_fix_near(&rng, places[0], 4000000);
        uint32_t radius_mm = (uint32_t)ct_range(&rng, GF_RADIUS_MIN_MM, 40000);
        gf_handle handle;
        CT_STATUS(gf_fence_add(sparse, centre, radius_mm, &handle), GF_OK, "gf_fence_add");
    }
    unsigned long sparse_agreed = 0, sparse_steps = 0, sparse_hits_before = hits_seen;
    gf_cursor_reset(&cursor);
    for (size_t drive = 0; drive < 4; drive++) {
        gf_point at = ct_random_fix_near(&rng, places[0], 2000000);
        int64_t heading = ct_range(&rng, 0, 63);
        int64_t step_mm = ct_range(&rng, 3000, 30000);
        for (size_t i = 0; i < STEPS / 4; i++, sparse_steps++) {
            at = drive_step(at, &heading, step_mm, &rng);
            uint32_t margin_mm = drive % 2 == 0 ? 0 : (uint32_t)ct_range(&rng, 0, 30000);
            sparse_agreed += (unsigned long)same_as_query(sparse, &cursor, at, margin_mm);
        }
    }
    CT_CHECK(sparse_agreed == sparse_steps, "tracked queries among sparse small fences: %lu of %lu agreed",
             sparse_agreed, sparse_steps);
    CT_CHECK(hits_seen - sparse_hits_before > sparse_steps / 20, "sparse drives: only %lu hits in %lu fixes",
             hits_seen - sparse_hits_before, sparse_steps);
    gf_table_destroy(sparse);

    /* Only large fences, near the fence latitude limit: the finest occupied level is a coarse one, whose cells (and the
     * cursor's area) reach past the poles, and longitude extents grow fast with latitude, so the half-extents the
     * cursor keeps for its area must be the largest in it. Drives of 1 .. 10 km steps toward and over the poles. */
    gf_table *polar = NULL;
    enum { POLAR_FENCES = 1000, POLAR_STEPS = 4000 };
    CT_STATUS(gf_table_create(POLAR_FENCES, &polar), GF_OK, "gf_table_create");
    for (size_t i = 0; i < POLAR_FENCES; i++) {
        gf_point centre = {(int32_t)ct_range(&rng, 700000000, GF_FENCE_LAT_MAX_E7),
                           (int32_t)ct_range(&rng, -GF_LON_MAX_E7, GF_LON_MAX_E7)};
        if (i % 2 == 1) centre.lat = -centre.lat;
        gf_handle handle;
        CT_STATUS(gf_fence_add(polar, centre, (uint32_t)ct_range(&rng, 20000000, GF_RADIUS_MAX_MM), &handle), GF_OK,
                  "gf_fence_add");
    }
    unsigned long polar_agreed = 0, polar_steps = 0, polar_hits_before = hits_seen;
    gf_cursor_reset(&cursor);
    for (size_t drive = 0; drive < 4; drive++) {
        gf_point at = {drive % 2 == 0 ? 820000000 : -820000000, (int32_t)ct_range(&rng, -GF_LON_MAX_E7, GF_LON_MAX_E7)};
        int64_t heading = ct_range(&rng, 0, 63);
        int64_t step_mm = ct_range(&rng, 1000000, 10000000);
        for (size_t i = 0; i < POLAR_STEPS / 4; i++, polar_steps++) {
            at = drive_step(at, &heading, step_mm, &rng);
            uint32_t margin_mm = drive < 2 ? 0 : (uint32_t)ct_range(&rng, 0, 100000);
            polar_agreed += (unsigned long)same_as_query(polar, &cursor, at, margin_mm);
        }
    }
    CT_CHECK(polar_agreed == polar_steps, "tracked queries among large polar fences: %lu of %lu agreed", polar_agreed,
             polar_steps);
    CT_CHECK(hits_seen - polar_hits_before > polar_steps / 20, "polar drives: only %lu hits in %lu fixes",
             hits_seen - polar_hits_before, polar_steps);
    gf_table_destroy(polar);

    /* Errors: the same as gf_query's, plus a NULL cursor. */
    size_t count = 7;
    gf_hit hit;
    CT_STATUS(gf_query_tracked(a, NULL, places[0], 0, &hit, 1, &count), GF_ERR_NULL, "NULL cursor");
    CT_CHECK(count == 0, "NULL cursor: count %zu, not 0", count);
    CT_STATUS(gf_query_tracked(NULL, &cursor, places[0], 0, &hit, 1, &count), GF_ERR_NULL, "NULL table");
    CT_STATUS(gf_query_tracked(a, &cursor, (gf_point){GF_LAT_MAX_E7 + 1, 0}, 0, &hit, 1, &count), GF_ERR_LATITUDE,
              "latitude beyond 90");
    CT_STATUS(gf_query_tracked(a, &cursor, places[0], GF_MARGIN_MAX_MM + 1, &hit, 1, &count), GF_ERR_MARGIN,
              "margin above the limit");
    gf_cursor_reset(NULL);  /* allowed, does nothing */

    /* A box across an aligned edge of the cursor's widest square (a 25 m margin, a fifth of a vehicle's fixes) is
     * remembered in a square half a side further, not searched for in the index: after the query the cursor's area
     * holds the fix with its reaches. The square's side is read off a first query away from any edge. */
    gf_table *edge_table = NULL;
    CT_STATUS(gf_table_create(16, &edge_table), GF_OK, "edge table");
    gf_handle edge_handle;
    const gf_point edge_centre = {-274000000, 1530000000};
    CT_STATUS(gf_fence_add(edge_table, edge_centre, 20000, &edge_handle), GF_OK, "edge fence");
    gf_cursor edge_cursor;
    memset(&edge_cursor, 0, sizeof edge_cursor);  /* remembers nothing, and a failed check prints no garbage */
    gf_hit edge_hits[4];
    CT_STATUS(gf_query_tracked(edge_table, &edge_cursor, edge_centre, 25000, edge_hits, 4, &count), GF_OK,
              "query at the fence");
    const uint32_t side = edge_cursor.lat_hi_ - edge_cursor.lat_lo_ + 1, reach = edge_cursor.lat_reach_;
    CT_CHECK(edge_cursor.area_ == 0 && side > 4 * reach, "edge: no area (side %u, reach %u)", side, reach);
    for (uint32_t k = 1; k <= 2; k++) {
        /* The fix a third of its reach south of an aligned edge k sides north of the area's start: its box crosses
         * the edge; longitude far from one. */
        const int64_t edge = (int64_t)edge_cursor.lat_lo_ + (int64_t)k * side - GF_LAT_MAX_E7;
        const gf_point fix = {(int32_t)(edge - reach / 3), edge_centre.lon};
        memset(&edge_cursor, 0, sizeof edge_cursor);
        CT_STATUS(gf_query_tracked(edge_table, &edge_cursor, fix, 25000, edge_hits, 4, &count), GF_OK, "edge query");
        const int64_t lat = (int64_t)fix.lat + GF_LAT_MAX_E7;
        CT_CHECK(edge_cursor.area_ == 0 && lat - reach >= edge_cursor.lat_lo_ && lat + reach <= edge_cursor.lat_hi_,
                 "edge %u: the cursor's area %u..%u does not hold the box %lld +- %u", k, edge_cursor.lat_lo_,
                 edge_cursor.lat_hi_, (long long)lat, reach);
        same_as_query(edge_table, &edge_cursor, fix, 25000);
    }

    /* A vehicle driving straight with such a box (20 m steps, a 25 m margin) leaves each area with its box across
     * the edge: the next area is placed with the box near the edge it came in by, so the vehicle changes area about
     * once per 3/4 of a side or more in each of the four directions (squares on the grid, aligned or half a side off
     * it, gave it half a side). With margin 0 the box is narrow: the areas stay on the grid, aligned to their side (a
     * square off it would cut more coverage blocks of the coarser levels), but for one after a box across an edge. */
    static const int32_t way[4][2] = {{1800, 0}, {-1800, 0}, {0, 2030}, {0, -2030}};  /* 20 m at 27 S */
    unsigned straight_changes = 0;
    double straight_sides = 0;
    for (int w = 0; w < 8; w++) {
        const uint32_t margin_mm = w < 4 ? 25000 : 0;
        memset(&edge_cursor, 0, sizeof edge_cursor);
        gf_point fix = edge_centre;
        if (margin_mm == 0) {
            /* Five steps before a fix 3 e7 short of an aligned edge ahead: its box (about +-7 e7) leaves the area
             * across that edge, and the next area is half a side off the grid until the vehicle leaves it. */
            const int64_t lat = (int64_t)fix.lat + GF_LAT_MAX_E7, u = (int64_t)fix.lon + GF_LON_MAX_E7;
            const int64_t lat_edge = (lat / side + (way[w % 4][0] > 0)) * side;
            const int64_t u_edge = (u / side + (way[w % 4][1] > 0)) * side;
            if (way[w % 4][0] != 0)
                fix.lat = (int32_t)(lat_edge - (way[w % 4][0] > 0 ? 3 : -3) - 5 * way[w % 4][0] - GF_LAT_MAX_E7);
            else
                fix.lon = (int32_t)(u_edge - (way[w % 4][1] > 0 ? 3 : -3) - 5 * way[w % 4][1] - GF_LON_MAX_E7);
        }
        unsigned changes = 0, off_grid = 0;
        uint32_t lat_lo = 0, u_lo = 0;
        enum { RUN = 400 };  /* 8 km */
        for (int k = 0; k < RUN; k++) {
            same_as_query(edge_table, &edge_cursor, fix, margin_mm);
            const uint32_t side_now = edge_cursor.lat_hi_ - edge_cursor.lat_lo_ + 1;
            if (edge_cursor.lat_lo_ % side_now != 0 || edge_cursor.u_lo_ % side_now != 0) off_grid++;
            if (k > 0 && (edge_cursor.lat_lo_ != lat_lo || edge_cursor.u_lo_ != u_lo)) changes++;
            lat_lo = edge_cursor.lat_lo_;
            u_lo = edge_cursor.u_lo_;
            fix.lat += way[w % 4][0];
            fix.lon += way[w % 4][1];
        }
        const uint64_t run_e7 = (uint64_t)RUN * (uint64_t)(way[w % 4][0] != 0 ? 1800 : 2030);
        if (margin_mm == 0) {
            CT_CHECK(off_grid > 0 && off_grid <= RUN / 16,
                     "straight drive %d, margin 0: %u fixes in areas off the grid", w, off_grid);
            continue;
        }
        straight_changes += changes;
        straight_sides += (double)run_e7 / (double)side;
        CT_CHECK(changes <= run_e7 * 4 / (3 * side) + 1, "straight drive %d: %u areas over %llu e7 with a side of %llu",
                 w, changes, (unsigned long long)run_e7, (unsigned long long)side);
    }
    gf_table_destroy(edge_table);

    printf("tracked: %lu fixes on 8 drives over two tables with mutations between them, %lu among sparse small "
           "fences and %lu among large polar ones (%lu hits), all compared with gf_query; straight drives with a 25 m "
           "margin: %u areas over %.0f sides\n", steps, sparse_steps, polar_steps, hits_seen, straight_changes,
           straight_sides);
    gf_table_destroy(a);
    gf_table_destroy(b);
}
