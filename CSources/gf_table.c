/*
 * gf_table.c -- the fence table: creating it, adding, removing, moving and reading fences, handles, and the
 * invariant checker. Every mutating function validates and allocates first, then changes the table, so an error
 * leaves the table exactly as it was.
 */
#include "gf_internal.h"

#include <stdlib.h>
#include <string.h>

#define GF__SLOTS_INITIAL 64u

gf_status gf_table_create(uint32_t capacity, gf_table **out) {
    if (out == NULL) return GF_ERR_NULL;
    *out = NULL;
    if (capacity == 0 || capacity > GF_CAPACITY_MAX) return GF_ERR_CAPACITY;
    gf_table *table = calloc(1, sizeof *table);
    if (table == NULL) return GF_ERR_NOMEM;
    table->capacity = capacity;
    table->bytes = sizeof *table;
    table->free_head = GF__NIL;
    if (gf__cells_init(&table->cells, &table->bytes) != 0) {
        free(table);
        return GF_ERR_NOMEM;
    }
    *out = table;
    return GF_OK;
}

void gf_table_destroy(gf_table *table) {
    if (table == NULL) return;
    if (table->shapes != NULL)
        for (uint32_t slot = 0; slot < table->slots_used; slot++) gf__shape_free(table->shapes[slot]);
    free(table->shapes);
    free(table->fences);
    free(table->centres);
    free(table->generations);
    gf__cells_free(&table->cells);
    free(table);
}

uint32_t gf_table_count(const gf_table *table) { return table == NULL ? 0 : table->count; }
uint32_t gf_table_capacity(const gf_table *table) { return table == NULL ? 0 : table->capacity; }
size_t gf_table_memory(const gf_table *table) { return table == NULL ? 0 : table->bytes; }

/* ---- Validation ---- */

static gf_status gf__check_fence(gf_point centre, uint32_t radius_mm) {
    if (centre.lat < -GF_FENCE_LAT_MAX_E7 || centre.lat > GF_FENCE_LAT_MAX_E7) return GF_ERR_LATITUDE;
    if (centre.lon < -GF_LON_MAX_E7 || centre.lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    if (radius_mm < GF_RADIUS_MIN_MM || radius_mm > GF_RADIUS_MAX_MM) return GF_ERR_RADIUS;
    return GF_OK;
}

/* The slot of a live fence, or GF__NIL. */
static uint32_t gf__live_slot(const gf_table *table, gf_handle handle) {
    uint32_t slot = handle & GF__SLOT_MASK;
    uint32_t generation = handle >> GF__SLOT_BITS;
    if (generation == 0 || slot >= table->slots_used) return GF__NIL;
    if (table->fences[slot].radius_mm == 0 || table->generations[slot] != generation) return GF__NIL;
    return slot;
}

/* ---- Slots ---- */

/* Bytes per slot in the per-slot arrays (hot record, centre, generation; the shapes' pointers counted apart). */
#define GF__SLOT_BYTES (sizeof(gf__fence) + sizeof(gf_point) + sizeof(uint8_t))

/* Makes sure a slot can be taken without allocating. Grows by copying (not realloc): on failure the old arrays must
 * stay as they were. */
static int gf__reserve_slot(gf_table *table) {
    if (table->free_count > 0 || table->slots_used < table->slots_cap) return 0;
    uint64_t cap = table->slots_cap == 0 ? GF__SLOTS_INITIAL : (uint64_t)table->slots_cap * 2;
    if (cap > table->capacity) cap = table->capacity;
    gf__fence *fences = malloc((size_t)cap * sizeof *fences);
    gf_point *centres = malloc((size_t)cap * sizeof *centres);
    uint8_t *generations = malloc((size_t)cap * sizeof *generations);
    gf__shape **shapes = table->shapes == NULL ? NULL : calloc((size_t)cap, sizeof *shapes);
    if (fences == NULL || centres == NULL || generations == NULL || (table->shapes != NULL && shapes == NULL)) {
        free(fences);
        free(centres);
        free(generations);
        free(shapes);
        return -1;
    }
    if (table->slots_used > 0) {
        memcpy(fences, table->fences, table->slots_used * sizeof *fences);
        memcpy(centres, table->centres, table->slots_used * sizeof *centres);
        memcpy(generations, table->generations, table->slots_used * sizeof *generations);
    }
    free(table->fences);
    free(table->centres);
    free(table->generations);
    table->bytes += (size_t)(cap - table->slots_cap) * GF__SLOT_BYTES;
    table->fences = fences;
    table->centres = centres;
    table->generations = generations;
    if (shapes != NULL) {
        memcpy(shapes, table->shapes, table->slots_used * sizeof *shapes);
        free(table->shapes);
        table->shapes = shapes;
        table->bytes += (size_t)(cap - table->slots_cap) * sizeof *shapes;
    }
    table->slots_cap = (uint32_t)cap;
    return 0;
}

/* A released slot (most recently released first), else a never used one. Requires a prior successful reserve. */
static uint32_t gf__take_slot(gf_table *table) {
    if (table->free_count > 0) {
        uint32_t slot = table->free_head;
        table->free_head = (uint32_t)table->fences[slot].x;
        table->free_count--;
        return slot;
    }
    uint32_t slot = table->slots_used++;
    table->generations[slot] = 1;
    return slot;
}

static void gf__release_slot(gf_table *table, uint32_t slot) {
    gf__fence *fence = &table->fences[slot];
    fence->radius_mm = 0;
    table->generations[slot] = (uint8_t)(table->generations[slot] % 255 + 1);  /* 1..255: a handle is never 0 */
    fence->x = (int32_t)table->free_head;
    table->free_head = slot;
    table->free_count++;
}

/* ---- Index membership ---- */

/* The box of the fence in a live slot: a circle's from its centre and radius, a shape's as built. */
gf__box gf__slot_box(const gf_table *table, uint32_t slot) {
    const gf__fence *fence = &table->fences[slot];
    if (fence->radius_mm == GF__SHAPE_RADIUS) return table->shapes[slot]->box;
    return gf__fence_box(table->centres[slot], fence->radius_mm);
}

/* Rebuilds the ascending list of occupied levels from the mask; called only when a level fills or empties. */
static void gf__update_levels(gf_table *table) {
    table->level_count = 0;
    for (uint32_t level = GF__LEVEL_MIN; level <= GF__LEVEL_MAX; level += GF__LEVEL_STEP)
        if (table->level_mask & (1u << level)) table->levels[table->level_count++] = (uint8_t)level;
}

/* Makes room for the entry of a fence with this box. */
static int gf__index_reserve(gf_table *table, const gf__box *box) {
    return gf__cells_reserve(&table->cells, box, gf__level_for(box), &table->bytes);
}

/* Adds the fence's one entry: in its level's cells, or in the oversize list (counted with the coarsest level). */
static void gf__index_insert(gf_table *table, uint32_t slot, const gf__box *box) {
    uint32_t level = gf__level_for(box);
    if (gf__box_fits(box, level)) gf__cells_add(&table->cells, box, level, slot);
    else gf__oversize_add(&table->cells, box, slot);
    if (table->level_fences[level]++ == 0) {
        table->level_mask |= 1u << level;
        gf__update_levels(table);
    }
}

static void gf__index_erase(gf_table *table, uint32_t slot, const gf__box *box) {
    uint32_t level = gf__level_for(box);
    if (gf__box_fits(box, level)) gf__cells_remove(&table->cells, box, level, slot);
    else gf__oversize_remove(&table->cells, slot);
    if (--table->level_fences[level] == 0) {
        table->level_mask &= ~(1u << level);
        gf__update_levels(table);
    }
}

static void gf__set_fence(gf_table *table, uint32_t slot, gf_point centre, uint32_t radius_mm) {
    gf__fence *fence = &table->fences[slot];
    gf__ecef e = gf__ecef_of(centre);
    fence->x = e.x;
    fence->y = e.y;
    fence->z = e.z;
    fence->radius_mm = radius_mm;
    table->centres[slot] = centre;
}

/* ---- Public mutators ---- */

gf_status gf_fence_add(gf_table *table, gf_point centre, uint32_t radius_mm, gf_handle *out) {
    if (table == NULL || out == NULL) return GF_ERR_NULL;
    gf_status status = gf__check_fence(centre, radius_mm);
    if (status != GF_OK) return status;
    if (table->count >= table->capacity) return GF_ERR_CAPACITY;
    gf__box box = gf__fence_box(centre, radius_mm);
    if (gf__reserve_slot(table) != 0) return GF_ERR_NOMEM;
    if (gf__index_reserve(table, &box) != 0) return GF_ERR_NOMEM;

    uint32_t slot = gf__take_slot(table);
    gf__set_fence(table, slot, centre, radius_mm);
    gf__index_insert(table, slot, &box);
    table->count++;
    table->epoch++;
    *out = gf__handle_of(slot, table->generations[slot]);
    return GF_OK;
}

gf_status gf_fence_remove(gf_table *table, gf_handle handle) {
    if (table == NULL) return GF_ERR_NULL;
    uint32_t slot = gf__live_slot(table, handle);
    if (slot == GF__NIL) return GF_ERR_HANDLE;
    gf__box box = gf__slot_box(table, slot);
    gf__index_erase(table, slot, &box);
    if (table->fences[slot].radius_mm == GF__SHAPE_RADIUS) {
        table->bytes -= table->shapes[slot]->bytes;
        gf__shape_free(table->shapes[slot]);
        table->shapes[slot] = NULL;
    }
    gf__release_slot(table, slot);
    table->count--;
    table->epoch++;
    return GF_OK;
}

gf_status gf_fence_move(gf_table *table, gf_handle handle, gf_point centre, uint32_t radius_mm) {
    if (table == NULL) return GF_ERR_NULL;
    uint32_t slot = gf__live_slot(table, handle);
    if (slot == GF__NIL) return GF_ERR_HANDLE;
    if (table->fences[slot].radius_mm == GF__SHAPE_RADIUS) return GF_ERR_KIND;
    gf_status status = gf__check_fence(centre, radius_mm);
    if (status != GF_OK) return status;
    gf__box new_box = gf__fence_box(centre, radius_mm);
    if (gf__index_reserve(table, &new_box) != 0) return GF_ERR_NOMEM;

    gf__box old_box = gf__slot_box(table, slot);
    gf__index_erase(table, slot, &old_box);
    gf__set_fence(table, slot, centre, radius_mm);
    gf__index_insert(table, slot, &new_box);
    table->epoch++;
    return GF_OK;
}

gf_status gf_fence_get(const gf_table *table, gf_handle handle, gf_point *centre, uint32_t *radius_mm) {
    if (table == NULL) return GF_ERR_NULL;
    uint32_t slot = gf__live_slot(table, handle);
    if (slot == GF__NIL) return GF_ERR_HANDLE;
    if (table->fences[slot].radius_mm == GF__SHAPE_RADIUS) return GF_ERR_KIND;
    if (centre != NULL) *centre = table->centres[slot];
    if (radius_mm != NULL) *radius_mm = table->fences[slot].radius_mm;
    return GF_OK;
}

gf_status gf_fence_distance(const gf_table *table, gf_handle handle, gf_point fix, uint32_t limit_mm,
                            int64_t *distance_mm) {
    if (table == NULL || distance_mm == NULL) return GF_ERR_NULL;
    if (fix.lat < -GF_LAT_MAX_E7 || fix.lat > GF_LAT_MAX_E7) return GF_ERR_LATITUDE;
    if (fix.lon < -GF_LON_MAX_E7 || fix.lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    if (limit_mm > GF_MARGIN_MAX_MM) return GF_ERR_MARGIN;
    uint32_t slot = gf__live_slot(table, handle);
    if (slot == GF__NIL) return GF_ERR_HANDLE;
    const gf__fence *fence = &table->fences[slot];
    if (fence->radius_mm != GF__SHAPE_RADIUS) {
        /* A circle: the same arc as the query's, from the same chord, so both agree to the millimetre. */
        *distance_mm = gf__arc_mm(gf__chord2(gf__ecef_of(fix), gf__ecef_of(table->centres[slot]))) - (int64_t)fence->radius_mm;
        return GF_OK;
    }
    /* A shape: its query test with the limit as margin. Outside beyond it the test reports nothing; the distance
     * is then known only to exceed the limit. */
    gf__ecef at;
    int at_ready = 0;
    int64_t measured;
    *distance_mm = gf__shape_test(table->shapes[slot], fix, &at, &at_ready, limit_mm, &measured)
        ? measured : (int64_t)limit_mm + 1;
    return GF_OK;
}

gf_status gf_shape_grid_of(const gf_table *table, gf_handle handle, gf_shape_grid *grid) {
    if (table == NULL || grid == NULL) return GF_ERR_NULL;
    uint32_t slot = gf__live_slot(table, handle);
    if (slot == GF__NIL) return GF_ERR_HANDLE;
    if (table->fences[slot].radius_mm != GF__SHAPE_RADIUS) return GF_ERR_KIND;
    const gf__shape *s = table->shapes[slot];
    uint32_t cells = s->gx * s->gy, densest = 0;
    for (uint32_t c = 0; c < cells; c++)
        if (s->cell_start[c + 1] - s->cell_start[c] > densest) densest = s->cell_start[c + 1] - s->cell_start[c];
    grid->edges = s->edge_count;
    grid->cells = cells;
    grid->entries = s->cell_start[cells];
    grid->densest = densest;
    return GF_OK;
}

/* ---- Polygons and corridors ---- */

static gf_status gf__check_vertices(const gf_point *vertices, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        if (vertices[i].lat < -GF_FENCE_LAT_MAX_E7 || vertices[i].lat > GF_FENCE_LAT_MAX_E7) return GF_ERR_LATITUDE;
        if (vertices[i].lon < -GF_LON_MAX_E7 || vertices[i].lon > GF_LON_MAX_E7) return GF_ERR_LONGITUDE;
    }
    return GF_OK;
}

gf_status gf__polygon_arguments(const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count) {
    if (ring_count == 0) return GF_ERR_SHAPE;
    uint32_t start = 0;
    for (uint32_t r = 0; r < ring_count; r++) {
        if (ring_ends[r] < start || ring_ends[r] - start < 3 || ring_ends[r] > GF_SHAPE_VERTICES_MAX)
            return GF_ERR_SHAPE;
        start = ring_ends[r];
    }
    return gf__check_vertices(vertices, start);
}

/* Adds a built shape: reserves everything first, so that a failure leaves the table as it was (and frees it). */
static gf_status gf__add_shape(gf_table *table, gf__shape *shape, size_t shape_bytes, gf_handle *out) {
    int reserved = gf__reserve_slot(table) == 0;
    if (reserved && table->shapes == NULL) {  /* the table's first shape: slots_cap >= 1 after the reserve */
        table->shapes = calloc(table->slots_cap, sizeof *table->shapes);
        reserved = table->shapes != NULL;
        if (reserved) table->bytes += table->slots_cap * sizeof *table->shapes;
    }
    if (!reserved || gf__index_reserve(table, &shape->box) != 0) {
        gf__shape_free(shape);
        return GF_ERR_NOMEM;
    }
    uint32_t slot = gf__take_slot(table);
    gf__fence *fence = &table->fences[slot];
    memset(fence, 0, sizeof *fence);
    fence->radius_mm = GF__SHAPE_RADIUS;
    table->centres[slot].lat = (int32_t)((int64_t)(shape->box.lat_lo + shape->box.lat_hi) / 2 - GF_LAT_MAX_E7);
    table->centres[slot].lon = 0;
    table->shapes[slot] = shape;
    table->bytes += shape_bytes;
    gf__index_insert(table, slot, &shape->box);
    table->count++;
    table->epoch++;
    *out = gf__handle_of(slot, table->generations[slot]);
    return GF_OK;
}

gf_status gf_polygon_add(gf_table *table, const gf_point *vertices, const uint32_t *ring_ends, uint32_t ring_count,
                         gf_handle *out) {
    if (table == NULL || vertices == NULL || ring_ends == NULL || out == NULL) return GF_ERR_NULL;
    if (ring_count == 0) return GF_ERR_SHAPE;
    if (table->count >= table->capacity) return GF_ERR_CAPACITY;
    gf_status status = gf__polygon_arguments(vertices, ring_ends, ring_count);
    if (status != GF_OK) return status;
    gf__shape *shape = NULL;
    size_t shape_bytes = 0;
    status = gf__shape_build(vertices, ring_ends, ring_count, 0, &shape, &shape_bytes, NULL);
    if (status != GF_OK) return status;
    return gf__add_shape(table, shape, shape_bytes, out);
}

gf_status gf_corridor_add(gf_table *table, const gf_point *path, uint32_t count, uint32_t half_width_mm,
                          gf_handle *out) {
    if (table == NULL || path == NULL || out == NULL) return GF_ERR_NULL;
    if (count < 2 || count > GF_SHAPE_VERTICES_MAX) return GF_ERR_SHAPE;
    if (half_width_mm < GF_RADIUS_MIN_MM || half_width_mm > GF_RADIUS_MAX_MM) return GF_ERR_RADIUS;
    if (table->count >= table->capacity) return GF_ERR_CAPACITY;
    gf_status status = gf__check_vertices(path, count);
    if (status != GF_OK) return status;
    gf__shape *shape = NULL;
    size_t shape_bytes = 0;
    status = gf__shape_build(path, &count, 1, half_width_mm, &shape, &shape_bytes, NULL);
    if (status != GF_OK) return status;
    return gf__add_shape(table, shape, shape_bytes, out);
}

/* ---- Invariant checker ---- */

/* Where a crowd's hash says the fence in `slot` is, or GF__NIL (also when a place it passes is out of range). */
static uint32_t gf__crowd_where(const gf__crowd *crowd, uint32_t slot) {
    const uint32_t places = 2 * crowd->cap;
    for (uint32_t k = gf__crowd_home(slot, places), n = 0; n < places; k = k + 1 == places ? 0 : k + 1, n++) {
        const uint32_t at = crowd->places[k];
        if (at == GF__NIL || at >= crowd->count) return GF__NIL;
        if (gf__entry_slot(&crowd->entries[at]) == slot) return at;
    }
    return GF__NIL;
}

/* Entries a lookup of the word's cell finds with exactly this word (key and slot), in the hash table or the cell's
 * crowd. */
static uint32_t gf__occurrences(const gf__cells *cells, uint64_t word, const gf__window_box *box, int *same_box) {
    uint32_t n = 0;
    gf__cell_run run = gf__cell_run_start(cells, word >> 24);
    for (uint32_t i; (i = gf__cell_run_next(cells, &run)) != GF__NIL;) {
        const gf__entry *entry = &cells->slots[i];
        if (gf__entry_is_crowd(entry)) {
            /* Its hash says where (gf__verify_crowd checks that it holds each of its entries exactly once). */
            const gf__crowd *crowd = &cells->crowds[gf__entry_slot(entry)];
            const uint32_t k = gf__crowd_where(crowd, (uint32_t)word & 0xFFFFFFu);
            if (k != GF__NIL && crowd->entries[k].word == word) {
                n++;
                *same_box = memcmp(&crowd->entries[k].box, box, sizeof *box) == 0;
            }
        } else if (entry->word == word) {
            n++;
            *same_box = memcmp(&entry->box, box, sizeof *box) == 0;
        }
    }
    return n;
}

/* One crowd's entries and hash (see gf__crowd): count <= cap; the bucket starts non-decreasing from 0 up to the
 * count; each entry of its key, no marker, in the bucket of its box; the hash saying where each is, and holding
 * nothing else. */
static gf_status gf__verify_crowd(const gf__crowd *crowd) {
    if (crowd->count > crowd->cap || crowd->start[0] != 0) return GF_ERR_CORRUPT;
    const uint32_t level = gf__key_level(crowd->key);
    for (uint32_t b = 0; b < GF__CROWD_BUCKETS; b++) {
        const uint32_t end = gf__crowd_end(crowd, b);
        if (crowd->start[b] > end) return GF_ERR_CORRUPT;
        for (uint32_t k = crowd->start[b]; k < end; k++) {
            const gf__entry *entry = &crowd->entries[k];
            if (gf__entry_key(entry) != crowd->key || gf__entry_is_crowd(entry)
                || gf__crowd_bucket(&entry->box, level) != b || gf__crowd_where(crowd, gf__entry_slot(entry)) != k)
                return GF_ERR_CORRUPT;
        }
    }
    uint32_t placed = 0;
    for (uint32_t k = 0; k < 2 * crowd->cap; k++) placed += crowd->places[k] != GF__NIL;
    return placed == crowd->count ? GF_OK : GF_ERR_CORRUPT;
}

/* The crowds' own invariants (see gf__crowd): each record in use has exactly one marker in the hash table (counted
 * there: `markers`), first of its cell's entries, and entries and a hash of its own (gf__verify_crowd); its cell is
 * full in the hash table or was (at most GF__CELL_HASHED_MAX of its entries there, counted in `hashed`); the unused
 * records form the free list; crowds_empty counts the records in use without entries. Adds the crowds' entries to
 * *entries. */
static gf_status gf__verify_crowds(const gf__cells *cells, uint64_t markers, uint64_t *entries) {
    uint32_t in_use = 0, empty = 0, unused = 0;
    for (uint32_t c = 0; c < cells->crowd_count; c++) {
        const gf__crowd *crowd = &cells->crowds[c];
        if (crowd->key == GF__EMPTY) {
            unused++;
            continue;
        }
        in_use++;
        empty += crowd->count == 0;
        uint32_t found = 0, hashed = 0, place = 0;
        gf__cell_run run = gf__cell_run_start(cells, crowd->key);
        for (uint32_t i; (i = gf__cell_run_next(cells, &run)) != GF__NIL; place++) {
            if (!gf__entry_is_crowd(&cells->slots[i])) hashed++;
            else if (gf__entry_slot(&cells->slots[i]) == c && place == 0) found++;
        }
        if (found != 1 || hashed != crowd->hashed || hashed > GF__CELL_HASHED_MAX) return GF_ERR_CORRUPT;
        gf_status status = gf__verify_crowd(crowd);
        if (status != GF_OK) return status;
        *entries += crowd->count;
    }
    if (in_use != markers || empty != cells->crowds_empty) return GF_ERR_CORRUPT;
    uint32_t c = cells->crowd_free;
    for (uint32_t k = 0; k < unused; k++) {
        if (c >= cells->crowd_count || cells->crowds[c].key != GF__EMPTY) return GF_ERR_CORRUPT;
        c = cells->crowds[c].count;
    }
    return c == GF__NIL ? GF_OK : GF_ERR_CORRUPT;
}

gf_status gf_table_verify(const gf_table *table) {
    if (table == NULL) return GF_ERR_NULL;
    const gf__cells *cells = &table->cells;
    uint32_t live = 0;
    uint64_t expected_entries = 0, expected_oversize = 0;
    uint32_t level_fences[GF__LEVEL_MAX + 1] = {0};

    for (uint32_t slot = 0; slot < table->slots_used; slot++) {
        const gf__fence *fence = &table->fences[slot];
        if (table->generations[slot] < 1) return GF_ERR_CORRUPT;
        int is_shape = fence->radius_mm == GF__SHAPE_RADIUS;
        if (table->shapes != NULL && (table->shapes[slot] != NULL) != is_shape) return GF_ERR_CORRUPT;
        if (is_shape && table->shapes == NULL) return GF_ERR_CORRUPT;
        if (fence->radius_mm == 0) continue;
        live++;
        if (!is_shape) {
            if (gf__check_fence(table->centres[slot], fence->radius_mm) != GF_OK) return GF_ERR_CORRUPT;
            gf__ecef e = gf__ecef_of(table->centres[slot]);
            if (fence->x != e.x || fence->y != e.y || fence->z != e.z) return GF_ERR_CORRUPT;
        }
        gf__box box = gf__slot_box(table, slot);
        uint32_t level = gf__level_for(&box);
        level_fences[level]++;
        if (gf__box_fits(&box, level)) {
            gf__window_box window;
            uint64_t word = (gf__entry_of(&box, level, &window) << 24) | slot;
            int same_box = 0;
            if (gf__occurrences(cells, word, &window, &same_box) != 1 || !same_box) return GF_ERR_CORRUPT;
            if (!gf__filter_maybe(cells, word >> 24)) return GF_ERR_CORRUPT;
            gf__entry entry = {word, window};
            if (!gf__cover_holds(cells, &entry) || !gf__presence_holds(cells, &entry)) return GF_ERR_CORRUPT;
            expected_entries++;
        } else {
            gf__wide_entry wide = gf__wide_entry_of(&box, slot);
            uint32_t found = 0;
            for (uint32_t i = 0; i < cells->oversize_count; i++)
                found += memcmp(&cells->oversize[i], &wide, sizeof wide) == 0;
            if (found != 1) return GF_ERR_CORRUPT;
            expected_oversize++;
        }
    }
    if (live != table->count || live + table->free_count != table->slots_used) return GF_ERR_CORRUPT;
    /* The free list holds exactly the free slots: free_count links, each to a free slot, then the end. */
    uint32_t slot = table->free_head;
    for (uint32_t i = 0; i < table->free_count; i++) {
        if (slot >= table->slots_used || table->fences[slot].radius_mm != 0) return GF_ERR_CORRUPT;
        slot = (uint32_t)table->fences[slot].x;
    }
    if (slot != GF__NIL) return GF_ERR_CORRUPT;
    uint32_t listed = 0;
    for (uint32_t level = 0; level <= GF__LEVEL_MAX; level++) {
        if (level_fences[level] != table->level_fences[level]) return GF_ERR_CORRUPT;
        if (((table->level_mask >> level) & 1u) != (level_fences[level] != 0)) return GF_ERR_CORRUPT;
        if (level_fences[level] != 0 && (listed >= table->level_count || table->levels[listed++] != level))
            return GF_ERR_CORRUPT;
    }
    if (listed != table->level_count) return GF_ERR_CORRUPT;

    /* Every entry names a live fence of its level; the totals match the fences' (so, with the checks above, nothing
     * is indexed that should not be). The oversize list is in ascending slot order. */
    uint64_t used = 0, markers = 0, hashed = 0;
    for (uint32_t i = 0; i < cells->size; i++) {
        const gf__entry *entry = &cells->slots[i];
        if (entry->word == GF__EMPTY) continue;
        used++;
        uint32_t previous = i == 0 ? cells->size - 1 : i - 1;
        uint32_t displacement = gf__displacement(cells, i);
        if (cells->slots[previous].word == GF__EMPTY ? displacement != 0
                                                      : displacement > gf__displacement(cells, previous) + 1)
            return GF_ERR_CORRUPT;
        /* The first entry of its home: the home's start offset is its distance (up to GF__FIRST_MAX). */
        uint32_t home = gf__cell_hash(gf__entry_key(entry), cells->size);
        if ((cells->slots[previous].word == GF__EMPTY
             || gf__cell_hash(gf__entry_key(&cells->slots[previous]), cells->size) != home)
            && cells->first[home] != (displacement < GF__FIRST_MAX ? displacement : GF__FIRST_MAX))
            return GF_ERR_CORRUPT;
        uint32_t fence = gf__entry_slot(entry);
        if (gf__entry_is_crowd(entry)) {
            if (fence >= cells->crowd_count || cells->crowds[fence].key != gf__entry_key(entry)) return GF_ERR_CORRUPT;
            markers++;
        } else {
            if (fence >= table->slots_used || table->fences[fence].radius_mm == 0) return GF_ERR_CORRUPT;
            hashed++;
        }
        /* At most GF__CELL_HASHED_MAX fences of a cell in the hash table; at most one marker. */
        uint32_t of_key = 0, markers_of_key = 0;
        gf__cell_run run = gf__cell_run_start(cells, gf__entry_key(entry));
        for (uint32_t j; (j = gf__cell_run_next(cells, &run)) != GF__NIL;) {
            if (gf__entry_is_crowd(&cells->slots[j])) markers_of_key++;
            else of_key++;
        }
        if (of_key > GF__CELL_HASHED_MAX || markers_of_key > 1) return GF_ERR_CORRUPT;
        /* The next entry of the same key on the run (entries of one key share a home: look no further than it). */
        for (uint32_t j = gf__next_slot(cells, i), d = displacement + 1;
             cells->slots[j].word != GF__EMPTY && gf__displacement(cells, j) == d && j != i; j = gf__next_slot(cells, j), d++)
            if (gf__entry_key(&cells->slots[j]) == gf__entry_key(entry)) {
                if (cells->slots[j].box.lat_lo < entry->box.lat_lo) return GF_ERR_CORRUPT;
                break;
            }
    }
    for (uint32_t i = 0; i < cells->oversize_count; i++) {
        uint32_t fence = cells->oversize[i].slot;
        if (fence >= table->slots_used || table->fences[fence].radius_mm == 0) return GF_ERR_CORRUPT;
        if (i > 0 && cells->oversize[i - 1].slot >= fence) return GF_ERR_CORRUPT;
    }
    if (gf__verify_crowds(cells, markers, &hashed) != GF_OK) return GF_ERR_CORRUPT;
    if (used != cells->used || hashed != expected_entries || cells->oversize_count != expected_oversize)
        return GF_ERR_CORRUPT;
    /* Queries consult the presence map only while it is kept and no entry went unmarked; a map left empty is empty. */
    if (cells->presence_useful != (cells->presence_dense_at == 0 && cells->presence_unmarked == 0))
        return GF_ERR_CORRUPT;
    for (uint32_t w = 0; cells->presence_dense_at != 0 && w < cells->presence_words; w++)
        if (cells->presence[w] != 0) return GF_ERR_CORRUPT;
    return GF_OK;
}
