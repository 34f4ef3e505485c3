/*
 * gf_query.c -- the hot path: which fences contain a fix or have their boundary within a margin of it.
 * Integer only, allocation-free, reads the table only (safe for concurrent readers, see THREADING in geofence.h).
 *
 * Per fix: the query box (fix +- margin, in e7), then per occupied level the cells whose window meets it (two per
 * axis for a small box; looked up for all levels together, so that their cache misses overlap), then per entry of those cells a
 * box compare in 16-bit window offsets. Only for fences whose box meets the query's: the fix's ECEF (once), the fence
 * record, a squared chord compared with the squared reach, and for the few that pass a square root for the signed
 * distance. With a cursor, no lookups while the box stays in the area around an earlier fix: the cursor remembers
 * the fences whose box meets that area (gf_cursor.c).
 *
 * Order: level by level (ascending), and within a level by ascending fence slot. Each fence has one index entry, so
 * it is met once; a level's hits are put in slot order as they are found (gf__emit), whatever order the cells and
 * their probe runs give. A cursor keeps its fences in that order, so a fix in its area appends its hits as it tests
 * them (gf__test_remembered) and reports exactly what a query does.
 */
#include "gf_internal.h"

/* Fence boxes never reach beyond this latitude: 85 deg plus the extent of a 50 km fence (with the box slack). */
static int32_t gf__fence_lat_reach_e7(void) {
    return (int32_t)(GF_FENCE_LAT_MAX_E7 + gf__lat_reach_e7((uint64_t)GF_RADIUS_MAX_MM + GF__BOX_SLACK_MM));
}

/* The fix of one query and its ECEF, computed on first need (most fixes of a drive overlap no fence's box and never
 * need it). */
typedef struct gf__fix_at {
    gf_point fix;
    gf__ecef at;
    int at_ready;
} gf__fix_at;

/* State of one query: the fix (gf__fix_at), its box and the output, whose hits from level_start on are the current
 * level's: in the order found while the buffer has room (level_unsorted says whether that is slot order), in slot
 * order once it is full and when the level ends (gf__sink_level, gf__sink_finish). */
typedef struct gf__sink {
    gf__fix_at fix;
    gf__query_span span;
    gf_hit *hits;
    size_t capacity;
    size_t count;
    size_t level_start;
    uint32_t level_index;  /* the level whose hits start at level_start, or GF__NIL */
    int level_unsorted;    /* whether the stored hits from level_start on are out of slot order */
} gf__sink;

static inline void gf__sink_start(gf__sink *sink, gf_point fix, gf__query_span span, gf_hit *hits,
                                  size_t capacity) {
    sink->fix.fix = fix;
    sink->fix.at_ready = 0;  /* sink->fix.at is set when it is first needed */
    sink->span = span;
    sink->hits = hits;
    sink->capacity = capacity;
    sink->count = 0;
    sink->level_start = 0;
    sink->level_index = GF__NIL;
    sink->level_unsorted = 0;
}

/* The margin in q (for the chord test), rounded up. */
static inline int64_t gf__margin_q(uint32_t margin_mm) {
    return ((int64_t)margin_mm * GF__Q_PER_M + 999) / 1000;
}

static inline uint32_t gf__hit_slot(const gf_hit *hit) { return hit->handle & GF__SLOT_MASK; }

/* Fields are copied one by one: a gf_hit copy may become a 64-bit move, which gcc does through a VFP register on
 * armhf, and the query path must not touch the FPU. */
static inline void gf__swap_hits(gf_hit *a, gf_hit *b) {
    gf_handle handle = a->handle;
    int32_t distance_mm = a->distance_mm;
    a->handle = b->handle;
    a->distance_mm = b->distance_mm;
    b->handle = handle;
    b->distance_mm = distance_mm;
}

static void gf__sift_down(gf_hit *hits, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && gf__hit_slot(&hits[child + 1]) > gf__hit_slot(&hits[child])) child++;
        if (gf__hit_slot(&hits[root]) >= gf__hit_slot(&hits[child])) return;
        gf__swap_hits(&hits[root], &hits[child]);
        root = child;
    }
}

/* Puts hits[0 .. n) in ascending slot order: heapsort, in place and O(n log n) (a level's hits may number thousands
 * where fences are large, and putting each in place as found cost O(n^2)). */
static void gf__sort_hits(gf_hit *hits, size_t n) {
    if (n < 2) return;
    for (size_t root = n / 2; root-- > 0;) gf__sift_down(hits, root, n);
    for (size_t end = n - 1; end > 0; end--) {
        gf__swap_hits(&hits[0], &hits[end]);
        gf__sift_down(hits, 0, end);
    }
}

/* Puts the current level's stored hits in slot order. (level_unsorted implies level_start < the stored count.) */
static inline void gf__sink_sort_level(gf__sink *sink) {
    if (!sink->level_unsorted) return;
    size_t stored = sink->count < sink->capacity ? sink->count : sink->capacity;
    gf__sort_hits(sink->hits + sink->level_start, stored - sink->level_start);
    sink->level_unsorted = 0;
}

/* Makes level_index the sink's current level (its hits start at the sink's count) unless it is already; the level
 * before it ends in slot order. */
static inline void gf__sink_level(gf__sink *sink, uint32_t level_index) {
    if (sink->level_index != level_index) {
        gf__sink_sort_level(sink);
        sink->level_index = level_index;
        sink->level_start = sink->count;
    }
}

/* Ends the query: its last level in slot order, the hit count out, and the status. */
static inline gf_status gf__sink_finish(gf__sink *sink, size_t *count) {
    gf__sink_sort_level(sink);
    *count = sink->count;
    return sink->count > sink->capacity ? GF_ERR_TRUNCATED : GF_OK;
}

/* Records a hit of fence `slot` in the current level, so that the buffer ends up holding the first `capacity` hits of
 * the whole list in (level, slot) order: appended while there is room (the level is sorted when it ends); once the
 * buffer is full, a hit that belongs after its end is only counted, and one that belongs before pushes the last one
 * out. The distance comes as a gf_hit holds it, in 32 bits (a 64-bit argument that the ARM calling convention puts on
 * the stack is copied there by gcc through a VFP register on armhf). */
static void gf__emit(gf__sink *sink, uint32_t slot, gf_handle handle, int32_t distance_mm) {
    gf_hit *hits = sink->hits;
    if (sink->count < sink->capacity) {
        size_t at = sink->count++;
        if (at > sink->level_start && gf__hit_slot(&hits[at - 1]) > slot) sink->level_unsorted = 1;
        hits[at].handle = handle;
        hits[at].distance_mm = distance_mm;
        return;
    }
    sink->count++;
    if (sink->capacity == 0) return;
    gf__sink_sort_level(sink);
    size_t at = sink->capacity;
    while (at > sink->level_start && gf__hit_slot(&hits[at - 1]) > slot) at--;
    if (at == sink->capacity) return;
    for (size_t k = sink->capacity - 1; k > at; k--) {
        hits[k].handle = hits[k - 1].handle;
        hits[k].distance_mm = hits[k - 1].distance_mm;
    }
    hits[at].handle = handle;
    hits[at].distance_mm = distance_mm;
}

/* The exact test of a polygon or corridor (out of line: rare, and large). A hit's distance lies within the margin
 * outside or within the shape's extent inside: it fits 32 bits (gf_hit). */
static int gf__shape_hit(const gf_table *table, uint32_t slot, uint32_t margin_mm, gf__fix_at *fix,
                         int32_t *distance_mm) {
    int64_t distance;
    if (!gf__shape_test(table->shapes[slot], fix->fix, &fix->at, &fix->at_ready, margin_mm, &distance)) return 0;
    *distance_mm = (int32_t)distance;
    return 1;
}

/* The exact test of the fence in `slot`, whose box meets the query's: whether it is a hit, and then its distance. A
 * circle's hit lies between minus the radius and the margin: it fits 32 bits. */
static inline __attribute__((always_inline)) int gf__fence_hit(const gf_table *table, uint32_t slot,
                                                               int64_t margin_q, uint32_t margin_mm,
                                                               gf__fix_at *fix, int32_t *distance_mm) {
    const gf__fence *fence = &table->fences[slot];
    if (fence->radius_mm == GF__SHAPE_RADIUS) return gf__shape_hit(table, slot, margin_mm, fix, distance_mm);
    if (!fix->at_ready) {
        fix->at = gf__ecef_of(fix->fix);
        fix->at_ready = 1;
    }
    /* Chord <= arc, so a hit has chord <= radius + margin: reach bounds the chord. reach <= 2.6e7 q, so reach^2
     * stays far below 2^63; the squared chord of two points on the ellipsoid never overflows (gf__chord2). */
    const gf__ecef centre = {fence->x, fence->y, fence->z};
    int64_t reach = (int64_t)gf__reach_q(fence->radius_mm) + margin_q + 1;
    uint64_t chord2 = gf__chord2(fix->at, centre);
    if (chord2 > (uint64_t)(reach * reach)) return 0;

    int64_t distance = gf__arc_mm(chord2) - (int64_t)fence->radius_mm;
    if (distance > (int64_t)margin_mm) return 0;
    *distance_mm = (int32_t)distance;
    return 1;
}

/* gf__fence_hit, its hit recorded in the sink. */
static inline __attribute__((always_inline)) void gf__test_fence(const gf_table *table, uint32_t slot,
                                                                 int64_t margin_q, uint32_t margin_mm,
                                                                 gf__sink *sink) {
    int32_t distance_mm;
    if (gf__fence_hit(table, slot, margin_q, margin_mm, &sink->fix, &distance_mm))
        gf__emit(sink, slot, gf__handle_of(slot, table->generations[slot]), distance_mm);
}

/* Fences whose box meets the query's, found in the cells of gf__search's last round and tested after all of them
 * have been read: their records (and generations) are loaded meanwhile, so that those misses overlap too. In the
 * order found, each with its level's index; tested whenever the list fills. */
#define GF__PENDING_MAX 32
typedef struct gf__pending {
    uint32_t count;
    uint32_t slot[GF__PENDING_MAX];
    uint32_t level_index[GF__PENDING_MAX];
} gf__pending;

static void gf__test_pending(const gf_table *table, gf__pending *pending, int64_t margin_q, uint32_t margin_mm,
                             gf__sink *sink) {
    for (uint32_t k = 0; k < pending->count; k++) {
        gf__sink_level(sink, pending->level_index[k]);
        gf__test_fence(table, pending->slot[k], margin_q, margin_mm, sink);
    }
    pending->count = 0;
}

static void gf__list_fence(const gf_table *table, uint32_t slot, uint32_t level_index, gf__pending *pending,
                           int64_t margin_q, uint32_t margin_mm, gf__sink *sink) {
    if (pending->count == GF__PENDING_MAX) gf__test_pending(table, pending, margin_q, margin_mm, sink);
    __builtin_prefetch(&table->fences[slot]);
    __builtin_prefetch(&table->generations[slot]);
    pending->slot[pending->count] = slot;
    pending->level_index[pending->count++] = level_index;
}

/* Lists the fences of a crowded cell's crowd whose box meets the query's box q in the cell's window: the buckets that
 * may hold such boxes (gf__crowd_reach), each a row of buckets one after another. Out of line: only crowded cells
 * have one. */
static __attribute__((noinline)) void gf__list_crowd(const gf_table *table, const gf__crowd *crowd,
                                                     const gf__window_box *q, uint32_t level, uint32_t level_index,
                                                     gf__pending *pending, int64_t margin_q, uint32_t margin_mm,
                                                     gf__sink *sink) {
    const gf__crowd_bands bands = gf__crowd_reach(q, level);
    for (uint32_t lat = bands.lat_lo; lat <= bands.lat_hi; lat++) {
        const uint32_t end = gf__crowd_end(crowd, lat * GF__CROWD_BANDS + bands.u_hi);
        for (uint32_t k = crowd->start[lat * GF__CROWD_BANDS + bands.u_lo]; k < end; k++) {
            const gf__entry *entry = &crowd->entries[k];
            if (gf__window_meets(&entry->box, q))
                gf__list_fence(table, gf__entry_slot(entry), level_index, pending, margin_q, margin_mm, sink);
        }
    }
}

/* Lists the fences of one cell of level index level_index, whose run starts as given (gf__cell_run_start): its
 * entries (in ascending lat_lo) whose box meets the query's, and those of its crowd when it has one. */
static void gf__scan_run(const gf_table *table, gf__cell_run run, uint32_t level_index, gf__pending *pending,
                         int64_t margin_q, uint32_t margin_mm, gf__sink *sink) {
    gf__window_box q;
    const uint64_t key = run.key;
    uint32_t level = gf__key_level(key);
    if (!gf__window_query(&sink->span, level, gf__key_row(key), gf__key_col(key), &q)) return;
    const gf__cells *cells = &table->cells;
    for (uint32_t i; (i = gf__cell_run_next(cells, &run)) != GF__NIL;) {
        const gf__entry *entry = &cells->slots[i];
        if (entry->box.lat_lo > q.lat_hi) break;  /* this and the cell's further entries lie north of the box */
        if (!gf__window_meets(&entry->box, &q)) continue;
        if (gf__entry_is_crowd(entry))  /* it meets every box: the cell's crowd */
            gf__list_crowd(table, &cells->crowds[gf__entry_slot(entry)], &q, level, level_index, pending,
                           margin_q, margin_mm, sink);
        else
            gf__list_fence(table, gf__entry_slot(entry), level_index, pending, margin_q, margin_mm, sink);
    }
}

/* Tests the fences of one cell, at once. */
static void gf__scan_cell(const gf_table *table, uint64_t key, int64_t margin_q, uint32_t margin_mm, gf__sink *sink) {
    gf__pending pending;
    pending.count = 0;
    gf__scan_run(table, gf__cell_run_start(&table->cells, key), sink->level_index, &pending, margin_q, margin_mm,
                 sink);
    gf__test_pending(table, &pending, margin_q, margin_mm, sink);
}

/* Tests every entry of a level, read from the whole slot array (and its crowds): for a box far larger than the
 * level's cells. */
static void gf__scan_level(const gf_table *table, uint32_t level, int64_t margin_q, uint32_t margin_mm,
                           gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    for (uint64_t i = 0; i < cells->size; i++) {
        const gf__entry *entry = &cells->slots[i];
        if (entry->word == GF__EMPTY) continue;
        uint64_t key = gf__entry_key(entry);
        gf__window_box q;
        if (gf__key_level(key) != level
            || !gf__window_query(&sink->span, level, gf__key_row(key), gf__key_col(key), &q)
            || !gf__window_meets(&entry->box, &q))
            continue;
        if (!gf__entry_is_crowd(entry)) {
            gf__test_fence(table, gf__entry_slot(entry), margin_q, margin_mm, sink);
            continue;
        }
        const gf__crowd *crowd = &cells->crowds[gf__entry_slot(entry)];
        for (uint32_t k = 0; k < crowd->count; k++)
            if (gf__window_meets(&crowd->entries[k].box, &q))
                gf__test_fence(table, gf__entry_slot(&crowd->entries[k]), margin_q, margin_mm, sink);
    }
}

/* The cells of a level whose windows meet a box larger than a cell or two, cell by cell or (far larger than the
 * cells) by one pass over the slot array, whichever reads less. */
static void gf__scan_rect(const gf_table *table, const gf__cell_rect *rect, int64_t margin_q, uint32_t margin_mm,
                          gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    if (gf__rect_cells(rect) > (uint64_t)cells->size / 8) {
        gf__scan_level(table, rect->level, margin_q, margin_mm, sink);
        return;
    }
    gf__filter_cache filter = {GF__NO_BLOCK, 0};
    for (uint32_t s = 0; s < rect->segments; s++)
        for (uint32_t col = rect->col_lo[s]; col <= rect->col_hi[s]; col++)
            for (uint32_t row = rect->row_lo; row <= rect->row_hi; row++) {
                uint64_t key = gf__cell_key(rect->level, row, col);
                if (gf__filter_maybe_near(cells, key, &filter)) gf__scan_cell(table, key, margin_q, margin_mm, sink);
            }
}

/* The oversize fences whose box meets the query's (counted with the coarsest level, in slot order). */
static __attribute__((noinline)) void gf__scan_oversize(const gf_table *table, int64_t margin_q, uint32_t margin_mm,
                                                         gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    const gf__query_span q = sink->span;
    for (uint32_t i = 0; i < cells->oversize_count; i++) {
        const gf__wide_entry *entry = &cells->oversize[i];
        if (q.lat_lo > entry->lat_hi || entry->lat_lo > q.lat_hi) continue;
        if (!gf__lon_overlap(entry->u_lo, entry->u_span, q.u_lo, q.u_span)) continue;
        gf__test_fence(table, entry->slot, margin_q, margin_mm, sink);
    }
}

/* The oversize fences, after the levels' (they count with the coarsest level, which they make occupied). Always
 * inline: every query asks, and the answer is mostly that the coarsest level is empty. */
static inline __attribute__((always_inline)) void gf__search_oversize(const gf_table *table, int64_t margin_q,
                                                                      uint32_t margin_mm, gf__sink *sink) {
    const uint32_t n = table->level_count;
    if (n > 0 && table->levels[n - 1] == GF__LEVEL_MAX) {
        gf__sink_level(sink, n - 1);
        gf__scan_oversize(table, margin_q, margin_mm, sink);
    }
}

/* Most cells per level looked up together (a small box probes 2 x 2; more go through gf__scan_rect). */
#define GF__PROBE_CELLS 4
#define GF__PROBE_RECT 0x80000000u  /* a probe's level index marked: the level's rect, not a cell */

/* Searches every occupied level for the box: first the presence map's word, which ends the search for most fixes
 * away from every fence where fences are sparse; then in rounds, each of which starts the loads the next one needs
 * for every level before it waits for any: a fix in a new place misses the cache at each step (the coverage word,
 * the filter word and the home's start offset, the first slot of each cell), and loads that do not wait for one
 * another overlap, so a fix pays about one miss per round instead of one per level and step.
 *   1. the coverage word of each level (a box in one sub-cell: the usual case);
 *   2. the coverage test, which skips most levels for a fix away from every fence; the other levels' cells, whose
 *      filter words are loaded (and the coarsest level's slots, which are mostly occupied);
 *   3. the filter test, which rules out most empty cells; for the others, the slots from their home on are loaded
 *      beside the home's start offset, which says where the cell's run starts (at 10^6 fences that byte array no
 *      longer stays in a cache, and the run mostly starts within those lines: gf__prefetch_home_lines);
 *   4. the cells' entries, level by level, listing the fences whose box meets the query's (gf__pending) and loading
 *      their records;
 *   5. those fences' exact tests. */
static void gf__search(const gf_table *table, const gf__box *box, int64_t margin_q, uint32_t margin_mm,
                       gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    const uint32_t n = table->level_count;
    uint32_t cover_word[GF__LEVEL_COUNT], cover_bit[GF__LEVEL_COUNT];  /* GF__NIL: test the box's range instead */
    /* The cells to read, in level order, each with its level's index; a level whose box spans more cells than
     * GF__PROBE_CELLS has one probe, marked GF__PROBE_RECT beside its index and read through its rect. (The mark is
     * not a key such as GF__EMPTY: gcc on armhf stores a 64-bit constant through a VFP register.) */
    gf__cell_run probe[GF__LEVEL_COUNT * GF__PROBE_CELLS];
    uint32_t probe_level[GF__LEVEL_COUNT * GF__PROBE_CELLS];
    uint32_t probes = 0;
    gf__cell_rect rect[GF__LEVEL_COUNT];

    /* A box in a clear sub-cell of the presence map meets no fence box of any level. Asked before the coverage words
     * are even located: the map (2 bytes a slot) mostly stays in a cache near the core, so a fix it does not answer
     * waits little for its word, and a fix it answers is spared locating a word for every level. */
    if (gf__presence_clear(cells, box->lat_lo, box->lat_hi, box->u_lo, box->u_hi)) {
        gf__search_oversize(table, margin_q, margin_mm, sink);
        return;
    }

    /* A box in one sub-cell of the finest level's coverage grid lies in one sub-cell of every level's (the grids are
     * aligned, each coarser one's edges among the finer's): the usual small box, whose bit is found directly. */
    const uint32_t finest = gf__cover_shift(GF__LEVEL_MIN);
    if (box->u_hi < GF__LON_SPAN_E7 && box->lat_lo >> finest == box->lat_hi >> finest
        && box->u_lo >> finest == box->u_hi >> finest) {
        for (uint32_t i = 0; i < n; i++) {
            gf__cover_locate(cells, table->levels[i], box->lat_lo, (uint32_t)box->u_lo, &cover_word[i],
                             &cover_bit[i]);
            __builtin_prefetch(&cells->cover[cover_word[i]]);
        }
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (gf__cover_spot(cells, table->levels[i], box->lat_lo, box->lat_hi, box->u_lo, box->u_hi,
                               &cover_word[i], &cover_bit[i]))
                __builtin_prefetch(&cells->cover[cover_word[i]]);
            else
                cover_word[i] = GF__NIL;
    }

    for (uint32_t i = 0; i < n; i++) {
        const uint32_t level = table->levels[i];
        if (cover_word[i] != GF__NIL ? !((cells->cover[cover_word[i]] >> cover_bit[i]) & 1u)
                                     : !gf__cover_meets(cells, level, box->lat_lo, box->lat_hi, box->u_lo, box->u_hi))
            continue;  /* no fence box of the level reaches the query's */
        /* The cells, when the box's are at most 2 x 2 (the usual small box) and inline; else through a rect. */
        gf__cell_rect cells_near;
        if (!gf__probe_rect_near(box, level, &cells_near) || cells_near.row_hi - cells_near.row_lo > 1
            || cells_near.col_hi[0] - cells_near.col_lo[0] > 1) {
            rect[i] = gf__probe_rect(box, level);
            probe_level[probes++] = i | GF__PROBE_RECT;
            continue;
        }
        uint64_t block = GF__NO_BLOCK;
        for (uint32_t col = cells_near.col_lo[0]; col <= cells_near.col_hi[0]; col++)
            for (uint32_t row = cells_near.row_lo; row <= cells_near.row_hi; row++) {
                uint64_t k = gf__cell_key(level, row, col);
                if (gf__filter_block(k) != block) {  /* the cells of 8 x 8 blocks share a filter word */
                    block = gf__filter_block(k);
                    __builtin_prefetch(&cells->filter[gf__filter_bit(k, cells->filter_words) >> 6]);
                }
                /* The coarsest level's cells are the largest, and one that the coverage test lets through is
                 * mostly occupied (on uniform circles all at 10^6 fences, three in five at 10^5): its start offset
                 * and slots are asked for beside its filter word, not after it. */
                if (i + 1 == n) {
                    const uint32_t home = gf__cell_hash(k, cells->size);
                    __builtin_prefetch(&cells->first[home]);
                    gf__prefetch_home_lines(cells, home);
                }
                probe[probes].key = k;
                probe_level[probes++] = i;
            }
    }

    uint32_t kept = 0;
    gf__filter_cache filter = {GF__NO_BLOCK, 0};
    for (uint32_t p = 0; p < probes; p++) {
        if (!(probe_level[p] & GF__PROBE_RECT)) {
            if (!gf__filter_maybe_near(cells, probe[p].key, &filter)) continue;
            const uint32_t home = gf__cell_hash(probe[p].key, cells->size);
            gf__prefetch_home_lines(cells, home);
            probe[p] = gf__cell_run_at_home(cells, probe[p].key, home);
            __builtin_prefetch(&cells->slots[probe[p].at]);
        }
        probe[kept] = probe[p];
        probe_level[kept++] = probe_level[p];
    }

    gf__pending pending;
    pending.count = 0;  /* the lists are written before they are read */
    for (uint32_t p = 0; p < kept; p++) {
        if (!(probe_level[p] & GF__PROBE_RECT)) {
            gf__scan_run(table, probe[p], probe_level[p], &pending, margin_q, margin_mm, sink);
        } else {
            /* tested as found: what is pending (of earlier levels) goes first */
            const uint32_t i = probe_level[p] & ~GF__PROBE_RECT;
            gf__test_pending(table, &pending, margin_q, margin_mm, sink);
            gf__sink_level(sink, i);
            gf__scan_rect(table, &rect[i], margin_q, margin_mm, sink);
        }
    }
    gf__test_pending(table, &pending, margin_q, margin_mm, sink);
    gf__search_oversize(table, margin_q, margin_mm, sink);
}

/* Where a fix's box with the cursor's reaches lies, when the cursor is current and was set for this margin (a box a
 * little wider than gf_query's at most, which only adds fences to the exact test: the hits and their order are the
 * same): GF__OUTSIDE the cursor's area (or no such cursor), GF__CROWDED in an area whose fences the cursor could not
 * hold (search the index), GF__INSIDE an area whose fences it remembers. Inside an area, the fix and the margin are
 * valid: an area lies within the grid, and a cursor has candidates only with the reaches of a margin that passed
 * gf__query's checks (gf__cursor_remember). */
enum { GF__OUTSIDE, GF__CROWDED, GF__INSIDE };
static inline int gf__where(const gf_table *table, const gf_cursor *cursor, gf_point fix, uint32_t margin_mm) {
    if (!gf__cursor_current(cursor, table) || cursor->margin_mm_ != margin_mm) return GF__OUTSIDE;
    const int64_t lat = (int64_t)fix.lat + GF_LAT_MAX_E7, u = (int64_t)fix.lon + GF_LON_MAX_E7;
    if (lat - cursor->lat_reach_ < cursor->lat_lo_ || lat + cursor->lat_reach_ > cursor->lat_hi_
        || u - cursor->lon_reach_ < cursor->u_lo_ || u + cursor->lon_reach_ > cursor->u_hi_)
        return GF__OUTSIDE;
    return cursor->candidates_ == GF__NIL ? GF__CROWDED : GF__INSIDE;
}

/* Answers a fix GF__INSIDE the cursor's area from what the cursor remembers: the candidates whose box meets the fix's
 * (gf__add_candidate's ranges), tested in the order the cursor keeps them, which is the order gf_query reports (level
 * by level, slot order within a level). So each hit is appended, and once the buffer is full the rest are only
 * counted, as gf__emit would do for hits that all come after the stored ones; *count the hits. */
static gf_status gf__test_remembered(const gf_table *table, const gf_cursor *cursor, gf_point fix,
                                     uint32_t margin_mm, gf_hit *hits, size_t capacity, size_t *count) {
    gf__fix_at at;  /* at.at is set when first needed; only at_ready is read before */
    at.fix = fix;
    at.at_ready = 0;
    const uint32_t lat = (uint32_t)(fix.lat + GF_LAT_MAX_E7), u = (uint32_t)((int64_t)fix.lon + GF_LON_MAX_E7);
    const int64_t margin_q = gf__margin_q(margin_mm);
    size_t found = 0;
    for (uint32_t i = 0, n = cursor->candidates_; i < n; i++) {
        const uint32_t *b = cursor->box_[i];
        if (lat - b[0] > b[1] || u - b[2] > b[3]) continue;
        const uint32_t slot = cursor->candidate_[i] & GF__SLOT_MASK;
        int32_t distance_mm;
        if (!gf__fence_hit(table, slot, margin_q, margin_mm, &at, &distance_mm)) continue;
        if (found < capacity) {
            hits[found].handle = gf__handle_of(slot, table->generations[slot]);
            hits[found].distance_mm = distance_mm;
        }
        found++;
    }
    *count = found;
    return found > capacity ? GF_ERR_TRUNCATED : GF_OK;
}

/* Whether the output arguments are usable (else GF_ERR_NULL). */
static inline int gf__outputs_ok(const gf_table *table, const gf_hit *hits, size_t capacity, const size_t *count) {
    return table != NULL && count != NULL && (hits != NULL || capacity == 0);
}

/* gf_query and gf_query_tracked past the fast path: cursor NULL for the former, else where the fix lies in the cursor's
 * area (gf__where: not inside). The outputs are checked and *count is 0. */
static gf_status gf__query(const gf_table *table, gf_cursor *cursor, int where, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count) {
    if (fix.lat < -GF_LAT_MAX_E7 || fix.lat > GF_LAT_MAX_E7) return GF_ERR_LATITUDE;
    if (fix.lon < -GF_LON_MAX_E7 || fix.lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    if (margin_mm > GF_MARGIN_MAX_MM) return GF_ERR_MARGIN;
    int64_t margin_q = gf__margin_q(margin_mm);

    gf__box box = gf__query_box(fix, margin_mm);
    uint32_t south = (uint32_t)(GF_LAT_MAX_E7 - gf__fence_lat_reach_e7());  /* as grid offsets */
    uint32_t north = (uint32_t)(GF_LAT_MAX_E7 + gf__fence_lat_reach_e7());
    if (box.lat_lo > north || box.lat_hi < south) return GF_OK;  /* nearer a pole than any fence reaches */
    if (box.lat_lo < south) box.lat_lo = south;
    if (box.lat_hi > north) box.lat_hi = north;

    if (cursor != NULL && where == GF__OUTSIDE && table->level_count > 0) {
        /* A new area (when the box lies in one): its fences are gathered once, and this fix is answered from them. */
        gf__cursor_remember(table, cursor, &box, margin_mm);
        if (gf__where(table, cursor, fix, margin_mm) == GF__INSIDE) {
            return gf__test_remembered(table, cursor, fix, margin_mm, hits, capacity, count);
        }
    }
    gf__query_span span = {box.lat_lo, box.lat_hi, (uint32_t)box.u_lo, (uint32_t)(box.u_hi - box.u_lo)};
    gf__sink sink;
    gf__sink_start(&sink, fix, span, hits, capacity);
    gf__search(table, &box, margin_q, margin_mm, &sink);
    return gf__sink_finish(&sink, count);
}

gf_status gf_query(const gf_table *table, gf_point fix, uint32_t margin_mm,
                   gf_hit *hits, size_t capacity, size_t *count) {
    if (count != NULL) *count = 0;
    if (!gf__outputs_ok(table, hits, capacity, count)) return GF_ERR_NULL;
    return gf__query(table, NULL, GF__OUTSIDE, fix, margin_mm, hits, capacity, count);
}

gf_status gf_query_tracked(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count) {
    if (count != NULL) *count = 0;
    if (cursor == NULL || !gf__outputs_ok(table, hits, capacity, count)) return GF_ERR_NULL;
    /* A fix in the cursor's area (most fixes of a drive): answered from what the cursor remembers, without building
     * its box or checking its coordinates; at once in an area without fences (most areas of a sparse table). */
    const int where = gf__where(table, cursor, fix, margin_mm);
    if (where == GF__INSIDE) {
        if (cursor->candidates_ == 0) return GF_OK;
        return gf__test_remembered(table, cursor, fix, margin_mm, hits, capacity, count);
    }
    return gf__query(table, cursor, where, fix, margin_mm, hits, capacity, count);
}
