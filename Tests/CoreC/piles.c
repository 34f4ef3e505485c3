/*
 * piles.c -- fences piled on one spot: identical duplicates, a depot's many fences a few metres apart. A cell keeps
 * at most GF__CELL_HASHED_MAX of its entries in the index's hash table and the rest in its crowd (gf_internal.h);
 * these tests drive cells through crowds being created, filled, emptied and swept:
 *   - churn among four piles against a model (adds, removes, moves into and out of the piles), queries compared
 *     with brute force and tracked queries with gf_query, gf_table_verify throughout; the fourth fills cells with
 *     distinct overlapping fences of 3-11 km, whose boxes take every bucket of their crowds;
 *   - 100,000 identical fences: every one is a hit at the centre, removals in any order, the crowd's memory given
 *     back once it is empty;
 *   - every allocation of adding to and moving within a pile failed in turn (with the hooks of alloc.c).
 * Nothing here feeds the digest: the digest compares the other tests' hits across targets, unchanged by crowds.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>

enum {
    CAPACITY = 3000,
    OPERATIONS = 20000,
    VERIFY_EVERY = 500,
    QUERY_EVERY = 50,
    BIG_PILE = 100000,
};

/* The piles: A takes identical fences, B fences within about 20 m of it, C ordinary ones within about 2 km, D fences
 * of 3-11 km within about 6 km. */
static const gf_point pile_a = {-274679357, 1530281038};
static const gf_point pile_b = {-274690000, 1530300000};
static const gf_point pile_c = {-274700000, 1530250000};
static const gf_point pile_d = {-275000000, 1531000000};

typedef struct pile_fence {
    gf_handle handle;
    gf_point centre;
    uint32_t radius_mm;
} pile_fence;

static pile_fence fences[CAPACITY];
static uint32_t live;

static void random_pile_fence(ct_rng *rng, gf_point *centre, uint32_t *radius_mm) {
    int64_t pick = ct_range(rng, 0, 9);
    if (pick < 4) {
        *centre = pile_a;
        *radius_mm = 100000;
    } else if (pick < 6) {
        centre->lat = pile_b.lat + (int32_t)ct_range(rng, -200, 200);
        centre->lon = pile_b.lon + (int32_t)ct_range(rng, -200, 200);
        *radius_mm = (uint32_t)ct_range(rng, 20000, 80000);
    } else if (pick < 8) {
        centre->lat = pile_c.lat + (int32_t)ct_range(rng, -20000, 20000);
        centre->lon = pile_c.lon + (int32_t)ct_range(rng, -20000, 20000);
        *radius_mm = (uint32_t)ct_range(rng, 20000, 500000);
    } else {
        centre->lat = pile_d.lat + (int32_t)ct_range(rng, -500000, 500000);
        centre->lon = pile_d.lon + (int32_t)ct_range(rng, -500000, 500000);
        *radius_mm = (uint32_t)ct_range(rng, 3000000, 11000000);
    }
}

static int by_handle(const void *a, const void *b) {
    gf_handle x = ((const gf_hit *)a)->handle, y = ((const gf_hit *)b)->handle;
    return (x > y) - (x < y);
}

/* A fix near one of the piles: gf_query against brute force over the model, and gf_query_tracked (a cursor that
 * follows these fixes from pile to pile) against gf_query, hit for hit and in order. */
static void query_piles(const gf_table *table, gf_cursor *cursor, ct_rng *rng) {
    static gf_hit got[CAPACITY], want[CAPACITY], tracked[CAPACITY];
    const gf_point spots[4] = {pile_a, pile_b, pile_c, pile_d};
    const int64_t spot = ct_range(rng, 0, 3);
    gf_point fix = ct_random_fix_near(rng, spots[spot], spot == 3 ? 20000000 : 300000);
    uint32_t margin_mm = ct_range(rng, 0, 3) == 0 ? (uint32_t)ct_range(rng, 0, 1000000) : 0;
    size_t count = 0, tracked_count = 0, expected = 0;
    CT_STATUS(gf_query(table, fix, margin_mm, got, CAPACITY, &count), GF_OK, "pile query");
    CT_STATUS(gf_query_tracked(table, cursor, fix, margin_mm, tracked, CAPACITY, &tracked_count), GF_OK,
              "tracked pile query");
    int same = tracked_count == count;
    for (size_t i = 0; same && i < count; i++)
        same = tracked[i].handle == got[i].handle && tracked[i].distance_mm == got[i].distance_mm;
    CT_CHECK(same, "pile: tracked query %lu hits, gf_query %lu (or another order)", (unsigned long)tracked_count,
             (unsigned long)count);
    for (uint32_t i = 0; i < live; i++) {
        int64_t d = 0;
        gf_distance(fix, fences[i].centre, &d);
        if (d - (int64_t)fences[i].radius_mm <= (int64_t)margin_mm) {
            want[expected].handle = fences[i].handle;
            want[expected].distance_mm = (int32_t)(d - (int64_t)fences[i].radius_mm);
            expected++;
        }
    }
    qsort(got, count, sizeof *got, by_handle);
    qsort(want, expected, sizeof *want, by_handle);
    same = count == expected;
    for (size_t i = 0; same && i < count; i++)
        same = got[i].handle == want[i].handle && got[i].distance_mm == want[i].distance_mm;
    CT_CHECK(same, "pile query: index %lu hits, model %lu", (unsigned long)count, (unsigned long)expected);
}

static void churn_piles(void) {
    ct_rng rng = ct_rng_seeded(0x70696C6573ULL);  /* "piles" */
    gf_table *table = NULL;
    if (!CT_STATUS(gf_table_create(CAPACITY, &table), GF_OK, "create for piles")) return;
    gf_cursor cursor;
    gf_cursor_reset(&cursor);
    unsigned long adds = 0, removes = 0, moves = 0;
    live = 0;
    for (uint32_t op = 1; op <= OPERATIONS; op++) {
        int64_t pick = ct_range(&rng, 0, 99);
        if ((pick < 45 || live == 0) && live < CAPACITY) {
            pile_fence *f = &fences[live];
            random_pile_fence(&rng, &f->centre, &f->radius_mm);
            if (CT_STATUS(gf_fence_add(table, f->centre, f->radius_mm, &f->handle), GF_OK, "pile add")) live++;
            adds++;
        } else if (pick < 70) {
            uint32_t i = (uint32_t)ct_range(&rng, 0, live - 1);
            CT_STATUS(gf_fence_remove(table, fences[i].handle), GF_OK, "pile remove");
            fences[i] = fences[--live];
            removes++;
        } else {
            pile_fence *f = &fences[ct_range(&rng, 0, live - 1)];
            gf_point centre;
            uint32_t radius_mm;
            random_pile_fence(&rng, &centre, &radius_mm);
            if (CT_STATUS(gf_fence_move(table, f->handle, centre, radius_mm), GF_OK, "pile move")) {
                f->centre = centre;
                f->radius_mm = radius_mm;
            }
            moves++;
        }
        if (op % QUERY_EVERY == 0) query_piles(table, &cursor, &rng);
        if (op % VERIFY_EVERY == 0) CT_STATUS(gf_table_verify(table), GF_OK, "verify during pile churn");
    }
    while (live > 0) {
        CT_STATUS(gf_fence_remove(table, fences[live - 1].handle), GF_OK, "emptying the piles");
        live--;
        if (live % 97 == 0) query_piles(table, &cursor, &rng);
    }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after emptying the piles");
    printf("piles: %d operations on four piles (%lu adds, %lu removes, %lu moves), queries equal brute force\n",
           OPERATIONS, adds, removes, moves);
    gf_table_destroy(table);
}

static void big_pile(void) {
    static gf_handle handles[BIG_PILE];
    static gf_hit hits[BIG_PILE];
    gf_table *table = NULL;
    if (!CT_STATUS(gf_table_create(BIG_PILE, &table), GF_OK, "create for a big pile")) return;
    size_t empty_memory = gf_table_memory(table);
    for (uint32_t i = 0; i < BIG_PILE; i++)
        if (!CT_STATUS(gf_fence_add(table, pile_a, 50000, &handles[i]), GF_OK, "big pile add")) return;
    CT_STATUS(gf_table_verify(table), GF_OK, "verify a big pile");
    size_t count = 0;
    CT_STATUS(gf_query(table, pile_a, 0, hits, BIG_PILE, &count), GF_OK, "query a big pile");
    int ascending = 1;
    for (size_t i = 1; i < count; i++) ascending &= hits[i - 1].handle < hits[i].handle;
    CT_CHECK(count == BIG_PILE && ascending, "big pile: %lu hits at the centre (want %d, in slot order)",
             (unsigned long)count, BIG_PILE);
    size_t peak_memory = gf_table_memory(table);

    /* Every other one, then the rest from the last: the crowd's entries move back as others leave. */
    ct_rng rng = ct_rng_seeded(0x62696770696C65ULL);  /* "bigpile" */
    for (uint32_t i = 0; i < BIG_PILE; i += 2) CT_STATUS(gf_fence_remove(table, handles[i]), GF_OK, "big pile remove");
    CT_STATUS(gf_table_verify(table), GF_OK, "verify a half-removed big pile");
    gf_point near = ct_random_fix_near(&rng, pile_a, 40000);
    CT_STATUS(gf_query(table, near, 0, hits, BIG_PILE, &count), GF_OK, "query a half-removed big pile");
    int64_t d = 0;
    gf_distance(near, pile_a, &d);
    CT_CHECK(count == (d <= 50000 ? BIG_PILE / 2 : 0), "half-removed big pile: %lu hits %ld mm from the centre",
             (unsigned long)count, (long)d);
    for (uint32_t i = BIG_PILE - 1; i < BIG_PILE; i -= 2) CT_STATUS(gf_fence_remove(table, handles[i]), GF_OK, "rest");
    CT_STATUS(gf_table_verify(table), GF_OK, "verify an emptied big pile");
    CT_STATUS(gf_query(table, pile_a, 0, hits, BIG_PILE, &count), GF_OK, "query an emptied big pile");
    CT_CHECK(count == 0, "emptied big pile: %lu hits", (unsigned long)count);

    /* The next add sweeps the empty crowd away: its memory is given back. */
    gf_handle other;
    CT_STATUS(gf_fence_add(table, pile_c, 50000, &other), GF_OK, "add after a big pile");
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after the sweep");
    size_t swept_memory = gf_table_memory(table);
    CT_CHECK(peak_memory - swept_memory >= (size_t)BIG_PILE * 16,
             "big pile: %lu bytes with 100,000 fences, %lu after removing them and sweeping (empty %lu)",
             (unsigned long)peak_memory, (unsigned long)swept_memory, (unsigned long)empty_memory);
    printf("piles: %d identical fences added, all hits at the centre, removed; memory %lu -> %lu -> %lu bytes\n",
           BIG_PILE, (unsigned long)empty_memory, (unsigned long)peak_memory, (unsigned long)swept_memory);
    gf_table_destroy(table);
}

/* Adds to a pile (creating its crowd, growing it) and moves into and out of it, each with its first, second, ...
 * allocation failing until it succeeds: each failure GF_ERR_NOMEM, the table's fences as they were, nothing
 * leaked. */
static void piles_out_of_memory(void) {
    enum { PILE = 300 };
    static gf_handle handles[PILE];
    long live_before = ct_alloc_live();
    gf_table *table = NULL;
    if (!CT_STATUS(gf_table_create(PILE + 1, &table), GF_OK, "create for a pile without memory")) return;
    unsigned long failures = 0;
    for (uint32_t i = 0; i < PILE; i++)
        for (long n = 0;; n++) {
            long blocks = ct_alloc_live();
            ct_alloc_fail_after(n);
            gf_status status = gf_fence_add(table, pile_a, 30000, &handles[i]);
            ct_alloc_fail_after(-1);
            if (status == GF_OK) break;
            failures++;
            if (!CT_STATUS(status, GF_ERR_NOMEM, "pile add with a failing allocation")) break;
            CT_CHECK(ct_alloc_live() == blocks && gf_table_count(table) == i, "failed pile add leaked or changed");
            CT_STATUS(gf_table_verify(table), GF_OK, "verify after a failed pile add");
        }
    /* Out of the pile and back in, half of them: the crowd empties partly and refills. */
    for (uint32_t i = 0; i < PILE; i += 2)
        for (int back = 0; back < 2; back++) {
            gf_point to = back ? pile_a : pile_c;
            for (long n = 0;; n++) {
                ct_alloc_fail_after(n);
                gf_status status = gf_fence_move(table, handles[i], to, 30000);
                ct_alloc_fail_after(-1);
                if (status == GF_OK) break;
                failures++;
                if (!CT_STATUS(status, GF_ERR_NOMEM, "pile move with a failing allocation")) break;
                CT_CHECK(gf_table_count(table) == PILE, "failed pile move changed the count");
            }
        }
    CT_STATUS(gf_table_verify(table), GF_OK, "verify after pile moves with failing allocations");
    size_t count = 0;
    CT_STATUS(gf_query(table, pile_a, 0, NULL, 0, &count), GF_ERR_TRUNCATED, "count the pile");
    CT_CHECK(count == PILE, "pile after failed allocations: %lu hits, want %d", (unsigned long)count, PILE);
    gf_table_destroy(table);
    CT_CHECK(ct_alloc_live() == live_before, "pile blocks leaked: %ld", ct_alloc_live() - live_before);
    printf("piles: out of memory: %lu calls failed with GF_ERR_NOMEM and left the pile as it was; no leaks\n",
           failures);
}

void test_piles(void) {
    churn_piles();
    big_pile();
    if (ct_alloc_hooked()) piles_out_of_memory();
    else printf("piles: out of memory skipped (build without the allocation hooks; see Tests/CoreC/alloc.c)\n");
}
