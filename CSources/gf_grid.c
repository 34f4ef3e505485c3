/*
 * gf_grid.c -- the grid cells a bounding box covers (see "Bounding boxes and grid cells" in gf_internal.h for the
 * layout of the levels; the boxes themselves, gf__box_around, are inline there). Integer only.
 *
 * Why boxes are conservative: a fence must be in every cell a fix that can hit it falls into. A box that is a little
 * too large only costs an extra candidate test; a box a millimetre too small loses a hit. So every extent is rounded
 * up, with its scale factor a little above the true one.
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

gf__cell_rect gf__rect_of(const gf__box *box, uint32_t level) {
    gf__cell_rect rect;
    const uint32_t last_col = (uint32_t)((GF__LON_SPAN_E7 - 1) >> level);
    rect.level = level;
    rect.row_lo = box->lat_lo >> level;
    rect.row_hi = box->lat_hi >> level;
    rect.segments = 1;
    rect.col_lo[0] = (uint32_t)(box->u_lo >> level);
    rect.col_hi[0] = (uint32_t)(box->u_hi >> level);
    rect.col_lo[1] = rect.col_hi[1] = 0;
    if (box->u_hi < GF__LON_SPAN_E7) return rect;  /* also the full_lon case */

    /* Crosses the seam: [u_lo, 360) then [0, u_hi - 360]. Merged into all columns if the two meet. */
    uint32_t second_hi = (uint32_t)((box->u_hi - GF__LON_SPAN_E7) >> level);
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

uint64_t gf__rect_cells(const gf__cell_rect *rect) {
    uint64_t cols = 0;
    for (uint32_t s = 0; s < rect->segments; s++) cols += (uint64_t)(rect->col_hi[s] - rect->col_lo[s]) + 1;
    return cols * ((uint64_t)(rect->row_hi - rect->row_lo) + 1);
}

int gf__first_shared_cell(const gf__cell_rect *probe, const gf__cell_rect *fence, uint32_t row, uint32_t col) {
    GF__ASSERT(probe->level == fence->level);
    uint32_t first_row = probe->row_lo > fence->row_lo ? probe->row_lo : fence->row_lo;
    if (row != first_row) return 0;
    /* The first probe column (segment order, then ascending) that is also a fence column. */
    for (uint32_t s = 0; s < probe->segments; s++) {
        int found = 0;
        uint32_t first_col = 0;
        for (uint32_t f = 0; f < fence->segments; f++) {
            uint32_t lo = probe->col_lo[s] > fence->col_lo[f] ? probe->col_lo[s] : fence->col_lo[f];
            uint32_t hi = probe->col_hi[s] < fence->col_hi[f] ? probe->col_hi[s] : fence->col_hi[f];
            if (lo <= hi && (!found || lo < first_col)) {
                first_col = lo;
                found = 1;
            }
        }
        if (found) return col == first_col;
    }
    return 0;
}
