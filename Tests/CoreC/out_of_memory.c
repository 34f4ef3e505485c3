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
}
