/*
 * gf_cursor.c -- what a cursor remembers between the fixes of one vehicle: an area (grid offsets) and the index
 * entries a query box inside it can overlap, in the order gf_query reports them. gf_query.c answers a fix from that
 * memory while its box stays in the area, and asks gf__cursor_remember for a new area when it leaves. On the query
 * path: integer only and allocation-free, like gf_query.c; it reads the table only.
 *
 * Wide: 2 x 2 cells of the finest occupied level (aligned, so inside one cell of every coarser level), their entries
 * merged, so a vehicle changes area about half as often per axis as it changes finest cell (each change costs a
 * lookup per level). When the wide area's entries do not fit in the cursor: the finest cell, whose cells per level
 * it keeps instead when its entries do not fit either.
 */
#include "gf_internal.h"

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

/* The wide area around the box (see the top of this file); found[i], i >= 1: the hash slot of level i's cell holding
 * the box, or GF__NIL (found[0] is not read: the finest level's cells are looked up here).
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
void gf__cursor_remember(const gf_table *table, gf_cursor *cursor, const gf__box *box, uint32_t margin_mm) {
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

void gf_cursor_reset(gf_cursor *cursor) {
    if (cursor == NULL) return;
    /* No table matches NULL, so the epoch need not be cleared (and a 64-bit store of a constant is what gcc does
     * with a VFP register on armhf: the query path must stay usable on FPU-less units). */
    cursor->table_ = NULL;
    cursor->slots_ = GF__NIL;
}

