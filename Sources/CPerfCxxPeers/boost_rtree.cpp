// boost_rtree.cpp: boost.geometry's rtree as a geofence index, the way its documentation uses it: a value per fence
// (its box and its index), a point-in-box query per fix, and the exact test on every box found.

#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/version.hpp>

#include <utility>
#include <variant>
#include <vector>

#include "fence_records.hpp"

namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

using perf_peers::ExactTest;
using perf_peers::FenceRecord;

// Boxes and fixes in the core's own integers (1e-7 degree, x = longitude, y = latitude): no conversion to degrees, and
// a box never narrower than pp_bounding_reach made it.
using Point = bg::model::point<int32_t, 2, bg::cs::cartesian>;
using Box = bg::model::box<Point>;
using Value = std::pair<Box, uint32_t>;

// 16 entries a node: boost's examples' choice, and a node of 16 values (320 bytes) spans a few cache lines.
using RStarTree = bgi::rtree<Value, bgi::rstar<16>>;
using QuadraticTree = bgi::rtree<Value, bgi::quadratic<16>>;

// The output "iterator" the query writes each value found to: it runs the exact test instead of storing the value,
// so a query allocates nothing. Holds a pointer, so it is copyable as boost requires of an output iterator.
class ExactTestOutput {
public:
    using iterator_category = std::output_iterator_tag;
    using value_type = void;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = void;

    explicit ExactTestOutput(ExactTest *test) : test_(test) {}
    ExactTestOutput &operator*() { return *this; }
    ExactTestOutput &operator++() { return *this; }
    ExactTestOutput operator++(int) { return *this; }
    ExactTestOutput &operator=(const Value &value) {
        // A refused fix fails every test alike; the query cannot be stopped from here, so the rest are skipped.
        if (!test_->failed()) test_->visit(value.second);
        return *this;
    }

private:
    ExactTest *test_;
};

}  // namespace

struct pp_rtree {
    std::vector<FenceRecord> fences;
    uint32_t margin_mm;
    std::variant<RStarTree, QuadraticTree> tree;

    // Runs the exact test on every fence whose box holds `fix` (edges included). The fix is a degenerate box: boost
    // 1.74's point-box predicates need more of boost.geometry than the rtree's header brings, its box-box test does not.
    void visit(gf_point fix, ExactTest &test) const {
        Point point(fix.lon, fix.lat);
        Box fix_box(point, point);
        std::visit([&](const auto &rtree) { rtree.query(bgi::intersects(fix_box), ExactTestOutput(&test)); }, tree);
    }
};

namespace {

// The fence's box, or the reason it has none.
pp_status fence_box(gf_point centre, uint32_t radius_mm, uint32_t margin_mm, Box *box) {
    if (!perf_peers::fence_in_range(centre, radius_mm)) return PP_ERR_FENCE;
    int32_t lat_reach, lon_reach;
    pp_bounding_reach(centre, static_cast<uint64_t>(radius_mm) + margin_mm, &lat_reach, &lon_reach);
    int64_t west = static_cast<int64_t>(centre.lon) - lon_reach, east = static_cast<int64_t>(centre.lon) + lon_reach;
    if (west < -GF_LON_MAX_E7 || east > GF_LON_MAX_E7) return PP_ERR_ANTIMERIDIAN;
    // |lat| <= 85 degrees plus a reach of at most 50 km and the margin stays far inside int32.
    *box = Box(Point(static_cast<int32_t>(west), centre.lat - lat_reach),
               Point(static_cast<int32_t>(east), centre.lat + lat_reach));
    return PP_OK;
}

pp_status build(pp_rtree_kind kind, const gf_point *centres, const uint32_t *radii_mm, size_t count,
                uint32_t margin_mm, pp_rtree **out) {
    if (count > UINT32_MAX) return PP_ERR_FENCE;
    std::vector<FenceRecord> fences(count);
    std::vector<Value> values(count);  // the bulk load's input; freed when the build returns
    for (size_t i = 0; i < count; i++) {
        fences[i] = FenceRecord{centres[i], radii_mm[i]};
        pp_status status = fence_box(centres[i], radii_mm[i], margin_mm, &values[i].first);
        if (status != PP_OK) return status;
        values[i].second = static_cast<uint32_t>(i);
    }
    pp_rtree *tree;
    switch (kind) {
    case PP_RTREE_RSTAR_BULK:
        // The range constructor packs the tree from all values at once (boost's bulk loading).
        tree = new pp_rtree{std::move(fences), margin_mm, RStarTree(values.begin(), values.end())};
        break;
    case PP_RTREE_QUADRATIC_INSERTED: {
        QuadraticTree inserted;
        for (const Value &value : values) inserted.insert(value);
        tree = new pp_rtree{std::move(fences), margin_mm, std::move(inserted)};
        break;
    }
    default:
        return PP_ERR_LIBRARY;
    }
    *out = tree;
    return PP_OK;
}

}  // namespace

extern "C" pp_status pp_rtree_create(pp_rtree_kind kind, const gf_point *centres, const uint32_t *radii_mm,
                                     size_t count, uint32_t margin_mm, pp_rtree **out) {
    return perf_peers::without_exceptions([&] { return build(kind, centres, radii_mm, count, margin_mm, out); });
}

extern "C" void pp_rtree_destroy(pp_rtree *tree) {
    delete tree;
}

extern "C" pp_status pp_rtree_count_hits(const pp_rtree *tree, const gf_point *fixes, size_t count, size_t *hits) {
    for (size_t i = 0; i < count; i++) {
        ExactTest test(tree->fences, tree->margin_mm, fixes[i], nullptr, 0);
        tree->visit(fixes[i], test);
        if (test.failed()) return PP_ERR_FIX;
        *hits += test.count();
    }
    return PP_OK;
}

extern "C" pp_status pp_rtree_query(const pp_rtree *tree, gf_point fix, uint32_t *indices, size_t capacity,
                                    size_t *count) {
    ExactTest test(tree->fences, tree->margin_mm, fix, indices, capacity);
    tree->visit(fix, test);
    *count = test.count();
    return test.query_status();
}

extern "C" const char *pp_boost_version(void) {
    return BOOST_LIB_VERSION;
}
