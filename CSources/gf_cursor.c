/*
 * gf_cursor.c -- what a cursor remembers between the fixes of one vehicle: an area (grid offsets) and the fences
 * whose index box meets it, with those boxes, in the order gf_query reports them (level by level, slot order within
 * a level). gf_query.c answers a fix from that memory while its box stays in the area, and asks gf__cursor_remember
 * for a new area when it leaves. On the query path: integer only and allocation-free, like gf_query.c; it reads the
 * table only.
 *
 * Wide: a square of 8 x 8 cells of the finest occupied level k (2^(k+3) e7: 728 m at level 13), or of 8 x 8 query
 * boxes when those are wider (a margin of 100 m), on the grid, or for a wide box with the box near the edge it came
 * in by (gf__square_start); so a vehicle changes area about every side's length. When its fences do not fit in the
 * cursor: the square half as wide holding the query's box, and so on down to one cell. When they do not fit either,
 * the cursor remembers the smallest of those squares holding the box with no candidates, and fixes in it search the
 * index as gf_query does (a crowd of small fences: the lookups are then a small part of the work). After an area whose
 * density would put more than a few fences in the widest square, the next one starts a step narrower (4 x 4), and
 * after one that held many, no wider than it.
 */
#include "gf_internal.h"

/* The widest area: 2^GF__WIDE_BITS finest cells on a side (728 m at level 13), or query boxes when those are wider.
 * Each new area costs a lookup of the cells around it at every level (gf__gather), so a wider one pays while its
 * fences are few: every fix in it tests each of them (two compares). 8 x 8 cells take fewer instructions per fix than
 * 4 x 4 on uniform drives (most areas there hold no fence, or one or two), and 4 x 4 fewer than 2 x 2; but among a
 * city's stops or other small fences the finest levels' lookups grow with the area and every fix tests more boxes,
 * so the widest square is a step narrower (4 x 4) when the last area's density would put more than GF__WIDEN_MAX
 * fences in it. Query boxes: with a margin of 100 m an area of 4 x 4 finest cells holds a fix's box over a sliver of
 * its surface only, and the fix leaves it at nearly every step. */
#define GF__WIDE_BITS 3
/* The most fences the last area's density may put in the widest square: every fix in an area tests them all, and a
 * lookup saved is worth about that many tests. */
#define GF__WIDEN_MAX 8u
/* The widest area at all (2^29 e7: 54 degrees); a level whose cells over it are many is not gathered
 * (GF__GATHER_CELLS_MAX), so a very wide box ends up searching the index, as gf_query does. */
#define GF__WIDEST_SHIFT 29
/* An area with at most this many fences was sparse: the next one may be wider than it. */
#define GF__SPARSE (GF_CURSOR_CANDIDATES / 4)
/* Most cells of a level a gather looks up: an area of 16 x 16 of them and their neighbours (gf__gather reads their
 * filter bits 8 x 8 at a time). */
#define GF__GATHER_CELLS_MAX 400

/* The span of the last area along one axis, which tells which way a box that left it went; lo > hi when there was
 * none. */
typedef struct gf__last_span {
    uint32_t lo, hi;
} gf__last_span;

/* Where a square of 2^shift e7 starts along one axis, for a box from lo to hi on it that the last area spanned from
 * last.lo to last.hi:
 * - The box went past the last area's end (hi > last.hi): at lo rounded down to an eighth of the side, so the
 *   vehicle has nearly a whole side ahead of it. An aligned square would give it half a side when the box straddles
 *   the aligned edge (any box wider than a step does as it leaves), and a whole side only for a point.
 * - The box went before its start (lo < last.lo): mirrored, ending at hi rounded up to an eighth.
 *   An eighth rather than the box's own edge: a fix jittering back across the edge it came through usually stays
 *   in the area.
 * - Otherwise (it left through the other axis, or there was no last area): the last area's start when it had this
 *   side, so the new square lies next to it; else at the multiple of the side that holds lo, or, when the box runs
 *   past that square's end, half a side later (which holds any box at most half a side wide that starts in the
 *   aligned square).
 * The square may not hold a box wider than three quarters of its side (gf__square_for says). */
static inline uint32_t gf__square_start(uint32_t lo, uint32_t hi, uint32_t shift, gf__last_span last) {
    const uint64_t side = (uint64_t)1 << shift, eighth = side >> 3;
    if (last.lo <= last.hi) {
        if (hi > last.hi) return lo & ~(uint32_t)(eighth - 1);
        if (lo < last.lo) {
            const uint64_t end = ((uint64_t)hi | (eighth - 1)) + 1;  /* past hi, at an eighth */
            return end > side ? (uint32_t)(end - side) : 0;
        }
        if ((uint64_t)last.hi - last.lo + 1 == side) return last.lo;
    }
    const uint32_t aligned = (lo >> shift) << shift;
    return (uint64_t)hi < (uint64_t)aligned + side ? aligned : aligned + (uint32_t)(side >> 1);
}

/* A square of 2^shift e7 for a box that does not cross the +-180 seam (u_hi < GF__LON_SPAN_E7), after the last
 * area (the cursor's, unless it had none): where it starts (gf__square_start on each axis), and whether it holds all
 * of the box (a wide one may run past its end). */
typedef struct gf__square {
    uint32_t lat_lo, u_lo;
    int holds;
} gf__square;

static inline __attribute__((always_inline)) gf__square gf__square_for(const gf__box *box, uint32_t shift,
                                                                        gf__last_span last_lat, gf__last_span last_u) {
    const uint64_t side = (uint64_t)1 << shift;
    gf__square square;
    square.lat_lo = gf__square_start(box->lat_lo, box->lat_hi, shift, last_lat);
    square.u_lo = gf__square_start((uint32_t)box->u_lo, (uint32_t)box->u_hi, shift, last_u);
    square.holds = box->lat_lo >= square.lat_lo && (uint64_t)box->lat_hi < square.lat_lo + side
                   && (uint32_t)box->u_lo >= square.u_lo && (uint64_t)box->u_hi < square.u_lo + side;
    return square;
}

/* Sets the cursor's area to a square of 2^shift e7 (cut at the grid's ends). */
static void gf__set_area(gf_cursor *cursor, gf__square square, uint32_t shift) {
    const uint64_t side = (uint64_t)1 << shift, last_u = (uint64_t)GF__LON_SPAN_E7 - 1;
    const uint64_t lat_hi = square.lat_lo + side - 1, u_hi = square.u_lo + side - 1;
    cursor->lat_lo_ = square.lat_lo;
    cursor->lat_hi_ = (uint32_t)(lat_hi < GF__LAT_SPAN_E7 ? lat_hi : GF__LAT_SPAN_E7);
    cursor->u_lo_ = square.u_lo;
    cursor->u_hi_ = (uint32_t)(u_hi < last_u ? u_hi : last_u);
}

/* Adds a candidate (level index, slot, box) unless the cursor is full; returns 0 when it is. A box that misses the
 * area is left out (no query box in the area can meet it). The box is kept as the range of fix offsets whose query
 * box (with the cursor's reaches) meets the box's part within the area: fix latitude offsets from box_[0] to
 * box_[0] + box_[1], longitude offsets from box_[2] to box_[2] + box_[3], as uint32 differences (gf__test_remembered).
 * Exact: for a fix whose query box lies in the area, the differences lie within three area sides (< 2^31) of zero,
 * so a negative one wraps far above the range's length. */
static int gf__add_candidate(gf_cursor *cursor, uint32_t *m, uint32_t level, uint32_t slot, uint32_t lat_lo,
                             uint32_t lat_hi, uint32_t u_lo, uint32_t u_span) {
    if (lat_lo < cursor->lat_lo_) lat_lo = cursor->lat_lo_;
    if (lat_hi > cursor->lat_hi_) lat_hi = cursor->lat_hi_;
    if (lat_lo > lat_hi) return 1;
    /* Longitude: the area does not cross the seam; the box starts east of the area's start, or holds it. */
    const uint32_t width = cursor->u_hi_ - cursor->u_lo_;
    uint64_t start, end;  /* the box's part in the area, as offsets from the area's start */
    uint32_t before = cursor->u_lo_ >= u_lo ? cursor->u_lo_ - u_lo : cursor->u_lo_ + ((uint32_t)GF__LON_SPAN_E7 - u_lo);
    if (before <= u_span) {
        start = 0;
        end = u_span - before;
    } else {
        start = u_lo >= cursor->u_lo_ ? u_lo - cursor->u_lo_ : u_lo + ((uint32_t)GF__LON_SPAN_E7 - cursor->u_lo_);
        if (start > width) return 1;
        end = start + u_span;
    }
    if (end > width) end = width;
    if (*m == GF_CURSOR_CANDIDATES) return 0;
    cursor->candidate_[*m] = ((level - GF__LEVEL_MIN) / GF__LEVEL_STEP) << GF__CANDIDATE_LEVEL_SHIFT | slot;
    cursor->box_[*m][0] = lat_lo - cursor->lat_reach_;
    cursor->box_[*m][1] = lat_hi - lat_lo + 2 * cursor->lat_reach_;
    cursor->box_[*m][2] = cursor->u_lo_ + (uint32_t)start - cursor->lon_reach_;
    cursor->box_[*m][3] = (uint32_t)(end - start) + 2 * cursor->lon_reach_;
    (*m)++;
    return 1;
}

/* Adds a fence of the cell's entry (or crowd) whose box meets the area (q, in the cell's window), its box back in grid
 * offsets (gf__entry_span). Returns 0 when it does not fit. */
static int gf__gather_entry(gf_cursor *cursor, const gf__entry *entry, const gf__window_box *q, uint32_t level,
                            uint32_t *m) {
    if (!gf__window_meets(&entry->box, q)) return 1;
    gf__query_span box = gf__entry_span(entry);
    return gf__add_candidate(cursor, m, level, gf__entry_slot(entry), box.lat_lo, box.lat_hi, box.u_lo, box.u_span);
}

/* Adds the entries of a crowded cell's crowd whose box meets the area: the buckets that may hold such boxes
 * (gf__crowd_reach). Returns 0 when they do not fit. Out of line: only crowded cells have one. */
static __attribute__((noinline)) int gf__gather_crowd(gf_cursor *cursor, const gf__crowd *crowd,
                                                      const gf__window_box *q, uint32_t level, uint32_t *m) {
    const gf__crowd_bands bands = gf__crowd_reach(q, level);
    for (uint32_t lat = bands.lat_lo; lat <= bands.lat_hi; lat++) {
        const uint32_t end = gf__crowd_end(crowd, lat * GF__CROWD_BANDS + bands.u_hi);
        for (uint32_t k = crowd->start[lat * GF__CROWD_BANDS + bands.u_lo]; k < end; k++)
            if (!gf__gather_entry(cursor, &crowd->entries[k], q, level, m)) return 0;
    }
    return 1;
}

/* Adds the entries of one cell (and of its crowd) whose box meets the area, from its run (gf__cell_run_start).
 * Returns 0 when they do not fit. */
static int gf__gather_cell(const gf_table *table, gf_cursor *cursor, const gf__query_span *area, gf__cell_run run,
                           uint32_t *m) {
    const gf__cells *cells = &table->cells;
    const uint32_t level = gf__key_level(run.key), row = gf__key_row(run.key), col = gf__key_col(run.key);
    gf__window_box q;
    if (!gf__window_query(area, level, row, col, &q)) return 1;
    for (uint32_t i; (i = gf__cell_run_next(cells, &run)) != GF__NIL;) {
        const gf__entry *entry = &cells->slots[i];
        if (entry->box.lat_lo > q.lat_hi) break;  /* this and the cell's further entries lie north of the area */
        int fit = gf__entry_is_crowd(entry)
                      ? gf__gather_crowd(cursor, &cells->crowds[gf__entry_slot(entry)], &q, level, m)
                      : gf__gather_entry(cursor, entry, &q, level, m);
        if (!fit) return 0;
    }
    return 1;
}

/* Most cells a gather looks up together (gf__gather_cells). */
#define GF__GATHER_BATCH 32

/* Adds the entries of count (<= GF__GATHER_BATCH) cells whose box meets the area. A new area's cells are in no cache,
 * and each lookup needs two loads (the home's start offset, then the run's first slot): started for every cell before
 * any is waited for, as gf__search does, they overlap; and the lines from each home slot on are asked for beside its
 * offset (gf__prefetch_home_lines), so that a gather mostly waits for one miss rather than two in a row. Returns 0
 * when they do not fit. */
static int gf__gather_cells(const gf_table *table, gf_cursor *cursor, const gf__query_span *area,
                            const uint64_t *keys, uint32_t count, uint32_t *m) {
    const gf__cells *cells = &table->cells;
    uint32_t home[GF__GATHER_BATCH];
    gf__cell_run run[GF__GATHER_BATCH];
    for (uint32_t p = 0; p < count; p++) {
        home[p] = gf__cell_hash(keys[p], cells->size);
        __builtin_prefetch(&cells->first[home[p]]);
        gf__prefetch_home_lines(cells, home[p]);
    }
    for (uint32_t p = 0; p < count; p++) {
        run[p] = gf__cell_run_at_home(cells, keys[p], home[p]);
        __builtin_prefetch(&cells->slots[run[p].at]);
    }
    for (uint32_t p = 0; p < count; p++)
        if (!gf__gather_cell(table, cursor, area, run[p], m)) return 0;
    return 1;
}

/* The index of the lowest set bit of a non-zero word, from 32-bit halves: 32-bit ARM counts a 32-bit word's trailing
 * zeros in two instructions, a 64-bit one through a libgcc call. */
static inline uint32_t gf__lowest_bit(uint64_t bits) {
    const uint32_t low = (uint32_t)bits;
    return low != 0 ? (uint32_t)__builtin_ctz(low) : 32 + (uint32_t)__builtin_ctz((uint32_t)(bits >> 32));
}

/* Starts loading the filter words of a rect's cells: every 8 x 8 block of them, as the filter's places number them
 * (row and column one more than the cell's: gf__filter_place). */
static void gf__prefetch_filter_words(const gf__cells *cells, const gf__cell_rect *rect) {
    for (uint32_t s = 0; s < rect->segments; s++)
        for (uint32_t block_col = (rect->col_lo[s] + 1) >> 3; block_col <= (rect->col_hi[s] + 1) >> 3; block_col++)
            for (uint32_t block_row = (rect->row_lo + 1) >> 3; block_row <= (rect->row_hi + 1) >> 3; block_row++)
                __builtin_prefetch(&cells->filter[gf__filter_word(
                    gf__cell_key(rect->level, block_row << 3, block_col << 3), cells->filter_words)]);
}

/* Gathers the fences whose box meets the cursor's area (2^shift e7 on a side), in (level, slot) order. Returns 0 when
 * more than GF_CURSOR_CANDIDATES, or when a level would need more lookups than a cursor is worth. In rounds whose
 * loads do not wait for one another (a new area is in no cache): every level's cells and their filter words, then
 * the cells whose filter bit is set, a batch at a time (gf__gather_cells). */
static int gf__gather(const gf_table *table, gf_cursor *cursor, uint32_t shift) {
    const gf__cells *cells = &table->cells;
    gf__box area;
    area.lat_lo = cursor->lat_lo_;
    area.lat_hi = cursor->lat_hi_;
    area.u_lo = cursor->u_lo_;
    area.u_hi = cursor->u_hi_;
    area.full_lon = 0;
    const gf__query_span span = {cursor->lat_lo_, cursor->lat_hi_, cursor->u_lo_, cursor->u_hi_ - cursor->u_lo_};
    /* An area the presence map shows clear holds no fence of any level but the oversize ones. */
    const int clear = gf__presence_clear(cells, area.lat_lo, area.lat_hi, area.u_lo, area.u_hi);
    gf__cell_rect rects[GF__LEVEL_COUNT];
    for (uint32_t i = 0; i < table->level_count; i++) {
        const uint32_t level = table->levels[i];
        /* The level's cells, unless its coverage map shows no fence box reaching the area (the oversize fences,
         * counted with the coarsest level, are not in the map). Not asked for a level finer than the area: the area
         * then spans many of its sub-cells, over several words, and in a crowded table one of those words nearly
         * always has a bit there, if only another block's; the filter answers for such a level's cells as cheaply. */
        gf__cell_rect rect = {level, 0, 0, 0, {0, 0}, {0, 0}};
        if (!clear && (gf__cell_shift(level) < shift
                       || gf__cover_meets(cells, level, area.lat_lo, area.lat_hi, area.u_lo, area.u_hi))) {
            if (!gf__probe_rect_near(&area, level, &rect)) rect = gf__probe_rect(&area, level);
            if (gf__rect_cells(&rect) > GF__GATHER_CELLS_MAX) return 0;
            gf__prefetch_filter_words(cells, &rect);
        }
        rects[i] = rect;
    }
    uint64_t batch[GF__GATHER_BATCH];
    uint32_t batched = 0, m = 0;
    for (uint32_t i = 0; i < table->level_count; i++) {
        const gf__cell_rect rect = rects[i];
        const uint32_t level = rect.level;
        /* The cells whose filter bit is set, an 8 x 8 block of the filter (one word) at a time: most of the area's
         * cells at its finest levels are empty. Rows, columns and blocks here are the filter's places, one more than
         * the cells' (so place 0 is no cell's, and the first block's mask leaves it out). */
        const uint32_t row_lo = rect.row_lo + 1, row_hi = rect.row_hi + 1;
        for (uint32_t s = 0; s < rect.segments; s++) {
            const uint32_t col_lo = rect.col_lo[s] + 1, col_hi = rect.col_hi[s] + 1;
            for (uint32_t block_col = col_lo >> 3; block_col <= col_hi >> 3; block_col++)
                for (uint32_t block_row = row_lo >> 3; block_row <= row_hi >> 3; block_row++) {
                    const uint32_t col0 = block_col << 3, row0 = block_row << 3;
                    const uint32_t c0 = col_lo > col0 ? col_lo - col0 : 0, c1 = col_hi < col0 + 7 ? col_hi - col0 : 7;
                    const uint32_t r0 = row_lo > row0 ? row_lo - row0 : 0, r1 = row_hi < row0 + 7 ? row_hi - row0 : 7;
                    const uint64_t word = gf__filter_word(gf__cell_key(level, row0, col0), cells->filter_words);
                    for (uint64_t bits = cells->filter[word] & gf__cover_mask(r0, r1, c0, c1); bits != 0;
                         bits &= bits - 1) {
                        const uint32_t b = gf__lowest_bit(bits);
                        batch[batched++] = gf__cell_key(level, row0 + (b >> 3) - 1, col0 + (b & 7) - 1);
                        if (batched == GF__GATHER_BATCH) {
                            if (!gf__gather_cells(table, cursor, &span, batch, batched, &m)) return 0;
                            batched = 0;
                        }
                    }
                }
        }
        if (level == GF__LEVEL_MAX)
            for (uint32_t k = 0; k < cells->oversize_count; k++) {
                const gf__wide_entry *e = &cells->oversize[k];
                if (!gf__add_candidate(cursor, &m, level, e->slot, e->lat_lo, e->lat_hi, e->u_lo, e->u_span)) return 0;
            }
    }
    if (!gf__gather_cells(table, cursor, &span, batch, batched, &m)) return 0;
    /* The candidates into (level, slot) order, which is their words' order (insertion sort: at most
     * GF_CURSOR_CANDIDATES, mostly in order already, level by level). */
    for (uint32_t a = 1; a < m; a++)
        for (uint32_t b = a; b > 0 && cursor->candidate_[b - 1] > cursor->candidate_[b]; b--) {
            uint32_t word = cursor->candidate_[b];
            cursor->candidate_[b] = cursor->candidate_[b - 1];
            cursor->candidate_[b - 1] = word;
            for (uint32_t f = 0; f < 4; f++) {
                uint32_t v = cursor->box_[b][f];
                cursor->box_[b][f] = cursor->box_[b - 1][f];
                cursor->box_[b - 1][f] = v;
            }
        }
    cursor->candidates_ = m;
    return 1;
}

/* Remembers the half-extents of a query box with this margin anywhere in the cursor's area, so that a fix can be
 * placed in the area, and its candidates tested, without building its box (gf_query_tracked). Latitude:
 * gf__box_around's, which depends only on the margin. Longitude: the larger of the two at the area's southern and
 * northern edges; per-degree factors grow with |latitude|, and |latitude| over the area is largest at one of its
 * edges, so no fix in the area has a wider box. A box built with it may be a little wider than gf_query's, which only
 * adds fences to the exact test: the hits and their order are the same. None near a pole (a box covering every
 * longitude). */
static void gf__remember_reach(gf_cursor *cursor, uint32_t margin_mm) {
    uint64_t distance_mm = (uint64_t)margin_mm + GF__BOX_SLACK_MM;
    /* The area's edges as latitudes; a coarse cell's may lie beyond a pole, where no fix can be. */
    int64_t north_edge = (int64_t)cursor->lat_hi_ - GF_LAT_MAX_E7;
    int32_t south = (int32_t)((int64_t)cursor->lat_lo_ - GF_LAT_MAX_E7);
    int32_t north = (int32_t)(north_edge > GF_LAT_MAX_E7 ? GF_LAT_MAX_E7 : north_edge);
    int64_t lon_south = gf__lon_reach_e7(distance_mm, south), lon_north = gf__lon_reach_e7(distance_mm, north);
    cursor->margin_mm_ = UINT32_MAX;
    if (lon_south < 0 || lon_north < 0) return;
    cursor->lat_reach_ = (uint32_t)gf__lat_reach_e7(distance_mm);
    cursor->lon_reach_ = (uint32_t)(lon_south > lon_north ? lon_south : lon_north);
    cursor->margin_mm_ = margin_mm;
}

/* Makes the cursor remember an area around a box: the widest square holding the box (8 x 8 finest cells or query
 * boxes, a step narrower after a dense area; then each half as wide, down to one finest cell; placed by
 * gf__square_for) whose fences fit in the cursor; when none fits, the smallest square holding the box, without
 * candidates (fixes there search the index). A box that straddles a finest cell's edge is held by a wider square (a
 * vehicle's query with a margin of tens of metres often does). A box that no square holds (across the seam, or wider
 * than half the widest square) leaves the cursor as it was: what it remembers still holds for boxes in its area. */
void gf__cursor_remember(const gf_table *table, gf_cursor *cursor, const gf__box *box, uint32_t margin_mm) {
    const uint32_t finest = table->levels[0];
    /* The widest square tried: 2^GF__WIDE_BITS finest cells, or 2^GF__WIDE_BITS query boxes when that is wider (a
     * fix stays in an area only while its box does), but no wider than the last area when that one held more than
     * GF__SPARSE fences or none fitted (a wider one would likely not fit: a gather for nothing), and a step narrower
     * when the last area's density would put more than GF__WIDEN_MAX fences in it (each step is 4 x the area). */
    const uint64_t lat_side = (uint64_t)(box->lat_hi - box->lat_lo) + 1;
    const uint64_t u_side = (uint64_t)(box->u_hi - box->u_lo) + 1;
    const uint64_t boxes = (lat_side > u_side ? lat_side : u_side) << GF__WIDE_BITS;
    uint32_t widest = finest + GF__WIDE_BITS;
    while (((uint64_t)1 << widest) < boxes && widest < GF__WIDEST_SHIFT) widest++;
    if (gf__cursor_current(cursor, table)) {
        const uint32_t last = 32 - (uint32_t)__builtin_clz(cursor->u_hi_ - cursor->u_lo_);  /* its side's shift */
        const uint64_t held = cursor->candidates_;  /* GF__NIL when none fitted */
        const uint64_t expected = widest >= last ? held << (2 * (widest - last)) : held >> (2 * (last - widest));
        if (expected > GF__WIDEN_MAX && widest > finest) widest--;
        if (held > GF__SPARSE && last < widest) widest = last > finest ? last : finest;
    }
    if (box->full_lon || box->u_hi >= GF__LON_SPAN_E7) return;
    /* The last area, for a box wider than 1/64 of the widest square (a margin of a few metres or more) that left it by
     * a step: within an eighth of its side of it on both axes. A narrower box leaves through an aligned edge nearly
     * always without straddling it, and squares on the grid cut fewer of the coarser levels' coverage blocks
     * (gf__cover_meets): the aligned square serves it best. After a jump, placing by the way out would only take the
     * square off the grid. */
    gf__last_span last_lat = {1, 0}, last_u = {1, 0};  /* none */
    const uint64_t narrow = ((uint64_t)1 << widest) >> 6;
    if (cursor->table_ != NULL && cursor->area_ != GF__NIL && (lat_side > narrow || u_side > narrow)) {
        const uint64_t near = (uint64_t)(cursor->u_hi_ - cursor->u_lo_ + 1) >> 3;
        if (box->lat_lo <= cursor->lat_hi_ + near && box->lat_hi + near >= cursor->lat_lo_
            && (uint64_t)box->u_lo <= cursor->u_hi_ + near && (uint64_t)box->u_hi + near >= cursor->u_lo_) {
            last_lat = (gf__last_span){cursor->lat_lo_, cursor->lat_hi_};
            last_u = (gf__last_span){cursor->u_lo_, cursor->u_hi_};
        }
    }
    gf__square square = gf__square_for(box, widest, last_lat, last_u);
    if (!square.holds) return;
    cursor->table_ = table;
    cursor->area_ = 0;
    /* The widest square whose fences fit; the smallest one holding the box without candidates if none fits. */
    for (uint32_t shift = widest;; shift--) {
        gf__set_area(cursor, square, shift);
        gf__remember_reach(cursor, margin_mm);
        if (cursor->margin_mm_ == UINT32_MAX) {  /* near a pole: no reaches, so candidates would not be used */
            cursor->candidates_ = GF__NIL;
            break;
        }
        if (gf__gather(table, cursor, shift)) break;
        if (shift > finest) square = gf__square_for(box, shift - 1, last_lat, last_u);
        if (shift == finest || !square.holds) {
            cursor->candidates_ = GF__NIL;
            break;
        }
    }
    /* Set last, when few registers are live: gcc on armhf moves a uint64_t through a VFP register when the integer
     * ones run short, and the query path must not touch the FPU (make no-fpu-check). */
    cursor->epoch_ = table->epoch;
}

void gf_cursor_reset(gf_cursor *cursor) {
    if (cursor == NULL) return;
    /* No table matches NULL, so the epoch need not be cleared (and a 64-bit store of a constant is what gcc does
     * with a VFP register on armhf: the query path must stay usable on FPU-less units). */
    cursor->table_ = NULL;
    cursor->area_ = GF__NIL;
}
