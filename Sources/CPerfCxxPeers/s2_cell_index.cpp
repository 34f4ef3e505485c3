// s2_cell_index.cpp: S2's S2CellIndex as a geofence index, the way S2 pairs it with S2RegionCoverer: each fence's
// cap covered by a few cells labelled with the fence's index, a fix looked up as the leaf cell of its point, and the
// exact test on every fence whose covering contains that leaf.

#include <climits>
#include <vector>

#include "s2/s1angle.h"
#include "s2/s2cap.h"
#include "s2/s2cell_id.h"
#include "s2/s2cell_index.h"
#include "s2/s2latlng.h"
#include "s2/s2region_coverer.h"

#include "fence_records.hpp"

namespace {

using perf_peers::ExactTest;
using perf_peers::FenceRecord;

// The radius that bounds a geodesic distance by an angle on S2's sphere: below WGS-84's smallest meridian radius of
// curvature, a (1 - e^2) = 6335439 m (derivation in perf_cxx_peers.h).
constexpr double metres_per_radian = 6335000.0;
// Added to every reach, as for the boxes (bounding_box.c): gf_distance's error plus rounding, with room to spare.
constexpr double reach_slack_metres = 0.1;

bool fix_in_range(gf_point fix) {
    return fix.lat >= -GF_LAT_MAX_E7 && fix.lat <= GF_LAT_MAX_E7 && fix.lon >= -GF_LON_MAX_E7
        && fix.lon <= GF_LON_MAX_E7;
}

S2Point unit_point(gf_point point) {
    return S2LatLng::FromE7(point.lat, point.lon).ToPoint();
}

S2CellId leaf_cell(gf_point point) {
    return S2CellId(unit_point(point));
}

}  // namespace

struct pp_s2_index {
    std::vector<FenceRecord> fences;
    uint32_t margin_mm;
    S2CellIndex index;
    size_t cell_count;

    // Runs the exact test on every fence whose covering holds the leaf cell of `fix`. A fence's covering is
    // normalised (no cell of it contains another), so a leaf lies in at most one of its cells: each fence is visited
    // once. The iterators live on the stack: no allocation.
    void visit(gf_point fix, ExactTest &test) const {
        S2CellIndex::RangeIterator range(&index);
        range.Seek(leaf_cell(fix));
        S2CellIndex::ContentsIterator contents(&index);
        for (contents.StartUnion(range); !contents.done(); contents.Next()) {
            if (!test.visit(static_cast<uint32_t>(contents.label()))) return;
        }
    }
};

namespace {

pp_status build(const gf_point *centres, const uint32_t *radii_mm, size_t count, uint32_t margin_mm,
                pp_s2_index **out) {
    if (count > INT32_MAX) return PP_ERR_FENCE;  // labels are int32
    auto *built = new pp_s2_index{std::vector<FenceRecord>(count), margin_mm, S2CellIndex(), 0};
    S2RegionCoverer::Options options;
    options.set_max_cells(PP_S2_MAX_CELLS_PER_FENCE);
    S2RegionCoverer coverer(options);
    std::vector<S2CellId> covering;  // reused for every fence; freed when the build returns
    for (size_t i = 0; i < count; i++) {
        if (!perf_peers::fence_in_range(centres[i], radii_mm[i])) {
            delete built;
            return PP_ERR_FENCE;
        }
        built->fences[i] = FenceRecord{centres[i], radii_mm[i]};
        double reach_metres = (static_cast<double>(radii_mm[i]) + margin_mm) / 1000.0 + reach_slack_metres;
        S2Cap cap(unit_point(centres[i]), S1Angle::Radians(reach_metres / metres_per_radian));
        coverer.GetCovering(cap, &covering);
        for (S2CellId cell : covering) built->index.Add(cell, static_cast<S2CellIndex::Label>(i));
        built->cell_count += covering.size();
    }
    built->index.Build();
    *out = built;
    return PP_OK;
}

}  // namespace

extern "C" pp_status pp_s2_create(const gf_point *centres, const uint32_t *radii_mm, size_t count,
                                  uint32_t margin_mm, pp_s2_index **out) {
    return perf_peers::without_exceptions([&] { return build(centres, radii_mm, count, margin_mm, out); });
}

extern "C" void pp_s2_destroy(pp_s2_index *index) {
    delete index;
}

extern "C" size_t pp_s2_cell_count(const pp_s2_index *index) {
    return index->cell_count;
}

extern "C" pp_status pp_s2_count_hits(const pp_s2_index *index, const gf_point *fixes, size_t count, size_t *hits) {
    for (size_t i = 0; i < count; i++) {
        if (!fix_in_range(fixes[i])) return PP_ERR_FIX;
        ExactTest test(index->fences, index->margin_mm, fixes[i], nullptr, 0);
        index->visit(fixes[i], test);
        if (test.failed()) return PP_ERR_FIX;
        *hits += test.count();
    }
    return PP_OK;
}

extern "C" pp_status pp_s2_query(const pp_s2_index *index, gf_point fix, uint32_t *indices, size_t capacity,
                                 size_t *count) {
    *count = 0;
    if (!fix_in_range(fix)) return PP_ERR_FIX;
    ExactTest test(index->fences, index->margin_mm, fix, indices, capacity);
    index->visit(fix, test);
    *count = test.count();
    return test.query_status();
}
