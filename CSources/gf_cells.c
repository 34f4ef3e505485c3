/*
 * gf_cells.c -- the index's hash table of grid cells and the arena of entry blocks behind it (layout and invariants
 * in gf_internal.h). Allocation happens only in gf__cells_init and gf__cells_reserve, so callers can reserve first and
 * then change the table knowing nothing can fail halfway.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

#define GF__SLOTS_INITIAL 64u   /* hash slots */
#define GF__ARENA_INITIAL 256u  /* entries */
_Static_assert(GF__SLOTS_INITIAL * GF__FILTER_BITS_PER_SLOT >= 8 * 64, "gf__filter_bit needs 8 filter words or more");

/* Filter words for a slot count: GF__FILTER_BITS_PER_SLOT bits per slot rounded up to a power of two (gf__filter_bit
 * takes the top bits of a hash), at least one word. */
static size_t gf__filter_words(uint64_t slots) {
    uint64_t bits = 64;
    while (bits < slots * GF__FILTER_BITS_PER_SLOT) bits *= 2;
    return (size_t)(bits / 64);
}

/* 64 - log2(filter bits) for a slot count. */
static uint32_t gf__filter_shift(uint64_t slots) {
    uint32_t shift = 64;
    for (uint64_t n = gf__filter_words(slots) * 64; n > 1; n >>= 1) shift--;
    return shift;
}

/* Sets the filter bits of every key in the table and clears the rest. */
static void gf__filter_rebuild(gf__cells *cells) {
    memset(cells->filter, 0, gf__filter_words(cells->size) * sizeof(uint64_t));
    for (uint64_t i = 0; i < cells->size; i++) {
        uint64_t key = cells->slots[i].key;
        if (key == 0) continue;
        uint64_t bit = gf__filter_bit(key, cells->filter_shift);
        cells->filter[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
    cells->stale = 0;
}

int gf__cells_init(gf__cells *cells, size_t *bytes) {
    memset(cells, 0, sizeof *cells);
    cells->slots = calloc(GF__SLOTS_INITIAL, sizeof(gf__cell));
    cells->arena = malloc(GF__ARENA_INITIAL * sizeof(gf__entry));
    cells->filter = calloc(gf__filter_words(GF__SLOTS_INITIAL), sizeof(uint64_t));
    if (cells->slots == NULL || cells->arena == NULL || cells->filter == NULL) {
        gf__cells_free(cells);
        return -1;
    }
    cells->size = GF__SLOTS_INITIAL;
    cells->filter_shift = gf__filter_shift(GF__SLOTS_INITIAL);
    cells->arena_cap = GF__ARENA_INITIAL;
    for (int c = 0; c < GF__CLASSES; c++) cells->free_block[c] = GF__NIL;
    *bytes += GF__SLOTS_INITIAL * sizeof(gf__cell) + GF__ARENA_INITIAL * sizeof(gf__entry)
            + gf__filter_words(GF__SLOTS_INITIAL) * sizeof(uint64_t);
    return 0;
}

void gf__cells_free(gf__cells *cells) {
    free(cells->slots);
    free(cells->arena);
    free(cells->filter);
    memset(cells, 0, sizeof *cells);
}

/* ---- Hash slots ---- */

/* The slot index holding key, or of the empty slot where it would go. */
static uint32_t gf__slot_of(const gf__cells *cells, uint64_t key) {
    uint32_t i = gf__cell_hash(key, cells->size);
    while (cells->slots[i].key != 0 && cells->slots[i].key != key) i = gf__next_slot(cells, i);
    return i;
}

/* Grows the slot array so that `new_cells` more cells keep the load at or below 0.7: by half at a time, so that just
 * after a growth the load is 0.47 (doubling would leave it at 0.35 and the array's bytes per cell at up to twice
 * what the maximum load needs). Rehashing every cell is O(cells), amortised O(1) per added cell all the same. */
static int gf__grow_slots(gf__cells *cells, uint32_t new_cells, size_t *bytes) {
    uint64_t size = cells->size;
    uint64_t target = size;
    while ((cells->used + (uint64_t)new_cells) * 10 > target * 7) target += target / 2;
    if (target == size) return 0;
    if (target > ((uint64_t)1 << 31)) return -1;
    gf__cell *slots = calloc((size_t)target, sizeof(gf__cell));
    uint64_t *filter = malloc(gf__filter_words(target) * sizeof(uint64_t));
    if (slots == NULL || filter == NULL) {
        free(slots);
        free(filter);
        return -1;
    }
    gf__cell *old = cells->slots;
    cells->slots = slots;
    cells->size = (uint32_t)target;
    for (uint64_t i = 0; i < size; i++)
        if (old[i].key != 0) cells->slots[gf__slot_of(cells, old[i].key)] = old[i];
    free(old);
    free(cells->filter);
    cells->filter = filter;
    cells->filter_shift = gf__filter_shift(target);
    gf__filter_rebuild(cells);
    *bytes += (size_t)((target - size) * sizeof(gf__cell))
            + (gf__filter_words(target) - gf__filter_words(size)) * sizeof(uint64_t);
    return 0;
}

/* Deletes slot i and shifts later members of its probe run back, so lookups never need tombstones (Knuth 6.4 R). */
static void gf__delete_slot(gf__cells *cells, uint32_t i) {
    uint32_t hole = i;
    uint32_t j = i;
    for (;;) {
        j = gf__next_slot(cells, j);
        if (cells->slots[j].key == 0) break;
        uint32_t home = gf__cell_hash(cells->slots[j].key, cells->size);
        /* Move j into the hole unless its home lies cyclically in (hole, j]. */
        int stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            cells->slots[hole] = cells->slots[j];
            hole = j;
        }
    }
    memset(&cells->slots[hole], 0, sizeof cells->slots[hole]);
    cells->used--;
}

/* ---- Blocks ---- */

/* Hands out a block of class c: from the class's free list, else from the arena's unused tail (reserved first). */
static uint32_t gf__take_block(gf__cells *cells, uint32_t c) {
    uint32_t block = cells->free_block[c];
    if (block != GF__NIL) {
        cells->free_block[c] = cells->arena[block].slot;
        return block;
    }
    GF__ASSERT((uint64_t)cells->arena_top + (1u << c) <= cells->arena_cap);
    block = cells->arena_top;
    cells->arena_top += 1u << c;
    return block;
}

static void gf__give_block(gf__cells *cells, uint32_t block, uint32_t c) {
    cells->arena[block].slot = cells->free_block[c];
    cells->free_block[c] = block;
}

int gf__cells_reserve(gf__cells *cells, const gf__cell_rect *rect, size_t *bytes) {
    /* Arena entries the additions may take from the unused tail: a new block for every new or full cell (free
     * lists are ignored: an over-estimate that costs nothing but headroom). */
    uint64_t tail = 0;
    uint32_t new_cells = 0;
    for (uint32_t s = 0; s < rect->segments; s++)
        for (uint32_t col = rect->col_lo[s]; col <= rect->col_hi[s]; col++)
            for (uint32_t row = rect->row_lo; row <= rect->row_hi; row++) {
                const gf__cell *cell = gf__cells_find(cells, gf__cell_key(rect->level, row, col));
                if (cell == NULL) {
                    tail += 1;
                    new_cells++;
                } else if (gf__cell_count(cell) == (1u << gf__cell_class(cell))) {
                    tail += 2u << gf__cell_class(cell);
                }
            }
    uint64_t needed = (uint64_t)cells->arena_top + tail;
    if (needed > cells->arena_cap) {
        uint64_t cap = cells->arena_cap;
        while (cap < needed) cap += cap / 2;  /* by half: at most a third of the arena unused after a growth */
        if (cap > GF__NIL) return -1;
        gf__entry *arena = realloc(cells->arena, (size_t)cap * sizeof(gf__entry));
        if (arena == NULL) return -1;
        *bytes += (size_t)((cap - cells->arena_cap) * sizeof(gf__entry));
        cells->arena = arena;
        cells->arena_cap = (uint32_t)cap;
    }
    return gf__grow_slots(cells, new_cells, bytes);
}

void gf__cells_add(gf__cells *cells, uint64_t key, const gf__entry *entry) {
    uint32_t i = gf__slot_of(cells, key);
    gf__cell *cell = &cells->slots[i];
    if (cell->key == 0) {
        GF__ASSERT((cells->used + 1) * 10 <= (uint64_t)cells->size * 7);
        cell->key = key;
        cell->offset = gf__take_block(cells, 0);
        cell->count = 0;  /* class 0, no entries */
        cells->used++;
        uint64_t bit = gf__filter_bit(key, cells->filter_shift);
        cells->filter[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
    uint32_t count = gf__cell_count(cell), c = gf__cell_class(cell);
    if (count == (1u << c)) {
        /* Full: move to a block twice the size. */
        uint32_t block = gf__take_block(cells, c + 1);
        memcpy(&cells->arena[block], &cells->arena[cell->offset], count * sizeof(gf__entry));
        gf__give_block(cells, cell->offset, c);
        cell->offset = block;
        c++;
    }
    /* Into its place in ascending slot order: the entries after it move up one. */
    gf__entry *block = &cells->arena[cell->offset];
    uint32_t at = count;
    while (at > 0 && block[at - 1].slot > entry->slot) {
        block[at] = block[at - 1];
        at--;
    }
    block[at] = *entry;
    cell->count = (c << GF__COUNT_BITS) | (count + 1);
    cells->live++;
}

int gf__cells_remove(gf__cells *cells, uint64_t key, uint32_t slot) {
    uint32_t i = gf__slot_of(cells, key);
    gf__cell *cell = &cells->slots[i];
    if (cell->key == 0) return -1;
    gf__entry *block = &cells->arena[cell->offset];
    uint32_t count = gf__cell_count(cell), c = gf__cell_class(cell);
    uint32_t at = 0;
    while (at < count && block[at].slot != slot) at++;
    if (at == count) return -1;
    memmove(&block[at], &block[at + 1], (count - 1 - at) * sizeof(gf__entry));  /* keeps the slot order */
    cells->live--;
    if (--count == 0) {
        gf__give_block(cells, cell->offset, c);
        gf__delete_slot(cells, i);
        /* The key's filter bit stays set (another key may share it). Rebuilding after a quarter of the slot count
         * in deletions keeps the stale bits below that and costs O(1) per deletion, amortised. */
        if (++cells->stale > cells->size / 4) gf__filter_rebuild(cells);
        return 0;
    }
    cell->count = (c << GF__COUNT_BITS) | count;
    return 0;
}
