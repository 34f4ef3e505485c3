// c_scan.c: the no-index floor. Every fix is checked against every fence: a branch-free integer box test over a
// block of fences (structure of arrays, so the compiler vectorises it), then the core's exact test (gf_distance) on
// the few fences whose box holds the fix.

#include "perf_peers.h"

#include <stdlib.h>

// Fences per block of the reject pass: the block's flags (one byte each) stay in L1.
enum { scan_block = 512 };

// Longitudes are stored shifted by 180 degrees into 0 .. 3.6e9, which fits uint32, so that the wrapped longitude
// difference min(|a - b|, 360 degrees - |a - b|) is plain unsigned arithmetic without overflow.
static const uint32_t full_turn_e7 = 3600000000u;

struct pp_scan {
    size_t count;
    uint32_t margin_mm;
    int32_t *lat;            // centre latitude, 1e-7 degree
    uint32_t *lon_shifted;   // centre longitude + 180 degrees, 1e-7 degree
    uint32_t *lat_reach;     // box half-height, 1e-7 degree
    uint32_t *lon_reach;     // box half-width, 1e-7 degree
    uint32_t *radius_mm;
};

static uint32_t shifted_longitude(int32_t lon_e7) { return (uint32_t)((int64_t)lon_e7 + GF_LON_MAX_E7); }

void pp_scan_destroy(pp_scan *scan) {
    if (scan == NULL) return;
    free(scan->lat);
    free(scan->lon_shifted);
    free(scan->lat_reach);
    free(scan->lon_reach);
    free(scan->radius_mm);
    free(scan);
}

pp_status pp_scan_create(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                         pp_scan **out) {
    pp_scan *scan = calloc(1, sizeof *scan);
    if (scan == NULL) return PP_ERR_NOMEM;
    size_t n = count == 0 ? 1 : count;
    scan->count = count;
    scan->margin_mm = margin_mm;
    scan->lat = malloc(n * sizeof *scan->lat);
    scan->lon_shifted = malloc(n * sizeof *scan->lon_shifted);
    scan->lat_reach = malloc(n * sizeof *scan->lat_reach);
    scan->lon_reach = malloc(n * sizeof *scan->lon_reach);
    scan->radius_mm = malloc(n * sizeof *scan->radius_mm);
    if (!scan->lat || !scan->lon_shifted || !scan->lat_reach || !scan->lon_reach || !scan->radius_mm) {
        pp_scan_destroy(scan);
        return PP_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        gf_point c = centres[i];
        if (c.lat < -GF_FENCE_LAT_MAX_E7 || c.lat > GF_FENCE_LAT_MAX_E7 || c.lon < -GF_LON_MAX_E7
            || c.lon > GF_LON_MAX_E7 || radii_mm[i] < GF_RADIUS_MIN_MM || radii_mm[i] > GF_RADIUS_MAX_MM) {
            pp_scan_destroy(scan);
            return PP_ERR_FENCE;
        }
        int32_t lat_reach, lon_reach;
        pp_bounding_reach(c, (uint64_t)radii_mm[i] + margin_mm, &lat_reach, &lon_reach);
        scan->lat[i] = c.lat;
        scan->lon_shifted[i] = shifted_longitude(c.lon);
        scan->lat_reach[i] = (uint32_t)lat_reach;
        scan->lon_reach[i] = (uint32_t)lon_reach;
        scan->radius_mm[i] = radii_mm[i];
    }
    *out = scan;
    return PP_OK;
}

// Sets flags[k] to 1 when the box of fence first + k holds the fix, for k < n. No branches: vectorised.
static void scan_reject_block(const pp_scan *scan, gf_point fix, size_t first, size_t n, uint8_t *flags) {
    const int32_t *lat = scan->lat + first;
    const uint32_t *lon = scan->lon_shifted + first;
    const uint32_t *lat_reach = scan->lat_reach + first;
    const uint32_t *lon_reach = scan->lon_reach + first;
    uint32_t fix_lon = shifted_longitude(fix.lon);
    for (size_t k = 0; k < n; k++) {
        // |fix.lat - lat| <= 1.8e9 fits int32; its absolute value is taken in uint32.
        int32_t dlat = fix.lat - lat[k];
        uint32_t abs_dlat = dlat < 0 ? (uint32_t)0 - (uint32_t)dlat : (uint32_t)dlat;
        uint32_t dlon = fix_lon > lon[k] ? fix_lon - lon[k] : lon[k] - fix_lon;
        uint32_t wrapped = full_turn_e7 - dlon;
        uint32_t abs_dlon = dlon < wrapped ? dlon : wrapped;
        flags[k] = (uint8_t)((abs_dlat <= lat_reach[k]) & (abs_dlon <= lon_reach[k]));
    }
}

// Calls the exact test on each flagged fence of a block; hits are counted and, when indices is not NULL, written.
static pp_status scan_exact_block(const pp_scan *scan, gf_point fix, size_t first, size_t n, const uint8_t *flags,
                                  uint32_t *indices, size_t capacity, size_t *count) {
    for (size_t k = 0; k < n; k++) {
        if (!flags[k]) continue;
        size_t i = first + k;
        gf_point centre = {scan->lat[i], (int32_t)((int64_t)scan->lon_shifted[i] - GF_LON_MAX_E7)};
        int64_t distance_mm;
        if (gf_distance(fix, centre, &distance_mm) != GF_OK) return PP_ERR_FIX;
        if (distance_mm - (int64_t)scan->radius_mm[i] <= (int64_t)scan->margin_mm) {
            if (indices != NULL && *count < capacity) indices[*count] = (uint32_t)i;
            *count += 1;
        }
    }
    return PP_OK;
}

static pp_status scan_one(const pp_scan *scan, gf_point fix, uint32_t *indices, size_t capacity, size_t *count) {
    uint8_t flags[scan_block];
    *count = 0;
    for (size_t first = 0; first < scan->count; first += scan_block) {
        size_t n = scan->count - first < scan_block ? scan->count - first : scan_block;
        scan_reject_block(scan, fix, first, n, flags);
        pp_status status = scan_exact_block(scan, fix, first, n, flags, indices, capacity, count);
        if (status != PP_OK) return status;
    }
    return PP_OK;
}

pp_status pp_scan_count_hits(const pp_scan *scan, const gf_point *fixes, size_t count, size_t *hits) {
    for (size_t f = 0; f < count; f++) {
        size_t found;
        pp_status status = scan_one(scan, fixes[f], NULL, 0, &found);
        if (status != PP_OK) return status;
        *hits += found;
    }
    return PP_OK;
}

pp_status pp_scan_query(const pp_scan *scan, gf_point fix, uint32_t *indices, size_t capacity, size_t *count) {
    pp_status status = scan_one(scan, fix, indices, capacity, count);
    if (status != PP_OK) return status;
    return *count > capacity ? PP_ERR_TRUNCATED : PP_OK;
}
