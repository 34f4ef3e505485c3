// perf_geos_prepared.h: the geos-prepared peer of perf's polygon rows. PERF ONLY (it links GEOS).
//
//   geos-prepared  GEOS prepared polygons through the reentrant C API: one GEOSPrepare_r per polygon, an STRtree over
//                  the polygons' envelopes, and per fix a point geometry, a tree query, and GEOSPreparedContains_r on
//                  each candidate. What a GIS engineer would write for "which zone is this fix in".
//
// Coordinates are degrees as doubles (x = longitude, y = latitude), converted from the same 1e-7 degree integers the
// core gets (e7 / 1e7, correctly rounded), and edges are straight lines in (longitude, latitude) as in the core. So
// both decide the same planar point-in-polygon question; they may differ only for a fix within rounding of an edge
// (GEOS works in doubles of degrees; a point exactly on an edge is outside for GEOS's "contains", decided by a
// tie-break rule in the core).
//
// GEOS 3.11 has no GEOSPreparedContainsXY_r (3.12 added it), so each fix needs a point geometry: it is created and
// destroyed inside the timed loop, as a user of this API must (one allocation pair per fix, counted in GEOS's time).

#ifndef PERF_GEOS_PREPARED_H
#define PERF_GEOS_PREPARED_H

#include <stddef.h>
#include <stdint.h>

#include "geofence.h"
#include "perf_peers.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The GEOS context, one polygon geometry and its prepared form per polygon, and the STRtree over their envelopes.
typedef struct pp_prepared pp_prepared;

/// Builds the peer over polygon_count polygons.
///   vertices:      every vertex of every ring of every polygon, in order, the closing vertex NOT repeated.
///   ring_ends:     ring r is vertices[ring_ends[r - 1] ..< ring_ends[r]] (ring_ends[-1] = 0); at least 3 each.
///   polygon_ends:  polygon p is rings polygon_ends[p - 1] ..< polygon_ends[p] (polygon_ends[-1] = 0); the first ring
///                  of a polygon is its shell, the others its holes.
/// Each ring is closed for GEOS by repeating its first vertex. Every polygon is prepared and queried once here, so
/// that the lazily built point locator of each prepared polygon counts as building, not as the first timed fix; the
/// tree is packed by one query here too. *out is set on PP_OK only; PP_ERR_FENCE for a ring of fewer than 3 vertices
/// or ends that do not increase, PP_ERR_GEOS when GEOS refuses a geometry.
pp_status pp_prepared_create(const gf_point *vertices, const uint32_t *ring_ends, const uint32_t *polygon_ends,
                             size_t polygon_count, pp_prepared **out);

/// Frees everything; NULL does nothing.
void pp_prepared_destroy(pp_prepared *prepared);

/// For each fix of fixes[first ..< first + count]: creates its point geometry, queries the tree, runs
/// GEOSPreparedContains_r on every candidate, destroys the point; adds the polygons found to *hits. This is the timed
/// loop. PP_ERR_GEOS if GEOS fails (a geometry constructor, or a predicate raising an exception).
pp_status pp_prepared_count_hits(const pp_prepared *prepared, const gf_point *fixes, size_t first, size_t count,
                                 size_t *hits);

/// The polygons containing one fix, as polygon indices in indices[0 ..< *count] (tree order, not sorted).
/// PP_ERR_TRUNCATED when more than capacity do (*count then says how many).
pp_status pp_prepared_query(const pp_prepared *prepared, gf_point fix, uint32_t *indices, size_t capacity,
                            size_t *count);

#ifdef __cplusplus
}
#endif

#endif  // PERF_GEOS_PREPARED_H
