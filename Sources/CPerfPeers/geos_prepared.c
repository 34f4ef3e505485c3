// geos_prepared.c: GEOS prepared polygons behind an STRtree, the usual GEOS recipe for point-in-zone lookups.

#include "perf_geos_prepared.h"

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#include <stdlib.h>

// GEOS's suggested node capacity when unsure (geos_c.h, GEOSSTRtree_create); the same as geos-strtree's.
enum { prepared_node_capacity = 10 };

// One polygon: the geometry (owned: a prepared geometry only refers to it) and its prepared form.
typedef struct prepared_polygon {
    GEOSGeometry *geometry;
    const GEOSPreparedGeometry *prepared;
} prepared_polygon;

struct pp_prepared {
    GEOSContextHandle_t context;
    GEOSSTRtree *tree;
    prepared_polygon *polygons;
    size_t count;
};

// The callback's state for one fix.
typedef struct prepared_visit {
    const pp_prepared *owner;
    const GEOSGeometry *point;
    uint32_t *indices;  // NULL when only counting
    size_t capacity;
    size_t count;
    int failed;         // a predicate raised a GEOS exception (returned 2)
} prepared_visit;

static void prepared_contains_test(void *item, void *userdata) {
    const prepared_polygon *polygon = item;
    prepared_visit *visit = userdata;
    char contains = GEOSPreparedContains_r(visit->owner->context, polygon->prepared, visit->point);
    if (contains == 2) {
        visit->failed = 1;
        return;
    }
    if (contains == 1) {
        if (visit->indices != NULL && visit->count < visit->capacity) {
            visit->indices[visit->count] = (uint32_t)(polygon - visit->owner->polygons);
        }
        visit->count += 1;
    }
}

void pp_prepared_destroy(pp_prepared *prepared) {
    if (prepared == NULL) return;
    if (prepared->context != NULL) {
        if (prepared->tree != NULL) GEOSSTRtree_destroy_r(prepared->context, prepared->tree);
        for (size_t i = 0; i < prepared->count; i++) {
            if (prepared->polygons[i].prepared != NULL) {
                GEOSPreparedGeom_destroy_r(prepared->context, prepared->polygons[i].prepared);
            }
            if (prepared->polygons[i].geometry != NULL) {
                GEOSGeom_destroy_r(prepared->context, prepared->polygons[i].geometry);
            }
        }
        GEOS_finish_r(prepared->context);
    }
    free(prepared->polygons);
    free(prepared);
}

static double degrees(int32_t e7) { return (double)e7 / GF_E7_PER_DEGREE; }

// A closed GEOS ring from vertices[begin ..< end] (the first vertex repeated at the end), or NULL.
static GEOSGeometry *prepared_ring(GEOSContextHandle_t context, const gf_point *vertices, uint32_t begin,
                                   uint32_t end) {
    uint32_t size = end - begin;
    GEOSCoordSequence *sequence = GEOSCoordSeq_create_r(context, size + 1, 2);
    if (sequence == NULL) return NULL;
    for (uint32_t i = 0; i <= size; i++) {
        gf_point vertex = vertices[begin + (i == size ? 0 : i)];
        if (!GEOSCoordSeq_setXY_r(context, sequence, i, degrees(vertex.lon), degrees(vertex.lat))) {
            GEOSCoordSeq_destroy_r(context, sequence);
            return NULL;
        }
    }
    return GEOSGeom_createLinearRing_r(context, sequence);  // takes the sequence, also on failure
}

// Polygon p's geometry (shell and holes), or NULL with *status set.
static GEOSGeometry *prepared_polygon_geometry(GEOSContextHandle_t context, const gf_point *vertices,
                                               const uint32_t *ring_ends, uint32_t first_ring, uint32_t end_ring,
                                               pp_status *status) {
    uint32_t ring_count = end_ring - first_ring;
    *status = PP_ERR_FENCE;
    if (ring_count == 0) return NULL;
    for (uint32_t r = first_ring; r < end_ring; r++) {
        uint32_t begin = r == 0 ? 0 : ring_ends[r - 1];
        if (ring_ends[r] < begin + 3) return NULL;
    }
    *status = PP_ERR_NOMEM;
    GEOSGeometry **holes = malloc((ring_count == 1 ? 1 : ring_count - 1) * sizeof *holes);
    if (holes == NULL) return NULL;
    *status = PP_ERR_GEOS;
    GEOSGeometry *shell = prepared_ring(context, vertices, first_ring == 0 ? 0 : ring_ends[first_ring - 1],
                                        ring_ends[first_ring]);
    uint32_t made = 0;
    for (uint32_t r = first_ring + 1; shell != NULL && r < end_ring; r++, made++) {
        holes[made] = prepared_ring(context, vertices, ring_ends[r - 1], ring_ends[r]);
        if (holes[made] == NULL) break;
    }
    GEOSGeometry *polygon = NULL;
    if (shell != NULL && made == ring_count - 1) {
        polygon = GEOSGeom_createPolygon_r(context, shell, holes, made);  // takes the rings (not the array)
    } else {
        if (shell != NULL) GEOSGeom_destroy_r(context, shell);
        for (uint32_t i = 0; i < made; i++) GEOSGeom_destroy_r(context, holes[i]);
    }
    free(holes);
    if (polygon != NULL) *status = PP_OK;
    return polygon;
}

// Makes, prepares, warms and indexes polygon p.
static pp_status prepared_add(pp_prepared *prepared, const gf_point *vertices, const uint32_t *ring_ends,
                              const uint32_t *polygon_ends, size_t p) {
    uint32_t first_ring = p == 0 ? 0 : polygon_ends[p - 1];
    if (polygon_ends[p] <= first_ring) return PP_ERR_FENCE;
    pp_status status;
    prepared_polygon *polygon = &prepared->polygons[p];
    polygon->geometry = prepared_polygon_geometry(prepared->context, vertices, ring_ends, first_ring,
                                                  polygon_ends[p], &status);
    if (polygon->geometry == NULL) return status;
    polygon->prepared = GEOSPrepare_r(prepared->context, polygon->geometry);
    if (polygon->prepared == NULL) return PP_ERR_GEOS;
    // One predicate now builds the prepared polygon's point locator (GEOS builds it on first use).
    gf_point first = vertices[first_ring == 0 ? 0 : ring_ends[first_ring - 1]];
    GEOSGeometry *probe = GEOSGeom_createPointFromXY_r(prepared->context, degrees(first.lon), degrees(first.lat));
    if (probe == NULL) return PP_ERR_GEOS;
    char contains = GEOSPreparedContains_r(prepared->context, polygon->prepared, probe);
    GEOSGeom_destroy_r(prepared->context, probe);
    if (contains == 2) return PP_ERR_GEOS;
    GEOSSTRtree_insert_r(prepared->context, prepared->tree, polygon->geometry, polygon);
    return PP_OK;
}

pp_status pp_prepared_create(const gf_point *vertices, const uint32_t *ring_ends, const uint32_t *polygon_ends,
                             size_t polygon_count, pp_prepared **out) {
    pp_prepared *prepared = calloc(1, sizeof *prepared);
    if (prepared == NULL) return PP_ERR_NOMEM;
    prepared->polygons = calloc(polygon_count == 0 ? 1 : polygon_count, sizeof *prepared->polygons);
    prepared->context = GEOS_init_r();
    if (prepared->polygons == NULL || prepared->context == NULL) {
        pp_status status = prepared->polygons == NULL ? PP_ERR_NOMEM : PP_ERR_GEOS;
        pp_prepared_destroy(prepared);
        return status;
    }
    prepared->tree = GEOSSTRtree_create_r(prepared->context, prepared_node_capacity);
    if (prepared->tree == NULL) {
        pp_prepared_destroy(prepared);
        return PP_ERR_GEOS;
    }
    for (size_t p = 0; p < polygon_count; p++) {
        prepared->count = p + 1;  // so that a failure below frees what was made
        pp_status status = prepared_add(prepared, vertices, ring_ends, polygon_ends, p);
        if (status != PP_OK) {
            pp_prepared_destroy(prepared);
            return status;
        }
    }
    // GEOS packs the tree on the first query: do it here so that packing counts as building.
    uint32_t ignored;
    size_t found;
    pp_status status = pp_prepared_query(prepared, (gf_point){0, 0}, &ignored, 1, &found);
    if (status != PP_OK && status != PP_ERR_TRUNCATED) {
        pp_prepared_destroy(prepared);
        return status;
    }
    *out = prepared;
    return PP_OK;
}

// Makes the fix's point, visits the candidates, destroys the point.
static pp_status prepared_visit_fix(const pp_prepared *prepared, gf_point fix, prepared_visit *visit) {
    GEOSGeometry *point = GEOSGeom_createPointFromXY_r(prepared->context, degrees(fix.lon), degrees(fix.lat));
    if (point == NULL) return PP_ERR_GEOS;
    visit->owner = prepared;
    visit->point = point;
    // The query takes a non-const tree (it may pack it); after pp_prepared_create's query it only reads it.
    GEOSSTRtree_query_r(prepared->context, prepared->tree, point, prepared_contains_test, visit);
    GEOSGeom_destroy_r(prepared->context, point);
    return visit->failed ? PP_ERR_GEOS : PP_OK;
}

pp_status pp_prepared_count_hits(const pp_prepared *prepared, const gf_point *fixes, size_t first, size_t count,
                                 size_t *hits) {
    for (size_t i = first; i < first + count; i++) {
        prepared_visit visit = {0};
        pp_status status = prepared_visit_fix(prepared, fixes[i], &visit);
        if (status != PP_OK) return status;
        *hits += visit.count;
    }
    return PP_OK;
}

pp_status pp_prepared_query(const pp_prepared *prepared, gf_point fix, uint32_t *indices, size_t capacity,
                            size_t *count) {
    prepared_visit visit = {.indices = indices, .capacity = capacity};
    pp_status status = prepared_visit_fix(prepared, fix, &visit);
    *count = visit.count;
    if (status != PP_OK) return status;
    return visit.count > capacity ? PP_ERR_TRUNCATED : PP_OK;
}
