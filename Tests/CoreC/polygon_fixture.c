/*
 * polygon_fixture.c -- polygons and corridors against the independent reference of scripts/gen_polygon_vectors.py
 * (exact point-in-polygon, WGS-84 geodesic distances by geographiclib to lon/lat-straight edges; format in its
 * docstring). Each shape goes into a table of its own with a few circles; every probe is queried with margin 0
 * (inside or not) and with a 300 m margin (the signed distance of probes outside too).
 *   Polygons: the side must be the reference's exactly, except that a probe outside within 20 mm of the boundary
 *   may be a hit at distance <= 20 mm (the distance's band).
 *   Corridors: the side must be the reference's outside the band (|signed| > 20 mm).
 *   Distances: within 20 mm + |d| / 10^4 of the reference where the core promises them exact (within the margin and
 *   within one cell of its grid of the boundary, taken here as 1 m); deeper inside, a lower bound on the depth.
 */
#include "core_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 1 << 20, MAX_SHAPE_VERTICES = 200000, MAX_SHAPE_RINGS = 4096, HITS = 16 };
static const uint32_t wide_margin_mm = 300000;

typedef struct fixture_shape {
    char name[128];
    uint32_t half_width_mm;
    gf_point *vertices;
    uint32_t *ring_ends;
    uint32_t vertex_count, ring_count;
    gf_table *table;
    gf_handle handle;
} fixture_shape;

typedef struct fixture_totals {
    unsigned long shapes, points, inside, distances;
    int64_t worst_error_mm;
    char worst_where[256];
} fixture_totals;

/* Parses comma-separated integers after the first field into values; returns how many. */
static size_t parse_integers(char *line, int64_t *values, size_t capacity) {
    size_t n = 0;
    char *field = strchr(line, ',');
    while (field != NULL && n < capacity) {
        values[n++] = strtoll(field + 1, NULL, 10);
        field = strchr(field + 1, ',');
    }
    return n;
}

static void finish_shape(fixture_shape *s) {
    if (s->table != NULL) gf_table_destroy(s->table);
    s->table = NULL;
}

static void build_shape(fixture_shape *s) {
    CT_STATUS(gf_table_create(16, &s->table), GF_OK, "gf_table_create");
    gf_status status = s->half_width_mm == 0
        ? gf_polygon_add(s->table, s->vertices, s->ring_ends, s->ring_count, &s->handle)
        : gf_corridor_add(s->table, s->vertices, s->vertex_count, s->half_width_mm, &s->handle);
    CT_CHECK(status == GF_OK, "fixture shape %s: %s", s->name, gf_status_name(status));
    /* A few circles around its first vertex, so the shape is found among other fences. */
    for (int k = 0; k < 5; k++) {
        gf_handle h;
        gf_point c = s->vertices[(uint32_t)k * s->vertex_count / 5];
        gf_fence_add(s->table, c, 50000u * (uint32_t)(k + 1), &h);
    }
}

/* The shape's hit at p with margin, or NULL. */
static const gf_hit *shape_hit(const fixture_shape *s, gf_point p, uint32_t margin, gf_hit *hits) {
    size_t count = 0;
    gf_status status = gf_query(s->table, p, margin, hits, HITS, &count);
    CT_STATUS(status, GF_OK, "gf_query");
    for (size_t i = 0; i < count && i < HITS; i++)
        if (hits[i].handle == s->handle) return &hits[i];
    return NULL;
}

static void check_probe(const fixture_shape *s, gf_point p, int inside, int64_t signed_mm, fixture_totals *t) {
    gf_hit hits[HITS];
    const gf_hit *hit = shape_hit(s, p, 0, hits);
    t->points++;
    t->inside += (unsigned long)inside;
    int64_t magnitude = signed_mm < 0 ? -signed_mm : signed_mm;
    int64_t band = 20 + magnitude / 10000;  /* the circles' band, b(d) = 2 cm + d / 10^4 */
    if (s->half_width_mm == 0) {
        int ok = inside ? hit != NULL : (hit == NULL || (signed_mm <= band && hit->distance_mm <= band));
        CT_CHECK(ok, "%s (%d, %d): reference %s (%lld mm), core %s", s->name, p.lat, p.lon,
                 inside ? "inside" : "outside", (long long)signed_mm, hit ? "hit" : "no hit");
    } else if (magnitude > band) {
        CT_CHECK((hit != NULL) == inside, "%s (%d, %d): reference %s (%lld mm), core %s", s->name, p.lat, p.lon,
                 inside ? "inside" : "outside", (long long)signed_mm, hit ? "hit" : "no hit");
    }

    const gf_hit *wide = shape_hit(s, p, wide_margin_mm, hits);
    if (signed_mm > (int64_t)wide_margin_mm - band) return;  /* beyond the wide margin (or at its edge) */
    if (!CT_CHECK(wide != NULL, "%s (%d, %d): %lld mm from the boundary but no hit with a %u mm margin", s->name,
                  p.lat, p.lon, (long long)signed_mm, (unsigned)wide_margin_mm))
        return;
    ct_digest(wide->distance_mm);
    int64_t error = (int64_t)wide->distance_mm - signed_mm;
    if (signed_mm >= -1000 || s->half_width_mm != 0) {
        int64_t abs_error = error < 0 ? -error : error;
        t->distances++;
        if (abs_error > t->worst_error_mm) {
            t->worst_error_mm = abs_error;
            snprintf(t->worst_where, sizeof t->worst_where, "%s (%d, %d): %d mm, reference %lld mm", s->name, p.lat,
                     p.lon, wide->distance_mm, (long long)signed_mm);
        }
        CT_CHECK(abs_error <= band, "%s (%d, %d): distance %d mm, reference %lld mm", s->name, p.lat, p.lon,
                 wide->distance_mm, (long long)signed_mm);
    } else {
        CT_CHECK(wide->distance_mm < 0 && wide->distance_mm >= signed_mm - band,
                 "%s (%d, %d): deep inside, distance %d mm not in [%lld, 0)", s->name, p.lat, p.lon,
                 wide->distance_mm, (long long)(signed_mm - band));
    }
}

void test_polygon_fixture(const char *path) {
    FILE *file = fopen(path, "r");
    if (!CT_CHECK(file != NULL, "cannot open the polygon fixture %s", path)) return;
    char *line = malloc(LINE_MAX_BYTES);
    int64_t *values = malloc(2 * (size_t)MAX_SHAPE_VERTICES * sizeof *values);
    static fixture_shape shape;
    shape.vertices = malloc((size_t)MAX_SHAPE_VERTICES * sizeof *shape.vertices);
    shape.ring_ends = malloc((size_t)MAX_SHAPE_RINGS * sizeof *shape.ring_ends);
    if (line == NULL || values == NULL || shape.vertices == NULL || shape.ring_ends == NULL) abort();
    fixture_totals totals = {0};
    int built = 0;
    unsigned long line_number = 0;
    while (fgets(line, LINE_MAX_BYTES, file) != NULL) {
        line_number++;
        size_t length = strlen(line);
        if (!CT_CHECK(length < LINE_MAX_BYTES - 1, "%s:%lu: line too long", path, line_number)) break;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (strncmp(line, "shape,", 6) == 0) {
            finish_shape(&shape);
            built = 0;
            totals.shapes++;
            char *name = line + 6, *kind = strchr(name, ',');
            if (!CT_CHECK(kind != NULL, "%s:%lu: shape line without a kind", path, line_number)) break;
            size_t name_length = (size_t)(kind - name) < sizeof shape.name - 1 ? (size_t)(kind - name)
                                                                               : sizeof shape.name - 1;
            memcpy(shape.name, name, name_length);
            shape.name[name_length] = '\0';
            char *width = strchr(kind + 1, ',');
            shape.half_width_mm = width == NULL ? 0 : (uint32_t)strtoul(width + 1, NULL, 10);
            shape.vertex_count = shape.ring_count = 0;
        } else if (strncmp(line, "ring,", 5) == 0 || strncmp(line, "path,", 5) == 0) {
            size_t n = parse_integers(line, values, 2 * (size_t)MAX_SHAPE_VERTICES);
            if (!CT_CHECK(n % 2 == 0 && shape.vertex_count + n / 2 <= MAX_SHAPE_VERTICES
                              && shape.ring_count < MAX_SHAPE_RINGS,
                          "%s:%lu: bad ring", path, line_number))
                break;
            for (size_t i = 0; i < n; i += 2)
                shape.vertices[shape.vertex_count++] = (gf_point){(int32_t)values[i], (int32_t)values[i + 1]};
            shape.ring_ends[shape.ring_count++] = shape.vertex_count;
        } else if (strncmp(line, "point,", 6) == 0) {
            if (!built) {
                build_shape(&shape);
                built = 1;
            }
            int64_t v[4];
            if (!CT_CHECK(parse_integers(line, v, 4) == 4, "%s:%lu: bad point", path, line_number)) break;
            check_probe(&shape, (gf_point){(int32_t)v[0], (int32_t)v[1]}, v[2] != 0, v[3], &totals);
        }
    }
    finish_shape(&shape);
    fclose(file);
    free(line);
    free(values);
    free(shape.vertices);
    free(shape.ring_ends);
    shape.vertices = NULL;
    shape.ring_ends = NULL;
    printf("polygon fixture %s: %lu shapes, %lu probes (%lu inside), %lu distances, worst error %lld mm%s%s\n", path,
           totals.shapes, totals.points, totals.inside, totals.distances, (long long)totals.worst_error_mm,
           totals.worst_error_mm > 0 ? " at " : "", totals.worst_where);
}
