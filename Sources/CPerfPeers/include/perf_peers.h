// perf_peers.h: the peers `swift run perf` measures the core against, in C. PERF ONLY: a dependency of the perf
// executable and of nothing else (it links GEOS, which no library product of this package may reach).
//
//   c-scan        every fence, every fix: an integer bounding-box reject, then the core's own exact test. The
//                 no-index floor: what any index must beat.
//   geos-strtree  GEOS's STRtree (Sort-Tile-Recursive R-tree) through the reentrant C API, one item per fence with
//                 the fence's bounding box in degrees as its envelope; each fix queries with a point geometry and the
//                 callback runs the core's own exact test. What a GIS engineer would reach for.
//
// The exact test of both is the core's: a fence is a hit when gf_distance(fix, centre) - radius_mm <= margin_mm,
// which is exactly gf_query's rule (geofence.h: "every fence whose signed distance (as computed) is <= margin_mm";
// gf_distance is "computed exactly as gf_query computes it"). So the peers and the core may only disagree if a
// bounding box wrongly rejects a fence, which the agreement check in perf would report as a failure.
//
// Bounding boxes, in both peers: a fix at geodesic distance s from a centre at latitude phi is within
// s / M_min of its latitude and s / (N_min cos(phi_far)) of its longitude, where M_min = 110574 m and N_min =
// 111319 m per degree are the WGS-84 meridian and prime-vertical arc per degree at the equator (their smallest
// values) and phi_far is the box's latitude farthest from the equator. The boxes use 110000 and 111000 m per degree
// (0.3-0.5 % wider) and add 0.1 m to s for gf_distance's error (<= 20 mm to 100 km) and the rounding to 1e-7 degree;
// a box reaching within 0.01 degree of a pole spans every longitude.

#ifndef PERF_PEERS_H
#define PERF_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "geofence.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What went wrong in a peer. The message of each is pp_status_message's.
typedef enum pp_status {
    PP_OK = 0,
    PP_ERR_NOMEM = 1,         // an allocation failed (ours or GEOS's)
    PP_ERR_FENCE = 2,         // a fence is out of the core's range (centre beyond +-85 degrees, radius 1 m .. 50 km)
    PP_ERR_ANTIMERIDIAN = 3,  // geos-strtree, boost-rstar, boost-quadratic: a fence's box crosses +-180 degrees
                              // (perf's areas never do; the peer would need two boxes per such fence, which it does
                              // not implement)
    PP_ERR_GEOS = 4,          // GEOS returned an error (GEOS_init_r, a geometry constructor or a query failed)
    PP_ERR_FIX = 5,           // a fix is out of range (gf_distance refused it)
    PP_ERR_TRUNCATED = 6,     // a hit buffer was too short for one fix's hits
    PP_ERR_LIBRARY = 7        // boost or S2 threw an exception other than std::bad_alloc (perf_cxx_peers.h)
} pp_status;

/// A static English sentence for a status. Never NULL.
const char *pp_status_message(pp_status status);

/// Half-sides of a fence's bounding box in 1e-7 degree for a reach of reach_mm (radius plus margin), computed as in
/// the comment at the top. lon_reach_e7 is GF_LON_MAX_E7 when the box reaches within 0.01 degree of a pole.
void pp_bounding_reach(gf_point centre, uint64_t reach_mm, int32_t *lat_reach_e7, int32_t *lon_reach_e7);

// ---- c-scan ---------------------------------------------------------------------------------------------------

/// Every fence in structure-of-arrays form (so the reject loop vectorises): 5 x 4 = 20 bytes per fence.
typedef struct pp_scan pp_scan;

/// Copies count fences (centres[i], radii_mm[i]) and computes their boxes for margin_mm. *out is set on PP_OK only.
pp_status pp_scan_create(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                         pp_scan **out);

/// Frees a scan; NULL does nothing.
void pp_scan_destroy(pp_scan *scan);

/// Queries every fix of fixes[0 ..< count] and adds the hits of all of them to *hits. This is the timed loop.
/// Returns PP_ERR_FIX (and stops) when gf_distance refuses a fix.
pp_status pp_scan_count_hits(const pp_scan *scan, const gf_point *fixes, size_t count, size_t *hits);

/// The hits of one fix as fence indices (ascending) in indices[0 ..< *count]. PP_ERR_TRUNCATED when more than
/// capacity fences hit (*count then says how many did).
pp_status pp_scan_query(const pp_scan *scan, gf_point fix, uint32_t *indices, size_t capacity, size_t *count);

// ---- geos-strtree ---------------------------------------------------------------------------------------------

/// A GEOS context, its STRtree over the fences' boxes, the fences (12 bytes each) the items point at, and the
/// point geometries of the fixes loaded by pp_strtree_load_fixes.
typedef struct pp_strtree pp_strtree;

/// Copies the fences, inserts one box per fence (a GEOS rectangle, destroyed after the insert: since GEOS 3.9 the
/// tree copies the envelope) into an STRtree of node capacity 10 (GEOS's suggested default), and runs one query so
/// that the tree is packed now rather than on the first timed fix. *out is set on PP_OK only.
pp_status pp_strtree_create(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                            pp_strtree **out);

/// GEOS's version string ("3.11.1-CAPI-1.17.1"), for the report. Never NULL.
const char *pp_geos_version(void);

/// Frees the tree, its fix geometries and its context; NULL does nothing.
void pp_strtree_destroy(pp_strtree *tree);

/// Makes one GEOS point (x = longitude, y = latitude, degrees) per fix, replacing those loaded before. Done before
/// timing: making the query geometry is left out of geos-strtree's time (a favour to GEOS; it costs about one
/// allocation pair per fix).
pp_status pp_strtree_load_fixes(pp_strtree *tree, const gf_point *fixes, size_t count);

/// Queries the loaded fixes first ..< first + count and adds their hits to *hits. This is the timed loop.
pp_status pp_strtree_count_hits(const pp_strtree *tree, size_t first, size_t count, size_t *hits);

/// The hits of loaded fix `index` as fence indices (in the tree's order, not sorted); as pp_scan_query otherwise.
pp_status pp_strtree_query(const pp_strtree *tree, size_t index, uint32_t *indices, size_t capacity, size_t *count);

#ifdef __cplusplus
}
#endif

#endif  // PERF_PEERS_H
