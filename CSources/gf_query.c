/*
 * gf_query.c -- the hot path: which fences contain a fix or have their boundary within a margin of it.
 * Integer only, allocation-free, reads the table only (safe for concurrent readers, see THREADING in geofence.h).
 *
 * Per fix: one ECEF conversion (four short polynomials), then per occupied level the cells the query box overlaps
 * (one in the common case), then per fence in those cells a 16-byte record: an axis test, a squared chord compared
 * with the squared reach, and only for the few that pass a square root for the signed distance.
 */
#include "gf_internal.h"

/* Fence boxes never reach beyond this latitude: 85 deg plus the extent of a 50 km fence (with the box slack). */
static int32_t gf__fence_lat_reach_e7(void) {
    return (int32_t)(GF_FENCE_LAT_MAX_E7 + gf__lat_reach_e7((uint64_t)GF_RADIUS_MAX_MM + 50));
}

/* State of one query: the fix (its ECEF computed on first need: most fixes of a drive meet no occupied cell and
 * never need it) and the output. */
typedef struct gf__sink {
    gf_point fix;
    gf__ecef at;
    int at_ready;
    gf_hit *hits;
    size_t capacity;
    size_t count;
} gf__sink;

static void gf__emit(gf__sink *sink, gf_handle handle, int64_t distance_mm) {
    if (sink->count < sink->capacity) {
        sink->hits[sink->count].handle = handle;
        sink->hits[sink->count].distance_mm = (int32_t)distance_mm;
    }
    sink->count++;
}

/* Tests the fences of one cell. `probe` is non-NULL when the query probes several cells at this level: a fence is
 * then reported only from the first probed cell it shares with the query, so it appears once. */
static void gf__scan_cell(const gf_table *table, const gf__cell *cell, int64_t margin_q, uint32_t margin_mm,
                          const gf__cell_rect *probe, uint32_t row, uint32_t col, gf__sink *sink) {
    if (!sink->at_ready) {
        sink->at = gf__ecef_of(sink->fix);
        sink->at_ready = 1;
    }
    const gf__ecef fix = sink->at;
    const gf__entry *entry = &table->cells.arena[cell->offset];
    const gf__entry *end = entry + gf__cell_count(cell);
    for (; entry < end; entry++) {
        /* Chord <= arc, so a hit has chord <= radius + margin: reach bounds every axis and the squared chord.
         * reach <= 2.6e7 q, so reach^2 and the sum of three squares below it stay far below 2^63. */
        int64_t reach = (int64_t)entry->reach_q + margin_q + 1;
        int64_t dx = (int64_t)fix.x - entry->x;
        if (dx > reach || dx < -reach) continue;
        int64_t dy = (int64_t)fix.y - entry->y;
        if (dy > reach || dy < -reach) continue;
        int64_t dz = (int64_t)fix.z - entry->z;
        if (dz > reach || dz < -reach) continue;
        uint64_t chord2 = (uint64_t)(dx * dx + dy * dy + dz * dz);
        if (chord2 > (uint64_t)(reach * reach)) continue;

        const gf__fence_cold *cold = &table->cold[entry->slot];
        int64_t distance_mm = gf__arc_mm(chord2) - (int64_t)cold->radius_mm;
        if (distance_mm > (int64_t)margin_mm) continue;
        if (probe != NULL) {
            gf__cell_rect own = gf__fence_rect(cold->centre, cold->radius_mm);
            if (!gf__first_shared_cell(probe, &own, row, col)) continue;
        }
        gf__emit(sink, gf__handle_of(entry->slot, cold->generation), distance_mm);
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

gf_status gf_query(const gf_table *table, gf_point fix, uint32_t margin_mm,
                   gf_hit *hits, size_t capacity, size_t *count) {
    if (count != NULL) *count = 0;
    if (table == NULL || count == NULL || (hits == NULL && capacity > 0)) return GF_ERR_NULL;
    if (fix.lat < -GF_LAT_MAX_E7 || fix.lat > GF_LAT_MAX_E7) return GF_ERR_LATITUDE;
    if (fix.lon < -GF_LON_MAX_E7 || fix.lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    if (margin_mm > GF_MARGIN_MAX_MM) return GF_ERR_MARGIN;

    gf__box box = gf__query_box(fix, margin_mm);
    uint32_t south = (uint32_t)(GF_LAT_MAX_E7 - gf__fence_lat_reach_e7());  /* as grid offsets */
    uint32_t north = (uint32_t)(GF_LAT_MAX_E7 + gf__fence_lat_reach_e7());
    if (box.lat_lo > north || box.lat_hi < south) return GF_OK;  /* nearer a pole than any fence reaches */
    if (box.lat_lo < south) box.lat_lo = south;
    if (box.lat_hi > north) box.lat_hi = north;

    int64_t margin_q = ((int64_t)margin_mm * GF__Q_PER_M + 999) / 1000;
    gf__sink sink = {fix, {0, 0, 0}, 0, hits, capacity, 0};
    const gf__cells *cells = &table->cells;

    for (uint32_t i = 0; i < table->level_count; i++) {
        uint32_t level = table->levels[i];
        /* The common case: the query box lies in one cell of this level (and does not cross the +-180 seam, where
         * the last, narrower column would shift to the same column number as the far side). */
        uint32_t row = box.lat_lo >> level, col = (uint32_t)(box.u_lo >> level);
        if ((box.lat_hi >> level) == row && box.u_hi < GF__LON_SPAN_E7 && (uint32_t)(box.u_hi >> level) == col) {
            const gf__cell *cell = gf__cells_find(cells, gf__cell_key(level, row, col));
            if (cell != NULL) gf__scan_cell(table, cell, margin_q, margin_mm, NULL, row, col, &sink);
            continue;
        }
        gf__cell_rect rect = gf__rect_of(&box, level);
        uint64_t rect_cells = gf__rect_cells(&rect);
        const gf__cell_rect *several = rect_cells > 1 ? &rect : NULL;
        if (rect_cells > ((uint64_t)cells->mask + 1) / 8) {
            /* A margin far larger than this level's cells (or a box near a pole, where longitude cells are tiny):
             * reading every hash slot once is cheaper than probing each cell of the box. */
            gf__scan_level(table, &rect, margin_q, margin_mm, &sink);
            continue;
        }
        for (uint32_t s = 0; s < rect.segments; s++)
            for (col = rect.col_lo[s]; col <= rect.col_hi[s]; col++)
                for (row = rect.row_lo; row <= rect.row_hi; row++) {
                    const gf__cell *cell = gf__cells_find(cells, gf__cell_key(level, row, col));
                    if (cell != NULL) gf__scan_cell(table, cell, margin_q, margin_mm, several, row, col, &sink);
                }
    }
    *count = sink.count;
    return sink.count > capacity ? GF_ERR_TRUNCATED : GF_OK;
}
