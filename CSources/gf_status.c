/* gf_status.c -- names and descriptions of the status codes (geofence.h). */
#include "gf_internal.h"

const char *gf_status_name(gf_status status) {
    switch (status) {
    case GF_OK: return "GF_OK";
    case GF_ERR_NULL: return "GF_ERR_NULL";
    case GF_ERR_LATITUDE: return "GF_ERR_LATITUDE";
    case GF_ERR_LONGITUDE: return "GF_ERR_LONGITUDE";
    case GF_ERR_RADIUS: return "GF_ERR_RADIUS";
    case GF_ERR_MARGIN: return "GF_ERR_MARGIN";
    case GF_ERR_CAPACITY: return "GF_ERR_CAPACITY";
    case GF_ERR_HANDLE: return "GF_ERR_HANDLE";
    case GF_ERR_NOMEM: return "GF_ERR_NOMEM";
    case GF_ERR_TRUNCATED: return "GF_ERR_TRUNCATED";
    case GF_ERR_CORRUPT: return "GF_ERR_CORRUPT";
    case GF_ERR_SHAPE: return "GF_ERR_SHAPE";
    case GF_ERR_KIND: return "GF_ERR_KIND";
    }
    return "GF_UNKNOWN";
}

const char *gf_status_message(gf_status status) {
    switch (status) {
    case GF_OK: return "success";
    case GF_ERR_NULL: return "a required pointer argument is NULL";
    case GF_ERR_LATITUDE: return "latitude is not a number, beyond +-90 degrees, or a fence centre beyond +-85 degrees";
    case GF_ERR_LONGITUDE: return "longitude is not a number or beyond +-180 degrees";
    case GF_ERR_RADIUS: return "radius is outside 1 m .. 50 km";
    case GF_ERR_MARGIN: return "margin is above 50 km";
    case GF_ERR_CAPACITY: return "the table is full, or the capacity is 0 or above 16777215";
    case GF_ERR_HANDLE: return "the handle names no live fence of this table";
    case GF_ERR_NOMEM: return "out of memory; nothing was changed";
    case GF_ERR_TRUNCATED: return "the hit buffer was too short; the count tells how many hits exist";
    case GF_ERR_CORRUPT: return "a table invariant is broken (a bug in the geofence core)";
    case GF_ERR_SHAPE:
        return "not a polygon or corridor the core takes: too few vertices, rings out of order, too many vertices, "
               "across +-180 degrees, or too many edges crowded in one place";
    case GF_ERR_KIND: return "the handle names a polygon or corridor; the function takes circles only";
    }
    return "unknown status code";
}
