/*
 * gf_cells.c -- the index's hash table of grid cells and its pool of entries (layout and invariants in
 * gf_internal.h). Allocation happens only in gf__cells_init and gf__cells_reserve, so callers can reserve first and
 * then change the table knowing nothing can fail halfway.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

#define GF__CELLS_INITIAL 64u          /* slots; a power of two */
#define GF__ENTRIES_INITIAL 64u

int gf__cells_init(gf__cells *cells, size_t *bytes) {
    memset(cells, 0, sizeof *cells);
    cells->slots = calloc(GF__CELLS_INITIAL, sizeof(gf__cell));
    cells->entries = malloc(GF__ENTRIES_INITIAL * sizeof(gf__entry));
    if (cells->slots == NULL || cells->entries == NULL) {
        gf__cells_free(cells);
        return -1;
    }
    cells->mask = GF__CELLS_INITIAL - 1;
    cells->shift = 64 - 6;  /* log2(GF__CELLS_INITIAL) */
    cells->entries_cap = GF__ENTRIES_INITIAL;
    cells->free_entry = GF__NIL;
    *bytes += GF__CELLS_INITIAL * sizeof(gf__cell) + GF__ENTRIES_INITIAL * sizeof(gf__entry);
    return 0;
}

void gf__cells_free(gf__cells *cells) {
    free(cells->slots);
    free(cells->entries);
    memset(cells, 0, sizeof *cells);
}

/* Places a cell into a slot array that is known to have room and not to hold the key. */
static void gf__place(gf__cell *slots, uint32_t mask, uint32_t shift, gf__cell cell) {
    uint32_t i = gf__cell_hash(cell.key, shift);
    while (slots[i].key != 0) i = (i + 1) & mask;
    slots[i] = cell;
}

static int gf__grow_slots(gf__cells *cells, uint32_t needed, size_t *bytes) {
    uint64_t size = (uint64_t)cells->mask + 1;
    uint64_t target = size;
    /* Keep the load at or below 0.7 after `needed` more cells. */
    while ((cells->used + (uint64_t)needed) * 10 > target * 7) target *= 2;
    if (target == size) return 0;
    if (target > ((uint64_t)1 << 31)) return -1;
    gf__cell *slots = calloc((size_t)target, sizeof(gf__cell));
    if (slots == NULL) return -1;
    uint32_t mask = (uint32_t)(target - 1);
    uint32_t shift = 64;
    for (uint64_t n = target; n > 1; n >>= 1) shift--;
    for (uint64_t i = 0; i < size; i++)
        if (cells->slots[i].key != 0) gf__place(slots, mask, shift, cells->slots[i]);
    free(cells->slots);
    cells->slots = slots;
    cells->mask = mask;
    cells->shift = shift;
    *bytes += (size_t)((target - size) * sizeof(gf__cell));
    return 0;
}

static int gf__grow_entries(gf__cells *cells, uint32_t needed, size_t *bytes) {
    /* Entries not live are either on the free list or never used yet (past entries_next). */
    uint64_t available = (uint64_t)cells->entries_cap - cells->entries_used;
    if (available >= needed) return 0;
    uint64_t cap = cells->entries_cap;
    while (cap - cells->entries_used < needed) cap *= 2;
    if (cap >= GF__NIL) return -1;
    gf__entry *entries = realloc(cells->entries, (size_t)cap * sizeof(gf__entry));
    if (entries == NULL) return -1;
    *bytes += (size_t)((cap - cells->entries_cap) * sizeof(gf__entry));
    cells->entries = entries;
    cells->entries_cap = (uint32_t)cap;
    return 0;
}

int gf__cells_reserve(gf__cells *cells, uint32_t new_entries, size_t *bytes) {
    if (gf__grow_entries(cells, new_entries, bytes) != 0) return -1;
    return gf__grow_slots(cells, new_entries, bytes);
}

static uint32_t gf__take_entry(gf__cells *cells) {
    uint32_t e = cells->free_entry;
    if (e != GF__NIL) {
        cells->free_entry = cells->entries[e].next;
        return e;
    }
    GF__ASSERT(cells->entries_next < cells->entries_cap);
    return cells->entries_next++;
}

void gf__cells_add(gf__cells *cells, uint64_t key, uint32_t fence) {
    uint32_t i = gf__cell_hash(key, cells->shift);
    while (cells->slots[i].key != 0 && cells->slots[i].key != key) i = (i + 1) & cells->mask;
    gf__cell *slot = &cells->slots[i];
    if (slot->key == 0) {
        GF__ASSERT((cells->used + 1) * 10 <= ((uint64_t)cells->mask + 1) * 7);
        slot->key = key;
        slot->head = GF__NIL;
        slot->count = 0;
        cells->used++;
    }
    uint32_t e = gf__take_entry(cells);
    cells->entries[e].fence = fence;
    cells->entries[e].next = slot->head;
    slot->head = e;
    slot->count++;
    cells->entries_used++;
}

/* Deletes slot i and shifts later members of its probe run back, so lookups never need tombstones (Knuth 6.4 R). */
static void gf__delete_slot(gf__cells *cells, uint32_t i) {
    uint32_t mask = cells->mask;
    uint32_t hole = i;
    uint32_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (cells->slots[j].key == 0) break;
        uint32_t home = gf__cell_hash(cells->slots[j].key, cells->shift);
        /* Move j into the hole unless its home lies cyclically in (hole, j]. */
        int stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            cells->slots[hole] = cells->slots[j];
            hole = j;
        }
    }
    cells->slots[hole].key = 0;
    cells->slots[hole].head = GF__NIL;
    cells->slots[hole].count = 0;
    cells->used--;
}

int gf__cells_remove(gf__cells *cells, uint64_t key, uint32_t fence) {
    uint32_t i = gf__cell_hash(key, cells->shift);
    while (cells->slots[i].key != key) {
        if (cells->slots[i].key == 0) return -1;
        i = (i + 1) & cells->mask;
    }
    gf__cell *slot = &cells->slots[i];
    uint32_t *link = &slot->head;
    while (*link != GF__NIL && cells->entries[*link].fence != fence) link = &cells->entries[*link].next;
    if (*link == GF__NIL) return -1;
    uint32_t e = *link;
    *link = cells->entries[e].next;
    cells->entries[e].next = cells->free_entry;
    cells->free_entry = e;
    cells->entries_used--;
    if (--slot->count == 0) gf__delete_slot(cells, i);
    return 0;
}
