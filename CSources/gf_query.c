/*
 * gf_query.c -- the hot path: which fences contain a fix or have their boundary within a margin of it.
 * Integer only, allocation-free, reads the table only (safe for concurrent readers, see THREADING in geofence.h).
 *
 * Per fix: the query box (fix +- margin, in e7), then per occupied level the cells it overlaps (one in the common
 * case, looked up for all levels together; with a cursor, none while the box stays in the area around an earlier
 * fix: the cursor remembers that area's entries, see gf_cursor.c), then per fence in those cells a 20-byte entry: a
 * box compare in e7. Only for fences whose box overlaps the query's: the fix's ECEF (once), the fence record, a
 * squared chord compared with the squared reach, and for the few that pass a square root for the signed distance.
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
        gf__emit(sink, gf__handle_of(entry->slot, table->generations[entry->slot]), shape_distance_mm);
        return;
    }
    if (!sink->at_ready) {
        sink->at = gf__ecef_of(sink->fix);
        sink->at_ready = 1;
    }
    /* Chord <= arc, so a hit has chord <= radius + margin: reach bounds the squared chord.
     * reach <= 2.6e7 q, so reach^2 stays far below 2^63. */
    int64_t reach = (int64_t)gf__reach_q(fence->radius_mm) + margin_q + 1;
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
    gf__emit(sink, gf__handle_of(entry->slot, table->generations[entry->slot]), distance_mm);
}

/* Tests the fences of one cell (see gf__test_entry for `probe`). */
static void gf__scan_cell(const gf_table *table, const gf__cell *cell, int64_t margin_q, uint32_t margin_mm,
                          const gf__cell_rect *probe, uint32_t row, uint32_t col, gf__sink *sink) {
    const gf__entry *entry = &table->cells.arena[cell->offset];
    const gf__entry *end = entry + gf__cell_count(cell);
    for (; entry < end; entry++) gf__test_entry(table, entry, margin_q, margin_mm, probe, row, col, sink);
}

/* Tests what the cursor remembers against a query box inside its area and inside one finest cell: the entries that
 * meet the area (the others cannot meet the box), or, in a narrow area whose entries did not fit, its cells. The
 * order is gf_query's: see gf__remember_wide (gf_cursor.c). */
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
    for (uint64_t i = 0; i < cells->size; i++) {
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
    if (gf__rect_cells(&rect) > (uint64_t)cells->size / 8) {
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
    if (cursor != NULL && gf__cursor_current(cursor, table) && cursor->margin_mm_ == margin_mm) {
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
        const int current = gf__cursor_current(cursor, table) && box.lat_lo >= cursor->lat_lo_
                            && box.lat_hi <= cursor->lat_hi_ && box.u_lo >= cursor->u_lo_ && box.u_hi <= cursor->u_hi_;
        if (!current) gf__cursor_remember(table, cursor, &box, margin_mm);
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

gf_status gf_query_tracked(const gf_table *table, gf_cursor *cursor, gf_point fix, uint32_t margin_mm,
                           gf_hit *hits, size_t capacity, size_t *count) {
    if (cursor == NULL) {
        if (count != NULL) *count = 0;
        return GF_ERR_NULL;
    }
    return gf__query(table, cursor, fix, margin_mm, hits, capacity, count);
}
