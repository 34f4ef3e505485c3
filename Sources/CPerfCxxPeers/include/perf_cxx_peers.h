// perf_cxx_peers.h: the peers of `swift run perf` written in C++, behind a small C API that Swift imports as it
// imports perf_peers.h. PERF ONLY: a dependency of the perf executable and of nothing else (it links libstdc++ and
// S2 with its Abseil, which no library product of this package may reach).
//
//   boost-rstar       boost.geometry's rtree, R*-tree parameters (16 entries a node), bulk-loaded from every fence
//                     at once (boost packs the tree top-down); one int32 box per fence in 1e-7 degree.
//   boost-quadratic   boost.geometry's rtree with quadratic splits (16 entries a node), built by inserting the fences
//                     one by one, as a table grows when regions are added one at a time (as the core's is).
//   s2-cell-index     S2's S2CellIndex over a covering of each fence's cap by at most 8 S2 cells (S2RegionCoverer);
//                     a fix is the leaf cell of its point, and the index lists the fences whose covering contains it.
//
// All three run the core's own exact test on every candidate their prefilter gives (gf_distance(fix, centre) -
// radius_mm <= margin_mm, exactly gf_query's rule; see perf_peers.h), so they and the core may only disagree when a
// prefilter wrongly drops a fence, which perf's agreement check reports as a failure.
//
// The boost boxes are the geos-strtree boxes (pp_bounding_reach); a box across +-180 degrees is refused
// (PP_ERR_ANTIMERIDIAN). S2 needs no such rule: its caps live on the sphere, and cross the antimeridian and the
// poles as they are. The cap's angle bounds the geodesic: on the WGS-84 ellipsoid, with geodetic latitude phi and
// longitude lambda read as spherical coordinates (as S2LatLng::ToPoint reads them), ds^2 = M^2 dphi^2 + N^2 cos^2
// phi dlambda^2 >= M_min^2 (dphi^2 + cos^2 phi dlambda^2), since the meridian radius M >= M_min = a (1 - e^2) =
// 6335439 m and the prime-vertical radius N >= a > M_min. So a fix at geodesic distance s from the centre is within
// the angle s / M_min of it on S2's unit sphere; the cap uses 6335000 m and adds the boxes' 0.1 m of slack.
//
// Memory: every C++ allocation here goes through operator new, which libstdc++ serves with malloc, so perf's heap
// readings and allocation counter (CPerfSupport) see it as they see C's; pp_cxx_new_block lets perf's self test
// prove that at run time.

#ifndef PERF_CXX_PEERS_H
#define PERF_CXX_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "geofence.h"
#include "perf_peers.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- boost.geometry rtree -------------------------------------------------------------------------------------

/// How a boost rtree is built.
typedef enum pp_rtree_kind {
    PP_RTREE_RSTAR_BULK = 0,         // rstar<16>, bulk-loaded from all fences at once
    PP_RTREE_QUADRATIC_INSERTED = 1  // quadratic<16>, one insert per fence in order
} pp_rtree_kind;

/// A boost rtree of int32 boxes (a 16-byte box and a uint32 fence index per value) and the fences (12 bytes each)
/// the exact test reads.
typedef struct pp_rtree pp_rtree;

/// Copies count fences (centres[i], radii_mm[i]), makes their boxes for margin_mm and builds the tree of `kind`.
/// *out is set on PP_OK only. PP_ERR_FENCE for a fence out of the core's range, PP_ERR_ANTIMERIDIAN for a box across
/// +-180 degrees, PP_ERR_NOMEM when an allocation fails.
pp_status pp_rtree_create(pp_rtree_kind kind, const gf_point *centres, const uint32_t *radii_mm, size_t count,
                          uint32_t margin_mm, pp_rtree **out);

/// Frees a tree; NULL does nothing.
void pp_rtree_destroy(pp_rtree *tree);

/// Queries every fix of fixes[0 ..< count] (a point-in-box search, then the exact test on each box that holds the
/// fix) and adds the hits of all of them to *hits. This is the timed loop; it allocates nothing. PP_ERR_FIX (and
/// stops) when gf_distance refuses a fix.
pp_status pp_rtree_count_hits(const pp_rtree *tree, const gf_point *fixes, size_t count, size_t *hits);

/// The hits of one fix as fence indices (in the tree's order, not sorted) in indices[0 ..< *count]. PP_ERR_TRUNCATED
/// when more than capacity fences hit (*count then says how many did).
pp_status pp_rtree_query(const pp_rtree *tree, gf_point fix, uint32_t *indices, size_t capacity, size_t *count);

/// The boost release the rtree comes from ("1_74"). Never NULL.
const char *pp_boost_version(void);

// ---- S2CellIndex ----------------------------------------------------------------------------------------------

/// An S2CellIndex of the fences' cap coverings (labels are fence indices) and the fences (12 bytes each).
typedef struct pp_s2_index pp_s2_index;

/// The most cells a fence's covering may have (S2RegionCoverer's max_cells).
enum { PP_S2_MAX_CELLS_PER_FENCE = 8 };

/// Copies count fences, covers each one's cap (radius plus margin_mm, see the top) with at most
/// PP_S2_MAX_CELLS_PER_FENCE cells and builds the index. *out is set on PP_OK only. PP_ERR_FENCE for a fence out of
/// the core's range (or more than INT32_MAX fences: S2's labels are int32), PP_ERR_NOMEM when an allocation fails.
pp_status pp_s2_create(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                       pp_s2_index **out);

/// Frees an index; NULL does nothing.
void pp_s2_destroy(pp_s2_index *index);

/// Cells in the index over all fences (each fence's covering counted whole), for the report.
size_t pp_s2_cell_count(const pp_s2_index *index);

/// As pp_rtree_count_hits, for the S2 index (a fix's leaf cell sought in the index, the exact test on each fence
/// whose covering contains it). Allocates nothing. PP_ERR_FIX for a fix outside +-90 / +-180 degrees too.
pp_status pp_s2_count_hits(const pp_s2_index *index, const gf_point *fixes, size_t count, size_t *hits);

/// As pp_rtree_query, for the S2 index.
pp_status pp_s2_query(const pp_s2_index *index, gf_point fix, uint32_t *indices, size_t capacity, size_t *count);

// ---- the measurement's self test ------------------------------------------------------------------------------

/// A block of `bytes` from C++'s operator new (NULL if it threw), and its release by operator delete. Only for perf's
/// self test: the heap readings and the allocation counter must see C++ allocations as they see malloc's.
void *pp_cxx_new_block(size_t bytes);
void pp_cxx_delete_block(void *block);

#ifdef __cplusplus
}
#endif

#endif  // PERF_CXX_PEERS_H
