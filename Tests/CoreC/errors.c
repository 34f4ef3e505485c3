/*
 * errors.c -- every status the API can return, from every function that returns it, and the table left unchanged
 * by each failed call. GF_ERR_NOMEM is in out_of_memory.c; GF_ERR_CORRUPT cannot be caused through the API (it
 * reports a bug in the library), so only its name and message are checked.
 */
#include "core_test.h"

#include <math.h>
#include <string.h>

static const struct {
    gf_status status;
    const char *name;
} statuses[] = {
    {GF_OK, "GF_OK"},
    {GF_ERR_NULL, "GF_ERR_NULL"},
    {GF_ERR_LATITUDE, "GF_ERR_LATITUDE"},
    {GF_ERR_LONGITUDE, "GF_ERR_LONGITUDE"},
    {GF_ERR_RADIUS, "GF_ERR_RADIUS"},
    {GF_ERR_MARGIN, "GF_ERR_MARGIN"},
    {GF_ERR_CAPACITY, "GF_ERR_CAPACITY"},
    {GF_ERR_HANDLE, "GF_ERR_HANDLE"},
    {GF_ERR_NOMEM, "GF_ERR_NOMEM"},
    {GF_ERR_TRUNCATED, "GF_ERR_TRUNCATED"},
    {GF_ERR_CORRUPT, "GF_ERR_CORRUPT"},
    {GF_ERR_SHAPE, "GF_ERR_SHAPE"},
    {GF_ERR_KIND, "GF_ERR_KIND"},
};

static void names_and_messages(void) {
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        CT_CHECK(strcmp(gf_status_name(statuses[i].status), statuses[i].name) == 0, "name of %s", statuses[i].name);
        const char *message = gf_status_message(statuses[i].status);
        CT_CHECK(message != NULL && message[0] != '\0', "message of %s", statuses[i].name);
    }
    CT_CHECK(strcmp(gf_status_name((gf_status)13), "GF_UNKNOWN") == 0, "name of 13");
    CT_CHECK(strcmp(gf_status_name((gf_status)-1), "GF_UNKNOWN") == 0, "name of -1");
    CT_CHECK(gf_status_message((gf_status)99) != NULL, "message of 99");
}

static void creating(void) {
    gf_table *table = (gf_table *)&table;  /* not NULL, so that clearing it shows */
    CT_STATUS(gf_table_create(1, NULL), GF_ERR_NULL, "create, out NULL");
    CT_STATUS(gf_table_create(0, &table), GF_ERR_CAPACITY, "create, capacity 0");
    CT_CHECK(table == NULL, "create failed but left *out set");
    CT_STATUS(gf_table_create(GF_CAPACITY_MAX + 1, &table), GF_ERR_CAPACITY, "create, capacity above the limit");
    CT_STATUS(gf_table_create(GF_CAPACITY_MAX, &table), GF_OK, "create, the largest capacity");
    CT_CHECK(gf_table_capacity(table) == GF_CAPACITY_MAX, "capacity");
    gf_table_destroy(table);
    gf_table_destroy(NULL);
    CT_CHECK(gf_table_count(NULL) == 0 && gf_table_capacity(NULL) == 0 && gf_table_memory(NULL) == 0, "NULL table");
    CT_STATUS(gf_table_verify(NULL), GF_ERR_NULL, "verify NULL");
}

/* The fence a failed call must leave alone, and a check that it did. */
static const gf_point home = {-274679357, 1530281038};
static const uint32_t home_radius = 100000;

static void unchanged(const gf_table *table, gf_handle handle, const char *after) {
    gf_point centre = {0, 0};
    uint32_t radius = 0;
    CT_CHECK(gf_table_count(table) == 1 && gf_fence_get(table, handle, &centre, &radius) == GF_OK &&
                 centre.lat == home.lat && centre.lon == home.lon && radius == home_radius,
             "the table changed after %s", after);
    CT_STATUS(gf_table_verify(table), GF_OK, after);
}

static void fences(void) {
    gf_table *table = NULL;
    gf_handle handle = GF_HANDLE_NONE, other = GF_HANDLE_NONE;
    if (!CT_STATUS(gf_table_create(2, &table), GF_OK, "create")) return;
    CT_STATUS(gf_fence_add(table, home, home_radius, &handle), GF_OK, "add");
    const gf_point lat_hi = {GF_FENCE_LAT_MAX_E7 + 1, 0}, lat_lo = {-GF_FENCE_LAT_MAX_E7 - 1, 0};
    const gf_point lon_hi = {0, GF_LON_MAX_E7 + 1}, lon_lo = {0, -GF_LON_MAX_E7 - 1};
    const gf_point edge = {GF_FENCE_LAT_MAX_E7, GF_LON_MAX_E7};

    CT_STATUS(gf_fence_add(NULL, home, 1000, &other), GF_ERR_NULL, "add, table NULL");
    CT_STATUS(gf_fence_add(table, home, 1000, NULL), GF_ERR_NULL, "add, out NULL");
    CT_STATUS(gf_fence_add(table, lat_hi, 1000, &other), GF_ERR_LATITUDE, "add beyond 85 N");
    CT_STATUS(gf_fence_add(table, lat_lo, 1000, &other), GF_ERR_LATITUDE, "add beyond 85 S");
    CT_STATUS(gf_fence_add(table, lon_hi, 1000, &other), GF_ERR_LONGITUDE, "add beyond 180 E");
    CT_STATUS(gf_fence_add(table, lon_lo, 1000, &other), GF_ERR_LONGITUDE, "add beyond 180 W");
    CT_STATUS(gf_fence_add(table, home, GF_RADIUS_MIN_MM - 1, &other), GF_ERR_RADIUS, "add, radius too small");
    CT_STATUS(gf_fence_add(table, home, GF_RADIUS_MAX_MM + 1, &other), GF_ERR_RADIUS, "add, radius too large");
    CT_STATUS(gf_fence_add(table, home, 0, &other), GF_ERR_RADIUS, "add, radius 0");
    unchanged(table, handle, "rejected adds");

    CT_STATUS(gf_fence_move(NULL, handle, home, 1000), GF_ERR_NULL, "move, table NULL");
    CT_STATUS(gf_fence_move(table, GF_HANDLE_NONE, home, 1000), GF_ERR_HANDLE, "move handle 0");
    CT_STATUS(gf_fence_move(table, handle + 1, home, 1000), GF_ERR_HANDLE, "move a handle never given");
    CT_STATUS(gf_fence_move(table, handle ^ 0x02000000u, home, 1000), GF_ERR_HANDLE, "move, wrong generation");
    CT_STATUS(gf_fence_move(table, handle, lat_hi, 1000), GF_ERR_LATITUDE, "move beyond 85 N");
    CT_STATUS(gf_fence_move(table, handle, lon_lo, 1000), GF_ERR_LONGITUDE, "move beyond 180 W");
    CT_STATUS(gf_fence_move(table, handle, home, GF_RADIUS_MAX_MM + 1), GF_ERR_RADIUS, "move, radius too large");
    unchanged(table, handle, "rejected moves");

    CT_STATUS(gf_fence_get(NULL, handle, NULL, NULL), GF_ERR_NULL, "get, table NULL");
    CT_STATUS(gf_fence_get(table, handle + 1, NULL, NULL), GF_ERR_HANDLE, "get a handle never given");
    CT_STATUS(gf_fence_get(table, handle, NULL, NULL), GF_OK, "get with no outputs");
    CT_STATUS(gf_fence_remove(NULL, handle), GF_ERR_NULL, "remove, table NULL");
    CT_STATUS(gf_fence_remove(table, GF_HANDLE_NONE), GF_ERR_HANDLE, "remove handle 0");
    CT_STATUS(gf_fence_remove(table, 0xFFFFFFFFu), GF_ERR_HANDLE, "remove handle 0xFFFFFFFF");
    unchanged(table, handle, "rejected removes");

    /* The limits themselves are allowed; a full table refuses one more. */
    CT_STATUS(gf_fence_add(table, edge, GF_RADIUS_MAX_MM, &other), GF_OK, "add at 85 N, 180 E, 50 km");
    CT_STATUS(gf_fence_add(table, home, 1000, &other), GF_ERR_CAPACITY, "add to a full table");
    CT_STATUS(gf_fence_remove(table, other), GF_OK, "remove");
    CT_STATUS(gf_fence_remove(table, other), GF_ERR_HANDLE, "remove twice");
    CT_STATUS(gf_fence_move(table, other, home, 1000), GF_ERR_HANDLE, "move a removed fence");
    CT_STATUS(gf_fence_get(table, other, NULL, NULL), GF_ERR_HANDLE, "get a removed fence");
    unchanged(table, handle, "the removal of another fence");
    gf_table_destroy(table);
}

static void queries(void) {
    gf_table *table = NULL;
    gf_handle a = 0, b = 0;
    gf_hit hits[2];
    size_t count = 99;
    if (!CT_STATUS(gf_table_create(4, &table), GF_OK, "create")) return;
    CT_STATUS(gf_fence_add(table, home, home_radius, &a), GF_OK, "add");
    CT_STATUS(gf_fence_add(table, home, 2 * home_radius, &b), GF_OK, "add");
    const gf_point north = {GF_LAT_MAX_E7 + 1, 0}, east = {0, GF_LON_MAX_E7 + 1};

    CT_STATUS(gf_query(NULL, home, 0, hits, 2, &count), GF_ERR_NULL, "query, table NULL");
    CT_CHECK(count == 0, "count not cleared on error");
    CT_STATUS(gf_query(table, home, 0, hits, 2, NULL), GF_ERR_NULL, "query, count NULL");
    count = 99;
    CT_STATUS(gf_query(table, home, 0, NULL, 2, &count), GF_ERR_NULL, "query, hits NULL with capacity 2");
    CT_CHECK(count == 0, "count not cleared on error");
    count = 99;
    CT_STATUS(gf_query(table, north, 0, hits, 2, &count), GF_ERR_LATITUDE, "query beyond 90 N");
    CT_CHECK(count == 0, "count not cleared on error");
    CT_STATUS(gf_query(table, east, 0, hits, 2, &count), GF_ERR_LONGITUDE, "query beyond 180 E");
    CT_STATUS(gf_query(table, home, GF_MARGIN_MAX_MM + 1, hits, 2, &count), GF_ERR_MARGIN, "margin above 50 km");
    CT_STATUS(gf_query(table, home, UINT32_MAX, hits, 2, &count), GF_ERR_MARGIN, "margin UINT32_MAX");
    CT_CHECK(count == 0, "count not cleared on error");

    CT_STATUS(gf_query(table, home, GF_MARGIN_MAX_MM, hits, 2, &count), GF_OK, "query at the largest margin");
    CT_CHECK(count == 2, "both fences contain their centre");
    ct_digest_hits(hits, count);
    CT_STATUS(gf_query(table, home, 0, NULL, 0, &count), GF_ERR_TRUNCATED, "count only");
    CT_CHECK(count == 2, "count only: %lu", (unsigned long)count);
    CT_STATUS(gf_query(table, home, 0, hits, 1, &count), GF_ERR_TRUNCATED, "one slot for two hits");
    CT_CHECK(count == 2 && (hits[0].handle == a || hits[0].handle == b), "truncated hit");
    CT_CHECK(hits[0].distance_mm == (hits[0].handle == a ? -(int32_t)home_radius : -2 * (int32_t)home_radius),
             "distance at the centre is -radius");

    int64_t d = 0;
    CT_STATUS(gf_distance(home, home, NULL), GF_ERR_NULL, "distance, out NULL");
    CT_STATUS(gf_distance(north, home, &d), GF_ERR_LATITUDE, "distance beyond 90 N");
    CT_STATUS(gf_distance(home, north, &d), GF_ERR_LATITUDE, "distance beyond 90 N (second point)");
    CT_STATUS(gf_distance(east, home, &d), GF_ERR_LONGITUDE, "distance beyond 180 E");
    CT_STATUS(gf_distance(home, east, &d), GF_ERR_LONGITUDE, "distance beyond 180 E (second point)");
    gf_table_destroy(table);
}

static void degrees(void) {
    gf_point p = {12345, 67890};
    CT_STATUS(gf_point_from_degrees(0.0, 0.0, NULL), GF_ERR_NULL, "from degrees, out NULL");
    CT_STATUS(gf_point_from_degrees(90.0000001, 0.0, &p), GF_ERR_LATITUDE, "from degrees beyond 90 N");
    CT_STATUS(gf_point_from_degrees(-90.0000001, 0.0, &p), GF_ERR_LATITUDE, "from degrees beyond 90 S");
    CT_STATUS(gf_point_from_degrees(NAN, 0.0, &p), GF_ERR_LATITUDE, "from degrees, latitude NaN");
    CT_STATUS(gf_point_from_degrees(INFINITY, 0.0, &p), GF_ERR_LATITUDE, "from degrees, latitude infinite");
    CT_STATUS(gf_point_from_degrees(0.0, 180.0000001, &p), GF_ERR_LONGITUDE, "from degrees beyond 180 E");
    CT_STATUS(gf_point_from_degrees(0.0, NAN, &p), GF_ERR_LONGITUDE, "from degrees, longitude NaN");
    CT_STATUS(gf_point_from_degrees(0.0, -INFINITY, &p), GF_ERR_LONGITUDE, "from degrees, longitude -infinite");
    CT_CHECK(p.lat == 12345 && p.lon == 67890, "a failed conversion wrote its output");
}

void test_errors(void) {
    names_and_messages();
    creating();
    fences();
    queries();
    degrees();
}
