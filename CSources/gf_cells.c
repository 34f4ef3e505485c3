/*
 * gf_cells.c -- the index: a hash table whose slots are the fences' entries, its occupancy filter, and the list of
 * oversize fences (layout and invariants in gf_internal.h). Allocation happens only in gf__cells_init and
 * gf__cells_reserve, so callers can reserve first and then change the table knowing nothing can fail halfway.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

#define GF__SLOTS_INITIAL 64u   /* hash slots */
#define GF__SLOTS_MAX ((uint64_t)1 << 27)  /* more than GF_CAPACITY_MAX entries need at a load of 0.56 */

/* Filter words for a slot count: GF__FILTER_BITS_PER_SLOT bits per slot, rounded up to whole words (any count:
 * gf__filter_bit scales its hash to it). */
static size_t gf__filter_words(uint64_t slots) {
    return (size_t)((slots * GF__FILTER_BITS_PER_SLOT + 63) / 64);
}

/* Coverage map words for a slot count, likewise. */
static size_t gf__cover_words(uint64_t slots) {
    return (size_t)((slots * GF__COVER_BITS_PER_SLOT + 63) / 64);
}

/* Presence map words for a slot count, likewise. */
static size_t gf__presence_words(uint64_t slots) {
    return (size_t)((slots * GF__PRESENCE_BITS_PER_SLOT + 63) / 64);
}

static void gf__filter_set(gf__cells *cells, uint64_t key) {
    uint64_t bit = gf__filter_bit(key, cells->filter_words);
    cells->filter[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* Marks the sub-cells of `level` in latitudes lat_lo..lat_hi and longitudes u_lo..u_hi (< 3.6e9), or (mark 0)
 * returns whether all of them are marked. */
static int gf__cover_range(uint64_t *cover, uint32_t words, int mark, uint32_t level, uint32_t lat_lo,
                           uint32_t lat_hi, uint32_t u_lo, uint32_t u_hi) {
    const uint32_t shift = gf__cover_shift(level);
    const uint32_t row_lo = lat_lo >> shift, row_hi = lat_hi >> shift, col_lo = u_lo >> shift, col_hi = u_hi >> shift;
    int all = 1;
    for (uint32_t block_row = row_lo >> 3; block_row <= row_hi >> 3; block_row++) {
        uint32_t r0 = block_row == row_lo >> 3 ? row_lo & 7 : 0, r1 = block_row == row_hi >> 3 ? row_hi & 7 : 7;
        for (uint32_t block_col = col_lo >> 3; block_col <= col_hi >> 3; block_col++) {
            uint32_t c0 = block_col == col_lo >> 3 ? col_lo & 7 : 0, c1 = block_col == col_hi >> 3 ? col_hi & 7 : 7;
            uint64_t *word = &cover[gf__cover_word(level, block_row, block_col, words)];
            uint64_t mask = gf__cover_mask(r0, r1, c0, c1);
            if (mark) *word |= mask;
            else all &= (*word & mask) == mask;
        }
    }
    return all;
}

/* Marks the sub-cells of `level`'s grid that a box (an entry's span) overlaps, in `map`, or (mark 0) returns whether
 * they all are: as gf__cover_range, the box clamped at the north pole and cut in two across +-180 deg. */
static int gf__map_span(uint64_t *map, uint32_t words, int mark, uint32_t level, const gf__query_span *span) {
    uint32_t lat_hi = span->lat_hi < (uint32_t)GF__LAT_SPAN_E7 ? span->lat_hi : (uint32_t)GF__LAT_SPAN_E7;
    uint64_t u_hi = (uint64_t)span->u_lo + span->u_span;
    if (u_hi < (uint64_t)GF__LON_SPAN_E7)
        return gf__cover_range(map, words, mark, level, span->lat_lo, lat_hi, span->u_lo, (uint32_t)u_hi);
    return gf__cover_range(map, words, mark, level, span->lat_lo, lat_hi, span->u_lo, (uint32_t)(GF__LON_SPAN_E7 - 1))
         & gf__cover_range(map, words, mark, level, span->lat_lo, lat_hi, 0, (uint32_t)(u_hi - GF__LON_SPAN_E7));
}

/* Marks the sub-cells an entry's box (gf__entry_span) overlaps in its level's coverage map, at most 5 x 5 (6 columns
 * across +-180 deg), or (mark 0) returns whether they all are. */
static int gf__cover_entry(uint64_t *cover, uint32_t words, int mark, const gf__entry *entry) {
    const gf__query_span span = gf__entry_span(entry);
    return gf__map_span(cover, words, mark, gf__key_level(gf__entry_key(entry)), &span);
}

int gf__cover_holds(const gf__cells *cells, const gf__entry *entry) {
    return gf__cover_entry(cells->cover, cells->cover_words, 0, entry);
}

/* Whether an entry's box spans more presence blocks on a side than are marked bit by bit (GF__PRESENCE_SPAN_BLOCKS). */
static int gf__presence_too_wide(const gf__query_span *span) {
    const uint32_t block_shift = GF__PRESENCE_SHIFT + 3;
    const uint32_t lat_hi = span->lat_hi < (uint32_t)GF__LAT_SPAN_E7 ? span->lat_hi : (uint32_t)GF__LAT_SPAN_E7;
    const uint64_t u_hi = (uint64_t)span->u_lo + span->u_span;
    return (lat_hi >> block_shift) - (span->lat_lo >> block_shift) >= GF__PRESENCE_SPAN_BLOCKS
        || (u_hi >> block_shift) - (span->u_lo >> block_shift) >= GF__PRESENCE_SPAN_BLOCKS;
}

/* Marks an entry's box in its level's coverage map and in the presence map, where it counts unmarked when too wide
 * (which stops queries consulting the map at once); nothing in a presence map left empty. */
static void gf__mark_entry(gf__cells *cells, const gf__entry *entry) {
    const gf__query_span span = gf__entry_span(entry);
    gf__map_span(cells->cover, cells->cover_words, 1, gf__key_level(gf__entry_key(entry)), &span);
    if (cells->presence_dense_at != 0) return;
    if (gf__presence_too_wide(&span)) {
        cells->presence_unmarked++;
        cells->presence_useful = 0;
    } else {
        gf__map_span(cells->presence, cells->presence_words, 1, GF__PRESENCE_LEVEL, &span);
    }
}

int gf__presence_holds(const gf__cells *cells, const gf__entry *entry) {
    if (cells->presence_dense_at != 0) return 1;
    const gf__query_span span = gf__entry_span(entry);
    if (gf__presence_too_wide(&span)) return cells->presence_unmarked > 0;
    return gf__map_span(cells->presence, cells->presence_words, 0, GF__PRESENCE_LEVEL, &span);
}

/* Whether more than half the bits of the presence map's non-zero words are set. A fix near fences reads a non-zero
 * word, and past that density it mostly finds its bit set, so that the word read is wasted (10^6 circles over
 * 10 x 10 deg: a tenth of all the bits set, for the map is sized by the fences and they cover one area, but 19 in 20
 * of those in its words). One pass over the map: a rebuild's, not an add's work. */
static int gf__presence_dense(const gf__cells *cells) {
    uint64_t marked = 0, occupied = 0;
    for (uint32_t w = 0; w < cells->presence_words; w++) {
        occupied += cells->presence[w] != 0;
        for (uint64_t bits = cells->presence[w]; bits != 0; bits &= bits - 1) marked++;
    }
    return marked * 2 > occupied * 64;
}

/* Sets the filter bits of every cell with an entry and the coverage and presence bits of every entry's box (in the
 * hash table and in crowds; a marker's box is no fence's), and clears the rest. Then decides whether queries consult
 * the presence map: not when an entry was too wide to mark, nor when it is dense (gf__presence_dense). A dense map is
 * left empty, and adds mark nothing in it, until a rebuild with twice the slots it had then or one after removals
 * (`grown` 0): marking it costs every add and every rebuild a miss on a map that, say, 10^6 fences over 10 x 10 deg
 * fill anyway, and more fences on the same ground only fill it more. Its density is judged here only, so that adds
 * stay cheap: between rebuilds (at most a quarter more entries) a map may grow denser than judged. */
static void gf__filter_rebuild(gf__cells *cells, int grown) {
    memset(cells->filter, 0, gf__filter_words(cells->size) * sizeof(uint64_t));
    memset(cells->cover, 0, gf__cover_words(cells->size) * sizeof(uint64_t));
    memset(cells->presence, 0, gf__presence_words(cells->size) * sizeof(uint64_t));
    cells->presence_unmarked = 0;
    if (!grown || cells->size >= 2 * (uint64_t)cells->presence_dense_at) cells->presence_dense_at = 0;
    for (uint64_t i = 0; i < cells->size; i++)
        if (cells->slots[i].word != GF__EMPTY) {
            gf__filter_set(cells, gf__entry_key(&cells->slots[i]));
            if (!gf__entry_is_crowd(&cells->slots[i])) gf__mark_entry(cells, &cells->slots[i]);
        }
    for (uint32_t c = 0; c < cells->crowd_count; c++)
        for (uint32_t k = 0; cells->crowds[c].key != GF__EMPTY && k < cells->crowds[c].count; k++)
            gf__mark_entry(cells, &cells->crowds[c].entries[k]);
    if (cells->presence_dense_at == 0 && cells->presence_unmarked == 0 && gf__presence_dense(cells)) {
        memset(cells->presence, 0, gf__presence_words(cells->size) * sizeof(uint64_t));
        cells->presence_dense_at = cells->size;
    }
    cells->presence_useful = cells->presence_dense_at == 0 && cells->presence_unmarked == 0;
    cells->stale = 0;
}

static gf__entry *gf__empty_slots(uint64_t count) {
    gf__entry *slots = malloc((size_t)count * sizeof *slots);
    if (slots != NULL) memset(slots, 0xFF, (size_t)count * sizeof *slots);  /* every word GF__EMPTY */
    return slots;
}

int gf__cells_init(gf__cells *cells, size_t *bytes) {
    memset(cells, 0, sizeof *cells);
    cells->slots = gf__empty_slots(GF__SLOTS_INITIAL);
    cells->filter = calloc(gf__filter_words(GF__SLOTS_INITIAL), sizeof(uint64_t));
    cells->cover = calloc(gf__cover_words(GF__SLOTS_INITIAL), sizeof(uint64_t));
    cells->presence = calloc(gf__presence_words(GF__SLOTS_INITIAL), sizeof(uint64_t));
    cells->first = calloc(GF__SLOTS_INITIAL, 1);
    if (cells->slots == NULL || cells->filter == NULL || cells->cover == NULL || cells->presence == NULL
        || cells->first == NULL) {
        gf__cells_free(cells);
        return -1;
    }
    cells->size = GF__SLOTS_INITIAL;
    cells->filter_words = (uint32_t)gf__filter_words(GF__SLOTS_INITIAL);
    cells->cover_words = (uint32_t)gf__cover_words(GF__SLOTS_INITIAL);
    cells->presence_words = (uint32_t)gf__presence_words(GF__SLOTS_INITIAL);
    cells->presence_useful = 1;
    cells->crowd_free = GF__NIL;
    *bytes += GF__SLOTS_INITIAL * (sizeof(gf__entry) + 1)
            + (gf__filter_words(GF__SLOTS_INITIAL) + gf__cover_words(GF__SLOTS_INITIAL)
               + gf__presence_words(GF__SLOTS_INITIAL)) * sizeof(uint64_t);
    return 0;
}

void gf__cells_free(gf__cells *cells) {
    free(cells->slots);
    free(cells->filter);
    free(cells->cover);
    free(cells->presence);
    free(cells->first);
    free(cells->oversize);
    for (uint32_t c = 0; c < cells->crowd_count; c++) {  /* NULL when unused */
        free(cells->crowds[c].entries);
        free(cells->crowds[c].places);
    }
    free(cells->crowds);
    memset(cells, 0, sizeof *cells);
}

/* ---- Entries ---- */

uint64_t gf__entry_of(const gf__box *box, uint32_t level, gf__window_box *window) {
    GF__ASSERT(gf__box_fits(box, level));
    const uint32_t shift = gf__cell_shift(level), reach = 1u << (level - 1), qs = gf__window_shift(level);
    /* The midpoint, and the box as offsets from it: lo = mid - floor(extent / 2) and hi = mid + ceil(extent / 2),
     * both within 2^(level - 1) of it (extent <= 2^level), so inside the window of the midpoint's cell. */
    uint32_t lat_extent = box->lat_hi - box->lat_lo;
    uint32_t lat_mid = box->lat_lo + lat_extent / 2;
    uint32_t u_span = (uint32_t)(box->u_hi - box->u_lo);
    int64_t u_mid = box->u_lo + u_span / 2;
    if (u_mid >= GF__LON_SPAN_E7) u_mid -= GF__LON_SPAN_E7;
    uint32_t row = lat_mid >> shift, col = (uint32_t)(u_mid >> shift);
    uint32_t lat_lo = (lat_mid - (row << shift)) + reach - lat_extent / 2;
    uint32_t u_lo = (uint32_t)(u_mid - ((int64_t)col << shift)) + reach - u_span / 2;
    window->lat_lo = (uint16_t)(lat_lo >> qs);
    window->lat_hi = (uint16_t)((lat_lo + lat_extent) >> qs);
    window->u_lo = (uint16_t)(u_lo >> qs);
    window->u_hi = (uint16_t)((u_lo + u_span) >> qs);
    return gf__cell_key(level, row, col);
}

gf__wide_entry gf__wide_entry_of(const gf__box *box, uint32_t slot) {
    gf__wide_entry entry;
    entry.lat_lo = box->lat_lo;
    entry.lat_hi = box->lat_hi;
    entry.u_lo = (uint32_t)box->u_lo;
    entry.u_span = (uint32_t)(box->u_hi - box->u_lo);
    entry.slot = slot;
    return entry;
}

/* ---- Hash slots ---- */

/* Sets the start offset (gf__cells.first) of the home of every entry among `count` slots from slot `from` that is
 * the first of its home: after entries moved, so that the offsets stay lower bounds (an entry moved back must not
 * be skipped) and exact (one moved on need not be walked to). */
static void gf__first_refresh(gf__cells *cells, uint32_t from, uint32_t count) {
    uint32_t before = from == 0 ? cells->size - 1 : from - 1;
    uint32_t previous_home = cells->slots[before].word == GF__EMPTY
        ? GF__NIL : gf__cell_hash(gf__entry_key(&cells->slots[before]), cells->size);
    for (uint32_t i = from, k = 0; k < count; k++, i = gf__next_slot(cells, i)) {
        uint32_t home = gf__cell_hash(gf__entry_key(&cells->slots[i]), cells->size);
        if (home != previous_home) {
            uint32_t distance = i >= home ? i - home : i + cells->size - home;
            cells->first[home] = (uint8_t)(distance < GF__FIRST_MAX ? distance : GF__FIRST_MAX);
        }
        previous_home = home;
    }
}

/* Puts an entry into its place in home order (see gf_internal.h): after every entry whose home comes before its own
 * on the run, and after those of its own home except its cell's entries with a larger southern edge (a cell's entries
 * stay in ascending lat_lo order), shifting the rest of the run on by one slot (an entry never moves before its
 * home). */
static void gf__place(gf__cells *cells, gf__entry entry) {
    const uint64_t key = gf__entry_key(&entry);
    const uint32_t home = gf__cell_hash(key, cells->size);
    uint32_t i = home, d = 0;
    int after_own_home = 0;  /* whether an entry of the same home comes before it */
    for (; cells->slots[i].word != GF__EMPTY; d++) {
        uint32_t displacement = gf__displacement(cells, i);
        if (displacement < d) break;  /* a later home */
        if (displacement == d && gf__entry_key(&cells->slots[i]) == key
            && (cells->slots[i].box.lat_lo > entry.box.lat_lo || gf__entry_is_crowd(&entry)))
            break;  /* the first of its cell's entries lying further north; a crowd's marker goes first of all */
        after_own_home |= displacement == d;
        i = gf__next_slot(cells, i);
    }
    const uint32_t placed = i;
    uint32_t moved_count = 0;
    while (entry.word != GF__EMPTY) {
        gf__entry moved = cells->slots[i];
        cells->slots[i] = entry;
        entry = moved;
        i = gf__next_slot(cells, i);
        moved_count++;
    }
    /* The entry may be its home's first; the entries after it moved one slot on. */
    if (!after_own_home) cells->first[home] = (uint8_t)(d < GF__FIRST_MAX ? d : GF__FIRST_MAX);
    gf__first_refresh(cells, gf__next_slot(cells, placed), moved_count - 1);
}

/* Grows the slot array so that one more entry keeps the load at or below 0.7: by a quarter at a time, so that just
 * after a growth the load is 0.56 (doubling would leave it at 0.35 and the array's bytes per entry at up to twice
 * what the maximum load needs; the slots are most of the index's memory). Rehashing every entry is O(entries), after
 * a quarter as many additions: amortised O(1) per added entry all the same.
 * The order of a cell's entries in the new array never matters (a query sorts a level's hits by slot). */
static int gf__grow_slots(gf__cells *cells, size_t *bytes) {
    uint64_t size = cells->size;
    uint64_t target = size;
    while ((cells->used + (uint64_t)1) * 10 > target * 7) target += target / 4;
    if (target == size) return 0;
    if (target > GF__SLOTS_MAX) return -1;
    gf__entry *slots = gf__empty_slots(target);
    uint64_t *filter = malloc(gf__filter_words(target) * sizeof(uint64_t));
    uint64_t *cover = malloc(gf__cover_words(target) * sizeof(uint64_t));
    uint64_t *presence = malloc(gf__presence_words(target) * sizeof(uint64_t));
    uint8_t *first = calloc((size_t)target, 1);
    if (slots == NULL || filter == NULL || cover == NULL || presence == NULL || first == NULL) {
        free(slots);
        free(filter);
        free(cover);
        free(presence);
        free(first);
        return -1;
    }
    gf__entry *old = cells->slots;
    cells->slots = slots;
    cells->size = (uint32_t)target;
    free(cells->first);
    cells->first = first;
    for (uint64_t i = 0; i < size; i++)
        if (old[i].word != GF__EMPTY) gf__place(cells, old[i]);
    free(old);
    free(cells->filter);
    cells->filter = filter;
    cells->filter_words = (uint32_t)gf__filter_words(target);
    free(cells->cover);
    cells->cover = cover;
    cells->cover_words = (uint32_t)gf__cover_words(target);
    free(cells->presence);
    cells->presence = presence;
    cells->presence_words = (uint32_t)gf__presence_words(target);
    gf__filter_rebuild(cells, 1);
    *bytes += (size_t)((target - size) * (sizeof(gf__entry) + 1))
            + (gf__filter_words(target) - gf__filter_words(size) + gf__cover_words(target) - gf__cover_words(size)
               + gf__presence_words(target) - gf__presence_words(size)) * sizeof(uint64_t);
    return 0;
}

/* Deletes slot i and shifts the rest of its run back by one slot up to an empty slot or an entry at its home, which
 * keeps the home order and leaves no tombstones. */
static void gf__delete_slot(gf__cells *cells, uint32_t i) {
    const uint32_t deleted = i;
    uint32_t j = gf__next_slot(cells, i), moved_count = 0;
    while (cells->slots[j].word != GF__EMPTY && gf__displacement(cells, j) > 0) {
        cells->slots[i] = cells->slots[j];
        i = j;
        j = gf__next_slot(cells, j);
        moved_count++;
    }
    memset(&cells->slots[i], 0xFF, sizeof cells->slots[i]);
    cells->used--;
    gf__first_refresh(cells, deleted, moved_count);  /* the entries moved one slot back */
}

/* ---- Crowds (see gf__crowd) ---- */

/* The crowd of the cell `key`, or NULL: its marker is the first of the cell's entries (gf__place puts it there). */
static gf__crowd *gf__cell_crowd(const gf__cells *cells, uint64_t key) {
    gf__cell_run run = gf__cell_run_start(cells, key);
    uint32_t first = gf__cell_run_next(cells, &run);
    if (first == GF__NIL || !gf__entry_is_crowd(&cells->slots[first])) return NULL;
    return &cells->crowds[gf__entry_slot(&cells->slots[first])];
}

/* How many fences' entries the cell `key` has in the hash table (at most GF__CELL_HASHED_MAX): its crowd's count of
 * them, or, without a crowd, counted along its run. */
static uint32_t gf__cell_hashed(const gf__cells *cells, uint64_t key, const gf__crowd *crowd) {
    if (crowd != NULL) return crowd->hashed;
    uint32_t fences = 0;
    gf__cell_run run = gf__cell_run_start(cells, key);
    while (gf__cell_run_next(cells, &run) != GF__NIL) fences++;
    return fences;
}

/* Where in a crowd's hash the place of a fence's entry is, or the empty one where it would go. */
static uint32_t *gf__crowd_find(const gf__crowd *crowd, uint32_t slot) {
    const uint32_t places = 2 * crowd->cap;
    uint32_t k = gf__crowd_home(slot, places);
    while (crowd->places[k] != GF__NIL && gf__entry_slot(&crowd->entries[crowd->places[k]]) != slot)
        k = k + 1 == places ? 0 : k + 1;
    return &crowd->places[k];
}

/* Puts an entry at place `at` (which no other entry's place in the hash names), and says so in the hash. */
static void gf__crowd_set(gf__crowd *crowd, uint32_t at, gf__entry entry) {
    crowd->entries[at] = entry;
    *gf__crowd_find(crowd, gf__entry_slot(&entry)) = at;
}

/* Adds an entry at the end of its bucket: the first entry of each later bucket moves to that bucket's end, the
 * bucket starting one place later. Requires count < cap. */
static void gf__crowd_put(gf__crowd *crowd, gf__entry entry, uint32_t level) {
    const uint32_t bucket = gf__crowd_bucket(&entry.box, level);
    uint32_t hole = crowd->count;
    for (uint32_t b = GF__CROWD_BUCKETS - 1; b > bucket; b--) {
        const uint32_t first = crowd->start[b];
        if (first != hole) gf__crowd_set(crowd, hole, crowd->entries[first]);
        crowd->start[b] = first + 1;
        hole = first;
    }
    gf__crowd_set(crowd, hole, entry);
    crowd->count++;
}

/* Takes a fence's place out of a crowd's hash, moving back the places after it that the hole would hide from their
 * probe (linear probing's deletion without tombstones). */
static void gf__crowd_unplace(gf__crowd *crowd, uint32_t *place) {
    const uint32_t places = 2 * crowd->cap;
    uint32_t hole = (uint32_t)(place - crowd->places);
    for (uint32_t k = hole + 1 == places ? 0 : hole + 1; crowd->places[k] != GF__NIL;
         k = k + 1 == places ? 0 : k + 1) {
        /* The place at k may fill the hole unless its home lies cyclically after the hole, up to k. */
        uint32_t home = gf__crowd_home(gf__entry_slot(&crowd->entries[crowd->places[k]]), places);
        int home_after_hole = hole <= k ? (home > hole && home <= k) : (home > hole || home <= k);
        if (home_after_hole) continue;
        crowd->places[hole] = crowd->places[k];
        hole = k;
    }
    crowd->places[hole] = GF__NIL;
}

/* Takes the entry `word` out of a crowd: the last entry of its bucket fills its place, and the last entry of each
 * later bucket moves back to the end of the bucket before, that bucket starting one place earlier. Returns 0 (nothing
 * changed) when the crowd does not hold it. */
static int gf__crowd_take(gf__crowd *crowd, uint64_t word) {
    uint32_t *place = gf__crowd_find(crowd, (uint32_t)word & 0xFFFFFFu);
    if (*place == GF__NIL || crowd->entries[*place].word != word) return 0;
    uint32_t hole = *place, bucket = GF__CROWD_BUCKETS - 1;
    gf__crowd_unplace(crowd, place);
    while (crowd->start[bucket] > hole) bucket--;
    for (uint32_t b = bucket;; b++) {
        const uint32_t last = gf__crowd_end(crowd, b) - 1;
        if (last != hole) gf__crowd_set(crowd, hole, crowd->entries[last]);
        hole = last;
        if (b + 1 == GF__CROWD_BUCKETS) break;
        crowd->start[b + 1]--;
    }
    crowd->count--;
    return 1;
}

/* A crowd's arrays for cap entries: the entries, and an empty hash of 2 x cap places. Returns -1 when allocation
 * fails. */
static int gf__crowd_arrays(uint32_t cap, gf__entry **entries, uint32_t **places) {
    *entries = malloc((size_t)cap * sizeof **entries);
    *places = malloc((size_t)cap * 2 * sizeof **places);
    if (*entries == NULL || *places == NULL) {
        free(*entries);
        free(*places);
        return -1;
    }
    for (uint32_t k = 0; k < 2 * cap; k++) (*places)[k] = GF__NIL;
    return 0;
}

static size_t gf__crowd_bytes(uint32_t cap) {
    return (size_t)cap * (sizeof(gf__entry) + 2 * sizeof(uint32_t));
}

/* Frees the crowds without entries and takes their markers out of the hash table: O(crowd records), run when at
 * least half of the records in use are empty, so O(1) amortised per removal that emptied one. */
static void gf__sweep_crowds(gf__cells *cells, size_t *bytes) {
    for (uint32_t c = 0; c < cells->crowd_count; c++) {
        gf__crowd *crowd = &cells->crowds[c];
        if (crowd->key == GF__EMPTY || crowd->count != 0) continue;
        gf__cell_run run = gf__cell_run_start(cells, crowd->key);
        const uint32_t marker = gf__cell_run_next(cells, &run);
        GF__ASSERT(marker != GF__NIL && gf__entry_is_crowd(&cells->slots[marker]));
        gf__delete_slot(cells, marker);
        free(crowd->entries);
        free(crowd->places);
        *bytes -= gf__crowd_bytes(crowd->cap);
        /* memset rather than `= GF__EMPTY`: gcc on armhf stores a 64-bit constant through a VFP register, and this
         * file must hold none (the no-FPU check). */
        memset(&crowd->key, 0xFF, sizeof crowd->key);
        crowd->entries = NULL;
        crowd->places = NULL;
        crowd->cap = 0;
        crowd->count = cells->crowd_free;
        cells->crowd_free = c;
    }
    cells->crowds_empty = 0;
}

/* Gives the cell `key`, whose hash-table entries are full and which has no crowd, an empty crowd with room for
 * entries, and its marker. Requires room for one more slot in the hash table. Returns -1 (nothing changed) when
 * allocation fails. */
static int gf__crowd_create(gf__cells *cells, uint64_t key, size_t *bytes) {
    const uint32_t cap = 16;  /* entries: grown by half as they come (gf__crowd_room) */
    gf__entry *entries;
    uint32_t *places;
    if (gf__crowd_arrays(cap, &entries, &places) != 0) return -1;
    uint32_t c = cells->crowd_free;
    if (c == GF__NIL) {
        if (cells->crowd_count == cells->crowd_cap) {
            uint32_t records = cells->crowd_cap == 0 ? 4 : cells->crowd_cap * 2;
            gf__crowd *grown = realloc(cells->crowds, (size_t)records * sizeof *grown);
            if (grown == NULL) {
                free(entries);
                free(places);
                return -1;
            }
            *bytes += (size_t)(records - cells->crowd_cap) * sizeof *grown;
            cells->crowds = grown;
            cells->crowd_cap = records;
        }
        c = cells->crowd_count++;
    } else {
        cells->crowd_free = cells->crowds[c].count;
    }
    *bytes += gf__crowd_bytes(cap);
    gf__crowd *crowd = &cells->crowds[c];
    memset(crowd, 0, sizeof *crowd);
    crowd->key = key;
    crowd->entries = entries;
    crowd->places = places;
    crowd->cap = cap;
    crowd->hashed = GF__CELL_HASHED_MAX;  /* a crowd is made for a cell whose hash-table entries are full */
    gf__entry marker;
    marker.word = (key << 24) | c;
    marker.box.lat_lo = 0;
    marker.box.lat_hi = 0xFFFFu;
    marker.box.u_lo = 0;
    marker.box.u_hi = 0xFFFFu;
    gf__place(cells, marker);
    cells->used++;
    cells->crowds_empty++;
    return 0;
}

/* Room for one more entry in a crowd: its arrays grown by half when full (the entries copied in their order, the
 * hash rebuilt), O(1) amortised. Returns -1 (nothing changed) when allocation fails. */
static int gf__crowd_room(gf__crowd *crowd, size_t *bytes) {
    if (crowd->count < crowd->cap) return 0;
    gf__crowd grown = *crowd;
    grown.cap = crowd->cap + crowd->cap / 2;
    if (gf__crowd_arrays(grown.cap, &grown.entries, &grown.places) != 0) return -1;
    for (uint32_t k = 0; k < crowd->count; k++) gf__crowd_set(&grown, k, crowd->entries[k]);
    free(crowd->entries);
    free(crowd->places);
    *bytes += gf__crowd_bytes(grown.cap) - gf__crowd_bytes(crowd->cap);
    *crowd = grown;
    return 0;
}

int gf__cells_reserve(gf__cells *cells, const gf__box *box, uint32_t level, size_t *bytes) {
    if (!gf__box_fits(box, level)) {
        if (cells->oversize_count < cells->oversize_cap) return 0;
        uint32_t cap = cells->oversize_cap == 0 ? 4 : cells->oversize_cap * 2;
        gf__wide_entry *list = realloc(cells->oversize, (size_t)cap * sizeof *list);
        if (list == NULL) return -1;
        *bytes += (size_t)(cap - cells->oversize_cap) * sizeof *list;
        cells->oversize = list;
        cells->oversize_cap = cap;
        return 0;
    }
    /* Before the count below, so that no later removal (of gf_fence_move) can free the crowd counted on. */
    if (cells->crowds_empty > 0 && cells->crowds_empty * 2 >= cells->crowd_count) gf__sweep_crowds(cells, bytes);
    if (gf__grow_slots(cells, bytes) != 0) return -1;
    /* A cell whose hash-table entries are full takes the entry in its crowd (gf__cells_add): the crowd must exist
     * and have room. Removals before the add only make the cell's count smaller (the add then goes to the hash
     * table, where the slot reserved above is free, or one a removal freed). */
    gf__window_box window;
    const uint64_t key = gf__entry_of(box, level, &window);
    gf__crowd *crowd = gf__cell_crowd(cells, key);
    if (gf__cell_hashed(cells, key, crowd) < GF__CELL_HASHED_MAX) return 0;
    if (crowd == NULL) return gf__crowd_create(cells, key, bytes);
    return gf__crowd_room(crowd, bytes);
}

void gf__cells_add(gf__cells *cells, const gf__box *box, uint32_t level, uint32_t slot) {
    gf__entry entry;
    uint64_t key = gf__entry_of(box, level, &entry.box);
    entry.word = (key << 24) | slot;
    /* The reserve left a cell without a crowd below the limit (removals since only lower it), and gave a full one a
     * crowd: no need to count the cell's entries again. */
    gf__crowd *crowd = gf__cell_crowd(cells, key);
    GF__ASSERT(crowd != NULL || gf__cell_hashed(cells, key, NULL) < GF__CELL_HASHED_MAX);
    if (crowd == NULL || crowd->hashed < GF__CELL_HASHED_MAX) {
        GF__ASSERT((cells->used + 1) * 10 <= (uint64_t)cells->size * 7);
        gf__place(cells, entry);
        cells->used++;
        if (crowd != NULL) crowd->hashed++;
    } else {
        GF__ASSERT(crowd != NULL && crowd->count < crowd->cap);
        if (crowd->count == 0) cells->crowds_empty--;
        gf__crowd_put(crowd, entry, level);
    }
    gf__filter_set(cells, key);
    gf__mark_entry(cells, &entry);
}

void gf__cells_remove(gf__cells *cells, const gf__box *box, uint32_t level, uint32_t slot) {
    gf__window_box window;
    const uint64_t key = gf__entry_of(box, level, &window), word = (key << 24) | slot;
    /* A crowded cell: its crowd first (O(1) expected), where most of its entries are; else along the run. */
    gf__crowd *crowd = gf__cell_crowd(cells, key);
    if (crowd != NULL && gf__crowd_take(crowd, word)) {
        if (crowd->count == 0) cells->crowds_empty++;
    } else {
        /* Along the run, past the marker: its word holds a crowd index where a fence slot would be. */
        uint32_t found = GF__NIL;
        gf__cell_run run = gf__cell_run_start(cells, key);
        for (uint32_t i; found == GF__NIL && (i = gf__cell_run_next(cells, &run)) != GF__NIL;)
            if (cells->slots[i].word == word && !gf__entry_is_crowd(&cells->slots[i])) found = i;
        GF__ASSERT(found != GF__NIL);
        gf__delete_slot(cells, found);
        if (crowd != NULL) crowd->hashed--;
    }
    /* The cell's filter bit and the box's coverage and presence bits stay set (other entries may need them, other
     * cells and blocks may share them). Rebuilding after a quarter of the slot count in removals keeps the stale bits
     * below that and costs O(1) per removal, amortised (at most 25 coverage bits and 16 x 16 presence words per
     * entry). */
    if (++cells->stale > cells->size / 4) gf__filter_rebuild(cells, 0);
}

/* ---- Oversize fences ---- */

void gf__oversize_add(gf__cells *cells, const gf__box *box, uint32_t slot) {
    GF__ASSERT(cells->oversize_count < cells->oversize_cap);
    uint32_t at = cells->oversize_count;
    while (at > 0 && cells->oversize[at - 1].slot > slot) {
        cells->oversize[at] = cells->oversize[at - 1];
        at--;
    }
    cells->oversize[at] = gf__wide_entry_of(box, slot);
    cells->oversize_count++;
}

void gf__oversize_remove(gf__cells *cells, uint32_t slot) {
    uint32_t at = 0;
    while (cells->oversize[at].slot != slot) at++;
    GF__ASSERT(at < cells->oversize_count);
    memmove(&cells->oversize[at], &cells->oversize[at + 1], (cells->oversize_count - 1 - at) * sizeof *cells->oversize);
    cells->oversize_count--;
}
