/*
 * gf_query.c -- the hot path: which fences contain a fix or have their boundary within a margin of it.
 * Integer only, allocation-free, reads the table only (safe for concurrent readers, see THREADING in geofence.h).
 *
 * Per fix: the query box (fix +- margin, in e7), then per occupied level the cells it overlaps (one in the common
 * case, looked up for all levels together; with a cursor, none while the box stays in the area around an earlier
 * fix: the cursor remembers that area's entries), then per fence in those cells a
 * 20-byte entry: a box compare in e7. Only for fences whose box overlaps the query's: the fix's ECEF (once), the
 * fence record, a squared chord compared with the squared reach, and for the few that pass a square root for the
 * signed distance.
 */
#include "gf_internal.h"

/* Fence boxes never reach beyond this latitude: 85 deg plus the extent of a 50 km fence (with the box slack). */
static int32_t gf__fence_lat_reach_e7(void) {
    return (int32_t)(GF_FENCE_LAT_MAX_E7 + gf__lat_reach_e7((uint64_t)GF_RADIUS_MAX_MM + GF__BOX_SLACK_MM));
}

/* The query's box as the entries hold theirs (see gf__entry). */
typedef struct gf__query_span {
    uint32_t lat_lo, lat_hi;
    uint32_t u_lo, u_span;
} gf__query_span;

/* State of one query: the fix, its box, its ECEF (computed on first need: most fixes of a drive overlap no fence's
 * box and never need it) and the output. */
typedef struct gf__sink {
    gf_point fix;
    gf__query_span span;
    gf__ecef at;
    int at_ready;
    gf_hit *hits;
    size_t capacity;
    size_t count;
} gf__sink;

static inline gf__sink gf__sink_start(gf_point fix, gf__query_span span, gf_hit *hits, size_t capacity) {
    gf__sink sink = {fix, span, {0, 0, 0}, 0, hits, capacity, 0};
    return sink;
}

/* The margin in q (for the chord test), rounded up. */
static inline int64_t gf__margin_q(uint32_t margin_mm) {
    return ((int64_t)margin_mm * GF__Q_PER_M + 999) / 1000;
}

static void gf__emit(gf__sink *sink, gf_handle handle, int64_t distance_mm) {
    if (sink->count < sink->capacity) {
        sink->hits[sink->count].handle = handle;
        sink->hits[sink->count].distance_mm = (int32_t)distance_mm;
    }
    sink->count++;
}

/* Whether two longitude ranges u_lo .. u_lo + span (modulo 360 deg) meet: one starts inside the other. The
 * differences are taken modulo 360 deg in uint32 (3.6e9 < 2^32, so adding the span back after a wrap is exact). */
static inline int gf__lon_overlap(uint32_t a_lo, uint32_t a_span, uint32_t b_lo, uint32_t b_span) {
    const uint32_t lon_span = (uint32_t)GF__LON_SPAN_E7;
    uint32_t b_after_a = b_lo >= a_lo ? b_lo - a_lo : b_lo - a_lo + lon_span;
    if (b_after_a <= a_span) return 1;
    uint32_t a_after_b = a_lo >= b_lo ? a_lo - b_lo : a_lo - b_lo + lon_span;
    return a_after_b <= b_span;
}

/* Tests one index entry's fence. `probe` is non-NULL when the query probes several cells at this level: a fence is
 * then reported only from the first probed cell it shares with the query, so it appears once. */
static inline void gf__test_entry(const gf_table *table, const gf__entry *entry, int64_t margin_q, uint32_t margin_mm,
                                  const gf__cell_rect *probe, uint32_t row, uint32_t col, gf__sink *sink) {
    const gf__query_span q = sink->span;
    if (q.lat_lo > entry->lat_hi || entry->lat_lo > q.lat_hi) return;
    if (!gf__lon_overlap(entry->u_lo, entry->u_span, q.u_lo, q.u_span)) return;

    const gf__fence *fence = &table->fences[entry->slot];
    if (fence->radius_mm == GF__SHAPE_RADIUS) {
        int64_t shape_distance_mm;
        if (!gf__shape_test(table->shapes[entry->slot], sink->fix, &sink->at, &sink->at_ready, margin_mm,
                            &shape_distance_mm))
            return;
        if (probe != NULL) {
            gf__cell_rect own = gf__slot_rect(table, entry->slot);
            if (!gf__first_shared_cell(probe, &own, row, col)) return;
        }
        gf__emit(sink, gf__handle_of(entry->slot, fence->generation), shape_distance_mm);
        return;
    }
    if (!sink->at_ready) {
        sink->at = gf__ecef_of(sink->fix);
        sink->at_ready = 1;
    }
    /* Chord <= arc, so a hit has chord <= radius + margin: reach bounds the squared chord.
     * reach <= 2.6e7 q, so reach^2 stays far below 2^63. */
    int64_t reach = (int64_t)fence->reach_q + margin_q + 1;
    int64_t dx = (int64_t)sink->at.x - fence->x;
    int64_t dy = (int64_t)sink->at.y - fence->y;
    int64_t dz = (int64_t)sink->at.z - fence->z;
    if (dx > reach || dx < -reach || dy > reach || dy < -reach || dz > reach || dz < -reach) return;
    uint64_t chord2 = (uint64_t)(dx * dx + dy * dy + dz * dz);
    if (chord2 > (uint64_t)(reach * reach)) return;

    int64_t distance_mm = gf__arc_mm(chord2) - (int64_t)fence->radius_mm;
    if (distance_mm > (int64_t)margin_mm) return;
    if (probe != NULL) {
        gf__cell_rect own = gf__slot_rect(table, entry->slot);
        if (!gf__first_shared_cell(probe, &own, row, col)) return;
    }
    gf__emit(sink, gf__handle_of(entry->slot, fence->generation), distance_mm);
}

/* Tests the fences of one cell (see gf__test_entry for `probe`). */
static void gf__scan_cell(const gf_table *table, const gf__cell *cell, int64_t margin_q, uint32_t margin_mm,
                          const gf__cell_rect *probe, uint32_t row, uint32_t col, gf__sink *sink) {
    const gf__entry *entry = &table->cells.arena[cell->offset];
    const gf__entry *end = entry + gf__cell_count(cell);
    for (; entry < end; entry++) gf__test_entry(table, entry, margin_q, margin_mm, probe, row, col, sink);
}

/* The hash slot of a cell, or GF__NIL: the filter first, which answers "absent" for most empty cells without
 * touching the slot array. */
static inline uint32_t gf__lookup(const gf__cells *cells, uint64_t key) {
    if (!gf__filter_maybe(cells, key)) return GF__NIL;
    const gf__cell *cell = gf__cells_find(cells, key);
    return cell == NULL ? GF__NIL : (uint32_t)(cell - cells->slots);
}

/* ---- What a cursor remembers ----
 * An area (grid offsets) and the index entries a query box inside it can overlap, in the order gf_query reports
 * them. Wide: 2 x 2 cells of the finest occupied level (aligned, so inside one cell of every coarser level), their
 * entries merged, so a vehicle changes area about half as often per axis as it changes finest cell (each change costs
 * a lookup per level). When the wide area's entries do not fit in the cursor: the finest cell, whose cells per level
 * it keeps instead when its entries do not fit either. */

/* A wide area is 2^GF__WIDE_BITS finest cells on a side (2 x 2: 182 m at level 13). Wider areas (4 x 4) make a
 * drive change area no less often in practice, and overflow the cursor more often where small fences crowd, each
 * time a wasted attempt. */
#define GF__WIDE_BITS 1

/* Sets the cursor's area to the cell of `level` that holds the box's south-west corner. */
static void gf__set_area(gf_cursor *cursor, const gf__box *box, uint32_t level) {
    uint64_t last_u = (uint64_t)GF__LON_SPAN_E7 - 1;
    uint64_t u_lo = (uint64_t)(box->u_lo >> level) << level, u_hi = u_lo + ((uint64_t)1 << level) - 1;
    cursor->lat_lo_ = (box->lat_lo >> level) << level;
    cursor->lat_hi_ = cursor->lat_lo_ + ((1u << level) - 1);
    cursor->u_lo_ = (uint32_t)u_lo;
    cursor->u_hi_ = (uint32_t)(u_hi < last_u ? u_hi : last_u);
}

/* Appends to list[*n ..] the arena indices of the cell's entries whose box meets the cursor's area, in block order.
 * Returns 0 when more than `capacity` in all. */
static int gf__gather(const gf__cells *cells, const gf__cell *cell, const gf_cursor *cursor, uint32_t *list,
                      uint32_t *n, uint32_t capacity) {
    uint32_t area_span = cursor->u_hi_ - cursor->u_lo_;
    uint32_t first = cell->offset, end = cell->offset + gf__cell_count(cell);
    for (uint32_t k = first; k < end; k++) {
        const gf__entry *entry = &cells->arena[k];
        if (entry->lat_lo > cursor->lat_hi_ || cursor->lat_lo_ > entry->lat_hi) continue;
        if (!gf__lon_overlap(entry->u_lo, entry->u_span, cursor->u_lo_, area_span)) continue;
        if (*n == capacity) return 0;
        list[(*n)++] = k;
    }
    return 1;
}

/* The wide area around the box (see above); found[i], i >= 1: the hash slot of level i's cell holding the box, or
 * GF__NIL (found[0] is not read: the finest level's cells are looked up here).
 * Returns 0 when its entries do not fit in the cursor. Order: a query box inside one finest cell reports that
 * cell's hits in slot order (blocks are sorted by slot), and the merged, repeat-free list of the 2 x 2 cells keeps
 * slot order, so its entries that meet the box are that cell's, in that order. Coarser levels have one cell. */
static int gf__remember_wide(const gf_table *table, gf_cursor *cursor, const gf__box *box, const uint32_t *found) {
    const gf__cells *cells = &table->cells;
    const uint32_t finest = table->levels[0];
    if (finest + GF__WIDE_BITS > GF__LEVEL_MAX) return 0;
    gf__set_area(cursor, box, finest + GF__WIDE_BITS);

    /* The finest cells' entries, cell after cell (each cell's run in slot order; a cell inside the area meets it, so
     * all its entries do), then merged into slot order with one entry per fence: its entries in different cells are
     * the same box and slot. A fence of the finest level is in at most 2 x 2 of its cells, so more than
     * 2 x GF_CURSOR_CANDIDATES entries before the merge would be too many after it in all but contrived cases: give
     * up before reading a crowd. */
    enum { FINE_MAX = 2 * GF_CURSOR_CANDIDATES, SIDE = 1 << GF__WIDE_BITS };
    const gf__cell *fine_cell[SIDE * SIDE];
    uint32_t runs = 0, n = 0;
    const uint32_t row0 = cursor->lat_lo_ >> finest, col0 = cursor->u_lo_ >> finest;
    const uint32_t last_col = (uint32_t)((GF__LON_SPAN_E7 - 1) >> finest);
    for (uint32_t dc = 0; dc < SIDE; dc++) {
        if (col0 + dc > last_col) break;  /* the narrower last column of the +-180 seam */
        for (uint32_t dr = 0; dr < SIDE; dr++) {
            uint32_t slot = gf__lookup(cells, gf__cell_key(finest, row0 + dr, col0 + dc));
            if (slot == GF__NIL) continue;
            fine_cell[runs++] = &cells->slots[slot];
            n += gf__cell_count(&cells->slots[slot]);
            if (n > FINE_MAX) return 0;
        }
    }
    uint32_t fine[FINE_MAX], fine_slot[FINE_MAX];
    uint32_t run_start[SIDE * SIDE + 1];
    n = 0;
    for (uint32_t r = 0; r < runs; r++) {
        run_start[r] = n;
        for (uint32_t k = fine_cell[r]->offset, end = k + gf__cell_count(fine_cell[r]); k < end; k++) {
            fine[n] = k;
            fine_slot[n++] = cells->arena[k].slot;
        }
    }
    run_start[runs] = n;
    uint32_t head[SIDE * SIDE];
    for (uint32_t r = 0; r < runs; r++) head[r] = run_start[r];
    uint32_t m = 0, last_slot = GF__NIL;  /* no fence has slot GF__NIL */
    for (;;) {
        uint32_t best = GF__NIL;
        for (uint32_t r = 0; r < runs; r++)
            if (head[r] < run_start[r + 1] && (best == GF__NIL || fine_slot[head[r]] < fine_slot[head[best]])) best = r;
        if (best == GF__NIL) break;
        uint32_t i = head[best]++;
        if (fine_slot[i] == last_slot) continue;
        if (m == GF_CURSOR_CANDIDATES) return 0;
        cursor->candidate_[m++] = fine[i];
        last_slot = fine_slot[i];
    }
    for (uint32_t i = 1; i < table->level_count; i++) {
        if (found[i] == GF__NIL) continue;
        if (!gf__gather(cells, &cells->slots[found[i]], cursor, cursor->candidate_, &m, GF_CURSOR_CANDIDATES))
            return 0;
    }
    cursor->slots_ = 0;
    cursor->candidates_ = m;
    return 1;
}

/* The finest cell around the box, with the hash slots of each level's cell (found[], GF__NIL for none) and, when
 * they fit, the entries that meet the cell. */
static void gf__remember_narrow(const gf_table *table, gf_cursor *cursor, const gf__box *box, const uint32_t *found) {
    gf__set_area(cursor, box, table->levels[0]);
    uint32_t slots = 0;
    for (uint32_t i = 0; i < table->level_count; i++)
        if (found[i] != GF__NIL) cursor->slot_[slots++] = found[i];
    cursor->slots_ = slots;
    uint32_t n = 0;
    for (uint32_t i = 0; i < slots; i++) {
        if (!gf__gather(&table->cells, &table->cells.slots[cursor->slot_[i]], cursor, cursor->candidate_, &n,
                        GF_CURSOR_CANDIDATES)) {
            cursor->candidates_ = GF__NIL;
            return;
        }
    }
    cursor->candidates_ = n;
}

/* The hash slots of the cells holding the box's south-west corner at the table's levels first .. level_count - 1:
 * found[i], GF__NIL where there is none. Three passes over the levels (the filter words, then the home slots of the
 * cells the filter does not rule out, then their probe sequences) rather than one level after another: a fix in a
 * new place misses the cache on each level's filter word and hash slot, and loads that do not wait for one
 * another's results can overlap, for a few more instructions. */
static void gf__lookup_levels(const gf_table *table, const gf__box *box, uint32_t first, uint32_t *found) {
    const gf__cells *cells = &table->cells;
    const uint32_t n = table->level_count;
    uint64_t key[GF__LEVEL_COUNT], home_key[GF__LEVEL_COUNT];
    uint32_t home[GF__LEVEL_COUNT], maybe = 0;
    for (uint32_t i = first; i < n; i++) {
        uint32_t level = table->levels[i];
        key[i] = gf__cell_key(level, box->lat_lo >> level, (uint32_t)(box->u_lo >> level));
        maybe |= (uint32_t)gf__filter_maybe(cells, key[i]) << i;
    }
    for (uint32_t i = first; i < n; i++) {
        found[i] = GF__NIL;
        if (!((maybe >> i) & 1u)) continue;
        home[i] = gf__cell_hash(key[i], cells->shift);
        home_key[i] = cells->slots[home[i]].key;
    }
    for (uint32_t i = first; i < n; i++) {
        if (!((maybe >> i) & 1u) || home_key[i] == 0) continue;  /* an empty home slot: absent */
        if (home_key[i] == key[i]) {
            found[i] = home[i];
        } else {
            const gf__cell *cell = gf__cells_find(cells, key[i]);  /* further along the probe sequence, or absent */
            if (cell != NULL) found[i] = (uint32_t)(cell - cells->slots);
        }
    }
}

/* Remembers the half-extents of a query box with this margin anywhere in the cursor's area, so that the next fix can
 * be placed in the area before its box is built (gf__query). Latitude: gf__box_around's, which depends only on the
 * margin. Longitude: the larger of the two at the area's southern and northern edges; per-degree factors grow with
 * |latitude|, and |latitude| over the area is largest at one of its edges, so no fix in the area has a wider box. A
 * box built with it may be a little wider than gf_query's, which only adds fences to the exact test: the hits and
 * their order are the same. None near a pole (a box covering every longitude). */
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

/* Makes the cursor remember the area around a box that lies in one cell of every level: the wide area when its
 * entries fit, else the finest cell. The box lies in the area either way (the area is the finest cell holding the
 * box's south-west corner, or the 2 x 2 block holding that cell). */
static void gf__remember(const gf_table *table, gf_cursor *cursor, const gf__box *box, uint32_t margin_mm) {
    uint32_t found[GF__LEVEL_COUNT];  /* per level: the hash slot of the cell holding the box, or GF__NIL */
    gf__lookup_levels(table, box, 1, found);
    cursor->table_ = table;
    cursor->epoch_ = table->epoch;
    /* The wide area looks up the finest level's cells itself; the narrow one needs the box's. */
    if (!gf__remember_wide(table, cursor, box, found)) {
        uint32_t finest = table->levels[0];
        found[0] = gf__lookup(&table->cells,
                              gf__cell_key(finest, box->lat_lo >> finest, (uint32_t)(box->u_lo >> finest)));
        gf__remember_narrow(table, cursor, box, found);
    }
    gf__remember_reach(cursor, margin_mm);
}

/* Tests what the cursor remembers against a query box inside its area and inside one finest cell: the entries that
 * meet the area (the others cannot meet the box), or, in a narrow area whose entries did not fit, its cells. The
 * order is gf_query's: see gf__remember_wide. */
static void gf__test_remembered(const gf_table *table, const gf_cursor *cursor, int64_t margin_q, uint32_t margin_mm,
                                gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    if (cursor->candidates_ != GF__NIL) {
        for (uint32_t i = 0; i < cursor->candidates_; i++)
            gf__test_entry(table, &cells->arena[cursor->candidate_[i]], margin_q, margin_mm, NULL, 0, 0, sink);
    } else {
        for (uint32_t i = 0; i < cursor->slots_; i++)
            gf__scan_cell(table, &cells->slots[cursor->slot_[i]], margin_q, margin_mm, NULL, 0, 0, sink);
    }
}

/* Tests every occupied cell of the rect's level that lies in the rect, found by reading the whole slot array. */
static void gf__scan_level(const gf_table *table, const gf__cell_rect *rect, int64_t margin_q, uint32_t margin_mm,
                           gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    for (uint64_t i = 0; i <= cells->mask; i++) {
        const gf__cell *cell = &cells->slots[i];
        if (cell->key == 0 || (uint32_t)(cell->key >> 48) != rect->level) continue;
        uint32_t row = (uint32_t)(cell->key >> 24) & 0xFFFFFF, col = (uint32_t)cell->key & 0xFFFFFF;
        if (row < rect->row_lo || row > rect->row_hi) continue;
        int in_columns = 0;
        for (uint32_t s = 0; s < rect->segments; s++) in_columns |= col >= rect->col_lo[s] && col <= rect->col_hi[s];
        if (in_columns) gf__scan_cell(table, cell, margin_q, margin_mm, rect, row, col, sink);
    }
}

/* The cells of one level that a box spanning several of them overlaps. */
static void gf__scan_rect(const gf_table *table, const gf__box *box, uint32_t level, int64_t margin_q,
                          uint32_t margin_mm, gf__sink *sink) {
    const gf__cells *cells = &table->cells;
    gf__cell_rect rect = gf__rect_of(box, level);
    if (gf__rect_cells(&rect) > ((uint64_t)cells->mask + 1) / 8) {
        /* A margin far larger than this level's cells (or a box near a pole, where longitude cells are tiny):
         * reading every hash slot once is cheaper than probing each cell of the box. */
        gf__scan_level(table, &rect, margin_q, margin_mm, sink);
        return;
    }
    for (uint32_t s = 0; s < rect.segments; s++)
        for (uint32_t col = rect.col_lo[s]; col <= rect.col_hi[s]; col++)
            for (uint32_t row = rect.row_lo; row <= rect.row_hi; row++) {
                uint32_t slot = gf__lookup(cells, gf__cell_key(level, row, col));
                if (slot == GF__NIL) continue;
                gf__scan_cell(table, &cells->slots[slot], margin_q, margin_mm, &rect, row, col, sink);
            }
}

/* gf_query and gf_query_tracked: cursor NULL for the former. */
static gf_status gf__query(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count) {
    if (count != NULL) *count = 0;
    if (table == NULL || count == NULL || (hits == NULL && capacity > 0)) return GF_ERR_NULL;
    if (fix.lat < -GF_LAT_MAX_E7 || fix.lat > GF_LAT_MAX_E7) return GF_ERR_LATITUDE;
    if (fix.lon < -GF_LON_MAX_E7 || fix.lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    if (margin_mm > GF_MARGIN_MAX_MM) return GF_ERR_MARGIN;

    /* A fix whose box, with the cursor's reaches, lies in the cursor's area and in one finest cell: answered from
     * what the cursor remembers, without building the box as gf_query does (the fix is then in range, too). */
    if (cursor != NULL && cursor->table_ == table && cursor->epoch_ == table->epoch && cursor->slots_ != GF__NIL
        && cursor->margin_mm_ == margin_mm) {
        int64_t lat_lo = (int64_t)fix.lat + GF_LAT_MAX_E7 - cursor->lat_reach_;
        int64_t lat_hi = (int64_t)fix.lat + GF_LAT_MAX_E7 + cursor->lat_reach_;
        int64_t u_lo = (int64_t)fix.lon + GF_LON_MAX_E7 - cursor->lon_reach_;
        int64_t u_hi = (int64_t)fix.lon + GF_LON_MAX_E7 + cursor->lon_reach_;
        const uint32_t finest = table->levels[0];  /* a cursor remembers an area only in a table with levels */
        if (lat_lo >= cursor->lat_lo_ && lat_hi <= cursor->lat_hi_ && u_lo >= cursor->u_lo_ && u_hi <= cursor->u_hi_
            && ((lat_lo ^ lat_hi) >> finest) == 0 && ((u_lo ^ u_hi) >> finest) == 0) {
            gf__query_span span = {(uint32_t)lat_lo, (uint32_t)lat_hi, (uint32_t)u_lo, (uint32_t)(u_hi - u_lo)};
            gf__sink sink = gf__sink_start(fix, span, hits, capacity);
            gf__test_remembered(table, cursor, gf__margin_q(margin_mm), margin_mm, &sink);
            *count = sink.count;
            return sink.count > capacity ? GF_ERR_TRUNCATED : GF_OK;
        }
    }

    gf__box box = gf__query_box(fix, margin_mm);
    uint32_t south = (uint32_t)(GF_LAT_MAX_E7 - gf__fence_lat_reach_e7());  /* as grid offsets */
    uint32_t north = (uint32_t)(GF_LAT_MAX_E7 + gf__fence_lat_reach_e7());
    if (box.lat_lo > north || box.lat_hi < south) return GF_OK;  /* nearer a pole than any fence reaches */
    if (box.lat_lo < south) box.lat_lo = south;
    if (box.lat_hi > north) box.lat_hi = north;

    int64_t margin_q = gf__margin_q(margin_mm);
    gf__query_span span = {box.lat_lo, box.lat_hi, (uint32_t)box.u_lo, (uint32_t)(box.u_hi - box.u_lo)};
    gf__sink sink = gf__sink_start(fix, span, hits, capacity);
    const gf__cells *cells = &table->cells;

    /* A box inside one cell of the finest occupied level is inside one cell of every level (the levels' cells nest),
     * so a query probes one cell per level; the seam's narrower last column is left to the general loop. */
    const uint32_t finest = table->level_count > 0 ? table->levels[0] : GF__LEVEL_MAX;
    const int one_cell = box.u_hi < GF__LON_SPAN_E7 && ((box.lat_lo ^ box.lat_hi) >> finest) == 0
                         && (((uint64_t)box.u_lo ^ (uint64_t)box.u_hi) >> finest) == 0;
    if (cursor != NULL && table->level_count > 0 && one_cell) {
        /* The cursor's memory holds for this table as it is now and for an area around the box: no lookups. */
        const int current = cursor->table_ == table && cursor->epoch_ == table->epoch && cursor->slots_ != GF__NIL
                            && box.lat_lo >= cursor->lat_lo_ && box.lat_hi <= cursor->lat_hi_
                            && box.u_lo >= cursor->u_lo_ && box.u_hi <= cursor->u_hi_;
        if (!current) gf__remember(table, cursor, &box, margin_mm);
        gf__test_remembered(table, cursor, margin_q, margin_mm, &sink);
        *count = sink.count;
        return sink.count > capacity ? GF_ERR_TRUNCATED : GF_OK;
    }

    if (one_cell) {
        /* The common case: one cell per level, looked up together. */
        uint32_t found[GF__LEVEL_COUNT];
        gf__lookup_levels(table, &box, 0, found);
        for (uint32_t i = 0; i < table->level_count; i++)
            if (found[i] != GF__NIL) gf__scan_cell(table, &cells->slots[found[i]], margin_q, margin_mm, NULL, 0, 0, &sink);
    } else {
        for (uint32_t i = 0; i < table->level_count; i++) {
            uint32_t level = table->levels[i];
            uint32_t row = box.lat_lo >> level, col = (uint32_t)(box.u_lo >> level);
            /* Levels whose cells are large enough still hold the box in one cell (but not across the +-180 seam,
             * where the last, narrower column would shift to the same column number as the far side). */
            if ((box.lat_hi >> level) != row || box.u_hi >= GF__LON_SPAN_E7 || (uint32_t)(box.u_hi >> level) != col) {
                gf__scan_rect(table, &box, level, margin_q, margin_mm, &sink);
                continue;
            }
            uint32_t slot = gf__lookup(cells, gf__cell_key(level, row, col));
            if (slot != GF__NIL) gf__scan_cell(table, &cells->slots[slot], margin_q, margin_mm, NULL, row, col, &sink);
        }
    }
    /* A box across cells (a margin wider than the finest cells, or the seam) has no cursor area around it; a cursor
     * keeps what it remembers, which still holds for the next box inside its area. */
    *count = sink.count;
    return sink.count > capacity ? GF_ERR_TRUNCATED : GF_OK;
}

gf_status gf_query(const gf_table *table, gf_point fix, uint32_t margin_mm,
                   gf_hit *hits, size_t capacity, size_t *count) {
    return gf__query(table, NULL, fix, margin_mm, hits, capacity, count);
}

void gf_cursor_reset(gf_cursor *cursor) {
    if (cursor == NULL) return;
    /* No table matches NULL, so the epoch need not be cleared (and a 64-bit store of a constant is what gcc does
     * with a VFP register on armhf: the query path must stay usable on FPU-less units). */
    cursor->table_ = NULL;
    cursor->slots_ = GF__NIL;
}

gf_status gf_query_tracked(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count) {
    if (cursor == NULL) {
        if (count != NULL) *count = 0;
        return GF_ERR_NULL;
    }
    return gf__query(table, cursor, fix, margin_mm, hits, capacity, count);
}
