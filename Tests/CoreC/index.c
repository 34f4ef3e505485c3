/*
 * index.c -- the index against brute force: a few thousand fences (uniform and clustered, radii 1 m .. 50 km, some
 * across +-180 and at 80..85 degrees) and fixes anywhere, near clusters and near fence boundaries, with margins
 * 0 .. 50 km. Brute force asks gf_distance for every fence: a hit is gf_distance(fix, centre) - radius <= margin.
 * The index must return exactly that set, each fence once, with exactly that distance.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>

enum { FENCES = 2500, QUERIES = 1200, BUFFER = FENCES + 1 };

typedef struct fence {
    gf_handle handle;
    gf_point centre;
    uint32_t radius_mm;
} fence;

static int by_handle(const void *a, const void *b) {
    gf_handle x = ((const gf_hit *)a)->handle, y = ((const gf_hit *)b)->handle;
    return (x > y) - (x < y);
}

/* The hits brute force expects, in any order; returns how many. */
static size_t brute_force(const fence *fences, size_t n, gf_point fix, uint32_t margin_mm, gf_hit *out) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = 0;
        CT_STATUS(gf_distance(fix, fences[i].centre, &d), GF_OK, "gf_distance");
        if (d - (int64_t)fences[i].radius_mm <= (int64_t)margin_mm) {
            out[count].handle = fences[i].handle;
            out[count].distance_mm = (int32_t)(d - (int64_t)fences[i].radius_mm);
            count++;
        }
    }
    return count;
}

/* Compares one query with brute force; also checks (for small margins, where it is cheap) that a short buffer gets
 * GF_ERR_TRUNCATED and the first hits. Returns the number of hits. */
static size_t compare(const gf_table *table, const fence *fences, size_t n, gf_point fix, uint32_t margin_mm,
                      gf_hit *got, gf_hit *want) {
    size_t count = 0;
    CT_STATUS(gf_query(table, fix, margin_mm, got, BUFFER, &count), GF_OK, "gf_query");
    ct_digest_hits(got, count);
    size_t expected = brute_force(fences, n, fix, margin_mm, want);

    if (count >= 2 && margin_mm <= 2000) {  /* truncation keeps the first hits of the full answer */
        static gf_hit short_buffer[BUFFER];
        const size_t lengths[3] = {1, count / 2, count - 1};  /* the buffer fills in the middle of some level */
        for (int l = 0; l < 3; l++) {
            size_t short_count = 0;
            CT_STATUS(gf_query(table, fix, margin_mm, short_buffer, lengths[l], &short_count), GF_ERR_TRUNCATED,
                      "short buffer");
            int same = short_count == count;
            for (size_t i = 0; same && i < lengths[l]; i++)
                same = short_buffer[i].handle == got[i].handle && short_buffer[i].distance_mm == got[i].distance_mm;
            CT_CHECK(same, "a buffer of %lu hits is not the first hits of %lu", (unsigned long)lengths[l],
                     (unsigned long)count);
        }
    }

    qsort(got, count, sizeof *got, by_handle);
    qsort(want, expected, sizeof *want, by_handle);
    int same = count == expected;
    for (size_t i = 0; same && i < count; i++)
        same = got[i].handle == want[i].handle && got[i].distance_mm == want[i].distance_mm;
    for (size_t i = 1; i < count; i++) CT_CHECK(got[i].handle != got[i - 1].handle, "fence reported twice");
    CT_CHECK(same, "fix {%ld, %ld} margin %lu mm: index %lu hits, brute force %lu", (long)fix.lat, (long)fix.lon,
             (unsigned long)margin_mm, (unsigned long)count, (unsigned long)expected);
    return count;
}

/* Fences of 1 m .. 2 km spread thin over 2 x 2.5 degrees (and a few across +-180 deg): most of the plane there lies
 * in no fence's box, so that the index's presence map is consulted and ends most searches; then one fence wider than
 * the map marks bit by bit (a 50 km circle), which must turn it off, and the same fence removed again. Every query
 * against brute force. Returns the hits. */
static unsigned long sparse_then_wide(ct_rng *rng, fence *fences, gf_hit *got, gf_hit *want) {
    enum { SPARSE = 2000, SPARSE_QUERIES = 1500, WIDE_QUERIES = 400 };
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(SPARSE + 1, &table), GF_OK, "gf_table_create");
    if (table == NULL) return 0;
    for (size_t i = 0; i < SPARSE; i++) {
        const int seam = i % 50 == 0;
        fences[i].centre.lat = (int32_t)ct_range(rng, seam ? 100000000 : -280000000, seam ? 110000000 : -260000000);
        fences[i].centre.lon = seam ? ct_wrap_lon(GF_LON_MAX_E7 + (int32_t)ct_range(rng, -300000, 300000))
                                    : (int32_t)ct_range(rng, 1520000000, 1545000000);
        const uint64_t lo = (uint64_t)GF_RADIUS_MIN_MM << ct_range(rng, 0, 10);  /* an octave of 1 m .. 2 km */
        fences[i].radius_mm = (uint32_t)ct_range(rng, (int64_t)lo, (int64_t)(2 * lo));
        CT_STATUS(gf_fence_add(table, fences[i].centre, fences[i].radius_mm, &fences[i].handle), GF_OK, "add");
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify sparse table");

    unsigned long hits = 0;
    size_t n = SPARSE;
    for (int stage = 0; stage < 3; stage++) {
        if (stage == 1) {  /* the wide fence, in the middle of the small ones */
            fences[n].centre.lat = -270000000;
            fences[n].centre.lon = 1532500000;
            fences[n].radius_mm = GF_RADIUS_MAX_MM;
            CT_STATUS(gf_fence_add(table, fences[n].centre, fences[n].radius_mm, &fences[n].handle), GF_OK, "wide");
            n++;
        } else if (stage == 2) {
            n--;
            CT_STATUS(gf_fence_remove(table, fences[n].handle), GF_OK, "remove wide");
        }
        CT_STATUS(gf_table_verify(table), GF_OK, "verify");
        for (int q = 0, queries = stage == 0 ? SPARSE_QUERIES : WIDE_QUERIES; q < queries; q++) {
            uint32_t margin_mm = q % 3 == 0 ? 0 : q % 3 == 1 ? (uint32_t)ct_range(rng, 0, 2000)
                                                              : (uint32_t)ct_range(rng, 0, 20000000);
            gf_point fix;
            if (q % 4 == 3) {  /* near the boundary of a fence (plus the margin) */
                const fence *f = &fences[ct_range(rng, 0, (int64_t)n - 1)];
                fix = ct_random_fix_near(rng, f->centre, f->radius_mm + margin_mm);
            } else if (q % 8 == 2) {  /* near the seam */
                fix.lat = (int32_t)ct_range(rng, 99000000, 111000000);
                fix.lon = ct_wrap_lon(GF_LON_MAX_E7 + (int32_t)ct_range(rng, -400000, 400000));
            } else {  /* anywhere over the area: mostly away from every fence */
                fix.lat = (int32_t)ct_range(rng, -281000000, -259000000);
                fix.lon = (int32_t)ct_range(rng, 1519000000, 1546000000);
            }
            hits += compare(table, fences, n, fix, margin_mm, got, want);
        }
    }
    gf_table_destroy(table);
    return hits;
}

void test_index(void) {
    ct_rng rng = ct_rng_seeded(0x696E646578ULL);  /* "index" */
    fence *fences = malloc(FENCES * sizeof *fences);
    gf_hit *got = malloc(BUFFER * sizeof *got), *want = malloc(BUFFER * sizeof *want);
    gf_table *table = NULL;
    CT_STATUS(gf_table_create(FENCES, &table), GF_OK, "gf_table_create");
    if (fences == NULL || got == NULL || want == NULL || table == NULL) {
        CT_CHECK(0, "index: out of memory");
        return;
    }

    for (size_t i = 0; i < FENCES; i++) {
        fences[i].centre = ct_random_centre(&rng);
        fences[i].radius_mm = ct_random_radius(&rng);
        CT_STATUS(gf_fence_add(table, fences[i].centre, fences[i].radius_mm, &fences[i].handle), GF_OK, "add");
        ct_digest(fences[i].handle);
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after adds");

    unsigned long hits = 0, max_hits = 0, queries_with_hits = 0;
    for (size_t q = 0; q < QUERIES; q++) {
        gf_point fix;
        uint32_t margin_mm = ct_random_margin(&rng);
        switch (q % 4) {
        case 0:  /* anywhere, the poles and the seam included */
            fix.lat = (int32_t)ct_range(&rng, -GF_LAT_MAX_E7, GF_LAT_MAX_E7);
            fix.lon = (int32_t)ct_range(&rng, -GF_LON_MAX_E7, GF_LON_MAX_E7);
            if (q % 64 == 0) fix.lat = q % 128 == 0 ? GF_LAT_MAX_E7 : -GF_LAT_MAX_E7;
            if (q % 96 == 0) fix.lon = GF_LON_MAX_E7;
            break;
        case 1:  /* where fences are dense */
            fix = ct_random_fix_near(&rng, ct_random_centre(&rng), 20000);
            break;
        default: {  /* near the boundary of a fence (plus the margin) */
            const fence *f = &fences[ct_range(&rng, 0, FENCES - 1)];
            fix = ct_random_fix_near(&rng, f->centre, f->radius_mm + margin_mm);
            break;
        }
        }
        size_t count = compare(table, fences, FENCES, fix, margin_mm, got, want);
        hits += count;
        queries_with_hits += count > 0;
        if (count > max_hits) max_hits = count;
    }
    printf("index: %d fences, %d queries against brute force: %lu hits (%lu queries with hits, at most %lu at once)\n",
           FENCES, QUERIES, hits, queries_with_hits, max_hits);
    printf("index: sparse small fences, then a wide one and without it again: %lu hits against brute force\n",
           sparse_then_wide(&rng, fences, got, want));

    gf_table_destroy(table);
    free(fences);
    free(got);
    free(want);
}
