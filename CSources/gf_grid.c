/*
 * gf_grid.c -- the grid cells a bounding box covers (see "Bounding boxes and grid cells" in gf_internal.h for the
 * layout of the levels; the boxes themselves, gf__box_around, are inline there). Integer only.
 *
 * Why boxes are conservative: a query finds a fence only when their boxes meet. A box that is a little too large
 * only costs an extra candidate test; a box a millimetre too small loses a hit. So every extent is rounded
 * up, with its scale factor a little above the true one.
 * Longitude boxes here are u_lo .. u_hi with 0 <= u_lo < 3.6e9 and u_hi - u_lo < 3.6e9 (past 3.6e9: across +-180).
 */
#include "gf_internal.h"

uint32_t gf__level_for(const gf__box *box) {
    int64_t extent = (int64_t)box->lat_hi - box->lat_lo;
    if (box->full_lon) return GF__LEVEL_MAX;
    if (box->u_hi - box->u_lo > extent) extent = box->u_hi - box->u_lo;
    uint32_t level = GF__LEVEL_MIN;
    while (level < GF__LEVEL_MAX && ((int64_t)1 << level) < extent) level += GF__LEVEL_STEP;
    return level;
}

int gf__box_fits(const gf__box *box, uint32_t level) {
    int64_t side = (int64_t)1 << level;
    return !box->full_lon && (int64_t)box->lat_hi - box->lat_lo <= side && box->u_hi - box->u_lo <= side;
}

/* The cells of 2^shift e7 that the box (u_hi - u_lo < 3.6e9, or full_lon) overlaps. */
static gf__cell_rect gf__cells_over(const gf__box *box, uint32_t shift) {
    gf__cell_rect rect;
    const uint32_t last_col = (uint32_t)((GF__LON_SPAN_E7 - 1) >> shift);
    rect.level = shift;
    rect.row_lo = box->lat_lo >> shift;
    rect.row_hi = box->lat_hi >> shift;
    rect.segments = 1;
    rect.col_lo[0] = (uint32_t)(box->u_lo >> shift);
    rect.col_hi[0] = (uint32_t)(box->u_hi >> shift);
    rect.col_lo[1] = rect.col_hi[1] = 0;
    if (box->u_hi < GF__LON_SPAN_E7) return rect;  /* also the full_lon case */

    /* Crosses the seam: [u_lo, 360) then [0, u_hi - 360]. Merged into all columns if the two meet. */
    uint32_t second_hi = (uint32_t)((box->u_hi - GF__LON_SPAN_E7) >> shift);
    if (second_hi + 1 >= rect.col_lo[0]) {
        rect.col_lo[0] = 0;
        rect.col_hi[0] = last_col;
        return rect;
    }
    rect.segments = 2;
    rect.col_hi[0] = last_col;
    rect.col_lo[1] = 0;
    rect.col_hi[1] = second_hi;
    return rect;
}

gf__cell_rect gf__probe_rect(const gf__box *box, uint32_t level) {
    /* A fence of the level lies within half its largest box (2^(level - 1)) of its cell, so its cell is among those
     * the box grown by that much overlaps. */
    const int64_t reach = (int64_t)1 << (level - 1);
    gf__box grown;
    int64_t lat_lo = (int64_t)box->lat_lo - reach, lat_hi = (int64_t)box->lat_hi + reach;
    grown.lat_lo = (uint32_t)(lat_lo < 0 ? 0 : lat_lo);
    grown.lat_hi = (uint32_t)(lat_hi > GF__LAT_SPAN_E7 ? GF__LAT_SPAN_E7 : lat_hi);
    int64_t width = box->u_hi - box->u_lo + 2 * reach;
    grown.full_lon = box->full_lon || width >= GF__LON_SPAN_E7 - 1;
    if (grown.full_lon) {
        grown.u_lo = 0;
        grown.u_hi = GF__LON_SPAN_E7 - 1;
    } else {
        grown.u_lo = box->u_lo - reach;
        if (grown.u_lo < 0) grown.u_lo += GF__LON_SPAN_E7;
        grown.u_hi = grown.u_lo + width;
    }
    gf__cell_rect rect = gf__cells_over(&grown, gf__cell_shift(level));
    rect.level = level;
    return rect;
}

uint64_t gf__rect_cells(const gf__cell_rect *rect) {
    uint64_t cols = 0;
    for (uint32_t s = 0; s < rect->segments; s++) cols += (uint64_t)(rect->col_hi[s] - rect->col_lo[s]) + 1;
    return cols * ((uint64_t)(rect->row_hi - rect->row_lo) + 1);
}
