/*
 * gf_grid.c -- bounding boxes in e7 and the grid cells they cover (see "Bounding boxes and grid cells" in
 * gf_internal.h for the layout of the levels). Integer only.
 *
 * Why boxes are conservative: a fence must be in every cell a fix that can hit it falls into. A box that is a little
 * too large only costs an extra candidate test; a box a millimetre too small loses a hit. So every extent below is
 * rounded up, with its scale factor a little above the true one.
 */
#include "gf_internal.h"

/* Latitude extent. Along a meridian one mm spans 1e-3 / M radians, M >= a (1 - e^2) = 6335439.3 m (the smallest
 * meridional radius, at the equator): 0.0904376 e7 per mm. No path of length d changes latitude by more than that
 * (d / M_min). Rounded up to 0.0905 (+0.07 %) plus 2 e7. distance_mm <= 1e8 keeps the product below 1e13. */
int64_t gf__lat_reach_e7(uint64_t distance_mm) {
    return (int64_t)((distance_mm * 90500 + 999999) / 1000000) + 2;
}

/* Longitude extent. Moving a distance d east changes longitude by at most d / rho radians, where rho = N cos(phi) is
 * the distance from the polar axis; N >= a, so rho >= a cos(phi_edge) over the box (phi_edge its poleward latitude):
 * 1 mm spans at most 0.0898315 e7 / cos(phi_edge); rounded up to 0.0899 (+0.08 %). cos is rounded down (its low
 * 20 bits dropped), which widens the box again. Returns -1 when the box reaches within 0.5 deg of a pole: then it
 * covers every longitude. */
static int64_t gf__lon_reach_e7(uint64_t distance_mm, int64_t edge_lat_e7) {
    if (edge_lat_e7 >= 895000000) return -1;
    int64_t cos_q20 = gf__cos_q40(edge_lat_e7) >> 20;   /* >= cos(89.5 deg) * 2^20 = 9150 */
    int64_t scaled = (int64_t)((distance_mm * 89900 + 999) / 1000);  /* <= 9e9 for 100 km */
    int64_t divisor = cos_q20 * 1000;
    return ((scaled << 20) + divisor - 1) / divisor + 2;
}

gf__box gf__box_around(gf_point centre, uint64_t distance_mm) {
    gf__box box;
    int64_t lat_reach = gf__lat_reach_e7(distance_mm);
    int64_t lo = (int64_t)centre.lat - lat_reach, hi = (int64_t)centre.lat + lat_reach;
    box.lat_lo = (int32_t)(lo < -GF_LAT_MAX_E7 ? -GF_LAT_MAX_E7 : lo);
    box.lat_hi = (int32_t)(hi > GF_LAT_MAX_E7 ? GF_LAT_MAX_E7 : hi);

    int64_t edge = (centre.lat < 0 ? -(int64_t)centre.lat : (int64_t)centre.lat) + lat_reach;
    int64_t lon_reach = gf__lon_reach_e7(distance_mm, edge);
    box.full_lon = lon_reach < 0 || 2 * lon_reach >= GF__LON_SPAN_E7;
    box.lon_lo = box.full_lon ? -GF_LON_MAX_E7 : (int64_t)centre.lon - lon_reach;
    box.lon_width = box.full_lon ? GF__LON_SPAN_E7 : 2 * lon_reach;
    return box;
}

uint32_t gf__level_for(const gf__box *box) {
    int64_t extent = (int64_t)box->lat_hi - box->lat_lo;
    if (box->full_lon) return GF__LEVEL_MAX;
    if (box->lon_width > extent) extent = box->lon_width;
    uint32_t level = GF__LEVEL_MIN;
    while (level < GF__LEVEL_MAX && ((int64_t)1 << level) < extent) level++;
    return level;
}

gf__cell_rect gf__rect_of(const gf__box *box, uint32_t level) {
    gf__cell_rect rect;
    const uint32_t last_col = (uint32_t)((GF__LON_SPAN_E7 - 1) >> level);
    rect.level = level;
    rect.row_lo = (uint32_t)(((int64_t)box->lat_lo + GF_LAT_MAX_E7) >> level);
    rect.row_hi = (uint32_t)(((int64_t)box->lat_hi + GF_LAT_MAX_E7) >> level);
    rect.segments = 1;
    rect.col_lo[0] = 0;
    rect.col_hi[0] = last_col;
    rect.col_lo[1] = rect.col_hi[1] = 0;
    if (box->full_lon) return rect;

    /* u: longitude shifted to [0, 360 deg). */
    int64_t u_lo = box->lon_lo + GF_LON_MAX_E7;
    while (u_lo < 0) u_lo += GF__LON_SPAN_E7;
    while (u_lo >= GF__LON_SPAN_E7) u_lo -= GF__LON_SPAN_E7;
    int64_t u_hi = u_lo + box->lon_width;
    if (u_hi < GF__LON_SPAN_E7) {
        rect.col_lo[0] = (uint32_t)(u_lo >> level);
        rect.col_hi[0] = (uint32_t)(u_hi >> level);
        return rect;
    }
    /* Crosses the seam: [u_lo, 360) then [0, u_hi - 360]. Merged into all columns if the two meet. */
    uint32_t first_lo = (uint32_t)(u_lo >> level);
    uint32_t second_hi = (uint32_t)((u_hi - GF__LON_SPAN_E7) >> level);
    if (second_hi + 1 >= first_lo) return rect;
    rect.segments = 2;
    rect.col_lo[0] = first_lo;
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
