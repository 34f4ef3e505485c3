/*
 * churn.c -- about 50,000 random adds, removes and moves against a simple model of the table (one record per slot),
 * with stale handles, a full table, reads after every change, regular gf_table_verify, and queries compared with
 * brute force over the model. Catches what a build-once test cannot: index cells left behind by a move, entries
 * and slots reused wrongly, handles that survive their fence.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>

enum {
    CAPACITY = 2000,        /* reached after ~20,000 operations (adds outnumber removes), then GF_ERR_CAPACITY */
    OPERATIONS = 50000,
    VERIFY_EVERY = 1000,
    QUERY_EVERY = 250,
};

/* What the table should hold, per slot (the low 24 bits of a handle). */
typedef struct model {
    gf_handle handle;      /* the live handle of the slot, or GF_HANDLE_NONE */
    gf_handle stale;       /* the last handle the slot had before it was removed, or GF_HANDLE_NONE */
    gf_point centre;
    uint32_t radius_mm;
} model;

static model slots[CAPACITY];
static uint32_t live[CAPACITY];  /* slots with a live fence, in no order */
static uint32_t live_count;

static uint32_t slot_of(gf_handle handle) { return handle & 0xFFFFFFu; }

static void check_fence(const gf_table *table, uint32_t slot) {
    gf_point centre = {0, 0};
    uint32_t radius_mm = 0;
    CT_STATUS(gf_fence_get(table, slots[slot].handle, &centre, &radius_mm), GF_OK, "gf_fence_get");
    CT_CHECK(centre.lat == slots[slot].centre.lat && centre.lon == slots[slot].centre.lon &&
                 radius_mm == slots[slot].radius_mm, "gf_fence_get differs from the model at slot %lu",
             (unsigned long)slot);
}

static void add(gf_table *table, ct_rng *rng) {
    gf_point centre = ct_random_centre(rng);
    uint32_t radius_mm = ct_random_radius(rng);
    gf_handle handle = GF_HANDLE_NONE;
    gf_status status = gf_fence_add(table, centre, radius_mm, &handle);
    ct_digest(status);
    if (live_count == CAPACITY) {
        CT_STATUS(status, GF_ERR_CAPACITY, "add to a full table");
        return;
    }
    if (!CT_STATUS(status, GF_OK, "add")) return;
    ct_digest(handle);
    uint32_t slot = slot_of(handle);
    if (!CT_CHECK(slot < CAPACITY && slots[slot].handle == GF_HANDLE_NONE, "add reused a live slot")) return;
    CT_CHECK(handle != GF_HANDLE_NONE && handle != slots[slot].stale, "add handed out the slot's previous handle");
    slots[slot].handle = handle;
    slots[slot].centre = centre;
    slots[slot].radius_mm = radius_mm;
    live[live_count++] = slot;
    check_fence(table, slot);
}

static void remove_one(gf_table *table, ct_rng *rng) {
    uint32_t i = (uint32_t)ct_range(rng, 0, live_count - 1);
    uint32_t slot = live[i];
    CT_STATUS(gf_fence_remove(table, slots[slot].handle), GF_OK, "remove");
    slots[slot].stale = slots[slot].handle;
    slots[slot].handle = GF_HANDLE_NONE;
    live[i] = live[--live_count];
    CT_STATUS(gf_fence_get(table, slots[slot].stale, NULL, NULL), GF_ERR_HANDLE, "get after remove");
}

static void move_one(gf_table *table, ct_rng *rng) {
    uint32_t slot = live[ct_range(rng, 0, live_count - 1)];
    model *m = &slots[slot];
    gf_point centre;
    uint32_t radius_mm = m->radius_mm;
    if (ct_range(rng, 0, 1)) {  /* a small step, as a vehicle-mounted fence moves: often within its cells */
        centre = ct_random_fix_near(rng, m->centre, 200000);
        if (centre.lat > GF_FENCE_LAT_MAX_E7) centre.lat = GF_FENCE_LAT_MAX_E7;
        if (centre.lat < -GF_FENCE_LAT_MAX_E7) centre.lat = -GF_FENCE_LAT_MAX_E7;
    } else {  /* anywhere, resized: usually to another level */
        centre = ct_random_centre(rng);
        radius_mm = ct_random_radius(rng);
    }
    if (!CT_STATUS(gf_fence_move(table, m->handle, centre, radius_mm), GF_OK, "move")) return;
    m->centre = centre;
    m->radius_mm = radius_mm;
    check_fence(table, slot);
}

/* A handle of no live fence: a removed one (unless its slot came round to the same generation again, which the
 * header allows), one never handed out, or 0. */
static void stale_handle(gf_table *table, ct_rng *rng) {
    uint32_t slot = (uint32_t)ct_range(rng, 0, CAPACITY - 1);
    gf_handle handle = slots[slot].stale;
    if (handle == GF_HANDLE_NONE || handle == slots[slot].handle) handle = ((gf_handle)7u << 24) | 0xFFFFF0u;
    if (ct_range(rng, 0, 7) == 0) handle = GF_HANDLE_NONE;
    gf_point somewhere = {0, 0};
    CT_STATUS(gf_fence_remove(table, handle), GF_ERR_HANDLE, "remove a stale handle");
    CT_STATUS(gf_fence_move(table, handle, somewhere, 1000), GF_ERR_HANDLE, "move a stale handle");
    CT_STATUS(gf_fence_get(table, handle, NULL, NULL), GF_ERR_HANDLE, "get a stale handle");
}

static int by_handle(const void *a, const void *b) {
    gf_handle x = ((const gf_hit *)a)->handle, y = ((const gf_hit *)b)->handle;
    return (x > y) - (x < y);
}

static void query_against_model(const gf_table *table, ct_rng *rng) {
    static gf_hit got[CAPACITY], want[CAPACITY];
    gf_point fix = live_count > 0 && ct_range(rng, 0, 1)
                       ? ct_random_fix_near(rng, slots[live[ct_range(rng, 0, live_count - 1)]].centre, 60000000)
                       : ct_random_centre(rng);
    uint32_t margin_mm = ct_random_margin(rng);
    size_t count = 0, expected = 0;
    CT_STATUS(gf_query(table, fix, margin_mm, got, CAPACITY, &count), GF_OK, "query");
    ct_digest_hits(got, count);
    for (uint32_t i = 0; i < live_count; i++) {
        const model *m = &slots[live[i]];
        int64_t d = 0;
        gf_distance(fix, m->centre, &d);
        if (d - (int64_t)m->radius_mm <= (int64_t)margin_mm) {
            want[expected].handle = m->handle;
            want[expected].distance_mm = (int32_t)(d - (int64_t)m->radius_mm);
            expected++;
        }
    }
    qsort(got, count, sizeof *got, by_handle);
    qsort(want, expected, sizeof *want, by_handle);
    int same = count == expected;
    for (size_t i = 0; same && i < count; i++)
        same = got[i].handle == want[i].handle && got[i].distance_mm == want[i].distance_mm;
    CT_CHECK(same, "churn query: index %lu hits, model %lu", (unsigned long)count, (unsigned long)expected);
}

void test_churn(void) {
    ct_rng rng = ct_rng_seeded(0x636875726EULL);  /* "churn" */
    gf_table *table = NULL;
    if (!CT_STATUS(gf_table_create(CAPACITY, &table), GF_OK, "gf_table_create")) return;
    unsigned long adds = 0, removes = 0, moves = 0, full = 0;

    for (uint32_t op = 1; op <= OPERATIONS; op++) {
        int64_t pick = ct_range(&rng, 0, 99);
        if (pick < 40 || live_count == 0) {
            full += live_count == CAPACITY;
            add(table, &rng);
            adds++;
        } else if (pick < 65) {
            remove_one(table, &rng);
            removes++;
        } else if (pick < 95) {
            move_one(table, &rng);
            moves++;
        } else {
            stale_handle(table, &rng);
        }
        CT_CHECK(gf_table_count(table) == live_count, "count %lu, model %lu", (unsigned long)gf_table_count(table),
                 (unsigned long)live_count);
        if (op % QUERY_EVERY == 0) query_against_model(table, &rng);
        if (op % VERIFY_EVERY == 0) CT_STATUS(gf_table_verify(table), GF_OK, "verify during churn");
    }
    for (uint32_t i = 0; i < live_count; i++) check_fence(table, live[i]);

    /* Emptying the table leaves nothing behind. */
    while (live_count > 0) remove_one(table, &rng);
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after emptying");
    size_t count = 1;
    gf_point brisbane = {-274679357, 1530281038};
    CT_STATUS(gf_query(table, brisbane, GF_MARGIN_MAX_MM, NULL, 0, &count), GF_OK, "query an emptied table");
    CT_CHECK(count == 0, "an emptied table still reports %lu hits", (unsigned long)count);
    printf("churn: %d operations (%lu adds, %lu of them on a full table, %lu removes, %lu moves), verified\n",
           OPERATIONS, adds, full, removes, moves);
    gf_table_destroy(table);
}
