// bounding_box.c: the fence boxes both peers reject with (derivation in include/perf_peers.h) and the status texts.

#include "perf_peers.h"

#include <math.h>

// Metres per degree used for the boxes: below WGS-84's smallest meridian (110574 m) and prime-vertical (111319 m)
// arc per degree, so a box is never too narrow.
static const double metres_per_degree_latitude = 110000.0;
static const double metres_per_degree_longitude = 111000.0;
// Added to every reach: gf_distance's error (<= 20 mm to 100 km) plus rounding, with room to spare.
static const double reach_slack_metres = 0.1;

void pp_bounding_reach(gf_point centre, uint64_t reach_mm, int32_t *lat_reach_e7, int32_t *lon_reach_e7) {
    double reach_metres = (double)reach_mm / 1000.0 + reach_slack_metres;
    double lat_reach_degrees = reach_metres / metres_per_degree_latitude;
    double far_latitude = fabs((double)centre.lat / GF_E7_PER_DEGREE) + lat_reach_degrees;
    *lat_reach_e7 = (int32_t)ceil(lat_reach_degrees * GF_E7_PER_DEGREE) + 1;
    if (far_latitude >= 89.99) {
        *lon_reach_e7 = GF_LON_MAX_E7;
        return;
    }
    double lon_reach_degrees = reach_metres / (metres_per_degree_longitude * cos(far_latitude * M_PI / 180.0));
    double lon_reach = ceil(lon_reach_degrees * GF_E7_PER_DEGREE) + 1;
    *lon_reach_e7 = lon_reach >= GF_LON_MAX_E7 ? GF_LON_MAX_E7 : (int32_t)lon_reach;
}

const char *pp_status_message(pp_status status) {
    switch (status) {
    case PP_OK: return "success";
    case PP_ERR_NOMEM: return "out of memory";
    case PP_ERR_FENCE: return "a fence is out of the core's range (|lat| <= 85 degrees, radius 1 m .. 50 km)";
    case PP_ERR_ANTIMERIDIAN:
        return "a fence's bounding box crosses +-180 degrees (geos-strtree and the boost rtrees do not split boxes)";
    case PP_ERR_GEOS: return "GEOS reported an error";
    case PP_ERR_FIX: return "a fix is out of range for gf_distance";
    case PP_ERR_TRUNCATED: return "the hit buffer was too short for one fix";
    case PP_ERR_LIBRARY: return "boost or S2 threw an exception";
    }
    return "unknown status";
}
