/*
 * gf_convert.c -- degrees <-> 1e-7 degree. The only translation unit of the core that uses floating point; it is not
 * on the query path (CI compiles every other unit with -mgeneral-regs-only to prove it).
 */
#include "gf_internal.h"

#include <math.h>

gf_status gf_point_from_degrees(double lat_deg, double lon_deg, gf_point *out) {
    if (out == NULL) return GF_ERR_NULL;
    /* The comparisons are false for NaN, so NaN fails them too. */
    if (!(lat_deg >= -90.0 && lat_deg <= 90.0)) return GF_ERR_LATITUDE;
    if (!(lon_deg >= -180.0 && lon_deg <= 180.0)) return GF_ERR_LONGITUDE;
    /* round() is to nearest, ties away from zero; the products are below 2^31 and exact to 1e-7 e7. */
    long lat = lround(lat_deg * GF_E7_PER_DEGREE);
    long lon = lround(lon_deg * GF_E7_PER_DEGREE);
    if (lon == GF_LON_MAX_E7) lon = -GF_LON_MAX_E7;  /* +180 and -180 are one meridian */
    out->lat = (int32_t)lat;
    out->lon = (int32_t)lon;
    return GF_OK;
}

void gf_point_to_degrees(gf_point point, double *lat_deg, double *lon_deg) {
    if (lat_deg != NULL) *lat_deg = point.lat / (double)GF_E7_PER_DEGREE;
    if (lon_deg != NULL) *lon_deg = point.lon / (double)GF_E7_PER_DEGREE;
}
