// geos_strtree.c: GEOS's STRtree as a geofence index, the way its C API is meant to be used: a box per fence as the
// item's envelope, a point per fix as the query, and the exact test in the query callback.

#include "perf_peers.h"

// As Sources/CGEOS/CGEOS.h (the system-library module, which a C target cannot include by name): only the
// reentrant half of the API, whose every call takes the context.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#include <stdlib.h>

// GEOS's suggested node capacity when unsure (geos_c.h, GEOSSTRtree_create).
enum { strtree_node_capacity = 10 };

// What an item points at: the fence as the exact test needs it. 12 bytes.
typedef struct strtree_fence {
    gf_point centre;
    uint32_t radius_mm;
} strtree_fence;

struct pp_strtree {
    GEOSContextHandle_t context;
    GEOSSTRtree *tree;
    strtree_fence *fences;
    size_t count;
    uint32_t margin_mm;
    GEOSGeometry **fix_points;  // loaded by pp_strtree_load_fixes
    gf_point *fix_e7;           // the same fixes as the exact test sees them
    size_t fix_count;
};

// The callback's state for one query.
typedef struct strtree_visit {
    const pp_strtree *owner;
    gf_point fix;
    uint32_t *indices;  // NULL when only counting
    size_t capacity;
    size_t count;
    int failed;         // gf_distance refused the fix
} strtree_visit;

static void strtree_exact_test(void *item, void *userdata) {
    const strtree_fence *fence = item;
    strtree_visit *visit = userdata;
    int64_t distance_mm;
    if (gf_distance(visit->fix, fence->centre, &distance_mm) != GF_OK) {
        visit->failed = 1;
        return;
    }
    if (distance_mm - (int64_t)fence->radius_mm <= (int64_t)visit->owner->margin_mm) {
        if (visit->indices != NULL && visit->count < visit->capacity) {
            visit->indices[visit->count] = (uint32_t)(fence - visit->owner->fences);
        }
        visit->count += 1;
    }
}

const char *pp_geos_version(void) {
    const char *version = GEOSversion();
    return version == NULL ? "unknown" : version;
}

static void strtree_free_fixes(pp_strtree *tree) {
    for (size_t i = 0; i < tree->fix_count; i++) GEOSGeom_destroy_r(tree->context, tree->fix_points[i]);
    free(tree->fix_points);
    free(tree->fix_e7);
    tree->fix_points = NULL;
    tree->fix_e7 = NULL;
    tree->fix_count = 0;
}

void pp_strtree_destroy(pp_strtree *tree) {
    if (tree == NULL) return;
    if (tree->context != NULL) {
        strtree_free_fixes(tree);
        if (tree->tree != NULL) GEOSSTRtree_destroy_r(tree->context, tree->tree);
        GEOS_finish_r(tree->context);
    }
    free(tree->fences);
    free(tree);
}

static double degrees(int32_t e7) { return (double)e7 / GF_E7_PER_DEGREE; }

// Inserts fence i's box. The rectangle is destroyed at once: the tree keeps a copy of its envelope (GEOS >= 3.9).
static pp_status strtree_insert(pp_strtree *tree, size_t i) {
    const strtree_fence *fence = &tree->fences[i];
    gf_point c = fence->centre;
    if (c.lat < -GF_FENCE_LAT_MAX_E7 || c.lat > GF_FENCE_LAT_MAX_E7 || c.lon < -GF_LON_MAX_E7
        || c.lon > GF_LON_MAX_E7 || fence->radius_mm < GF_RADIUS_MIN_MM || fence->radius_mm > GF_RADIUS_MAX_MM) {
        return PP_ERR_FENCE;
    }
    int32_t lat_reach, lon_reach;
    pp_bounding_reach(c, (uint64_t)fence->radius_mm + tree->margin_mm, &lat_reach, &lon_reach);
    int64_t west = (int64_t)c.lon - lon_reach, east = (int64_t)c.lon + lon_reach;
    if (west < -GF_LON_MAX_E7 || east > GF_LON_MAX_E7) return PP_ERR_ANTIMERIDIAN;
    GEOSGeometry *box = GEOSGeom_createRectangle_r(tree->context, (double)west / GF_E7_PER_DEGREE,
                                                   degrees(c.lat - lat_reach), (double)east / GF_E7_PER_DEGREE,
                                                   degrees(c.lat + lat_reach));
    if (box == NULL) return PP_ERR_GEOS;
    GEOSSTRtree_insert_r(tree->context, tree->tree, box, (void *)fence);
    GEOSGeom_destroy_r(tree->context, box);
    return PP_OK;
}

pp_status pp_strtree_create(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                            pp_strtree **out) {
    pp_strtree *tree = calloc(1, sizeof *tree);
    if (tree == NULL) return PP_ERR_NOMEM;
    tree->count = count;
    tree->margin_mm = margin_mm;
    tree->fences = malloc((count == 0 ? 1 : count) * sizeof *tree->fences);
    tree->context = GEOS_init_r();
    if (tree->fences == NULL || tree->context == NULL) {
        pp_status status = tree->fences == NULL ? PP_ERR_NOMEM : PP_ERR_GEOS;
        pp_strtree_destroy(tree);
        return status;
    }
    tree->tree = GEOSSTRtree_create_r(tree->context, strtree_node_capacity);
    if (tree->tree == NULL) {
        pp_strtree_destroy(tree);
        return PP_ERR_GEOS;
    }
    for (size_t i = 0; i < count; i++) {
        tree->fences[i] = (strtree_fence){centres[i], radii_mm[i]};
        pp_status status = strtree_insert(tree, i);
        if (status != PP_OK) {
            pp_strtree_destroy(tree);
            return status;
        }
    }
    // GEOS packs the tree on the first query: do it here so that packing counts as building, not as a fix.
    GEOSGeometry *origin = GEOSGeom_createPointFromXY_r(tree->context, 0, 0);
    if (origin == NULL) {
        pp_strtree_destroy(tree);
        return PP_ERR_GEOS;
    }
    strtree_visit visit = {.owner = tree, .fix = {0, 0}};
    GEOSSTRtree_query_r(tree->context, tree->tree, origin, strtree_exact_test, &visit);
    GEOSGeom_destroy_r(tree->context, origin);
    *out = tree;
    return PP_OK;
}

pp_status pp_strtree_load_fixes(pp_strtree *tree, const gf_point *fixes, size_t count) {
    strtree_free_fixes(tree);
    tree->fix_points = calloc(count == 0 ? 1 : count, sizeof *tree->fix_points);
    tree->fix_e7 = malloc((count == 0 ? 1 : count) * sizeof *tree->fix_e7);
    if (tree->fix_points == NULL || tree->fix_e7 == NULL) {
        strtree_free_fixes(tree);
        return PP_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        tree->fix_e7[i] = fixes[i];
        tree->fix_points[i] = GEOSGeom_createPointFromXY_r(tree->context, degrees(fixes[i].lon),
                                                           degrees(fixes[i].lat));
        tree->fix_count = i + 1;  // so that a failure below frees what was made
        if (tree->fix_points[i] == NULL) {
            strtree_free_fixes(tree);
            return PP_ERR_GEOS;
        }
    }
    return PP_OK;
}

static pp_status strtree_visit_fix(const pp_strtree *tree, size_t index, strtree_visit *visit) {
    if (index >= tree->fix_count) return PP_ERR_FIX;
    visit->owner = tree;
    visit->fix = tree->fix_e7[index];
    // The query takes a non-const tree (it may pack it); after pp_strtree_create's query it only reads it.
    GEOSSTRtree_query_r(tree->context, tree->tree, tree->fix_points[index], strtree_exact_test, visit);
    return visit->failed ? PP_ERR_FIX : PP_OK;
}

pp_status pp_strtree_count_hits(const pp_strtree *tree, size_t first, size_t count, size_t *hits) {
    for (size_t i = first; i < first + count; i++) {
        strtree_visit visit = {0};
        pp_status status = strtree_visit_fix(tree, i, &visit);
        if (status != PP_OK) return status;
        *hits += visit.count;
    }
    return PP_OK;
}

pp_status pp_strtree_query(const pp_strtree *tree, size_t index, uint32_t *indices, size_t capacity, size_t *count) {
    strtree_visit visit = {.indices = indices, .capacity = capacity};
    pp_status status = strtree_visit_fix(tree, index, &visit);
    *count = visit.count;
    if (status != PP_OK) return status;
    return visit.count > capacity ? PP_ERR_TRUNCATED : PP_OK;
}
