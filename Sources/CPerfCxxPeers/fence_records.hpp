// fence_records.hpp: what the C++ peers share: the fences as the exact test reads them, the check that a fence is in
// the core's range, the exact test itself (the core's rule, see perf_peers.h) and the C boundary's catch-all.

#ifndef PERF_CXX_FENCE_RECORDS_HPP
#define PERF_CXX_FENCE_RECORDS_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "perf_cxx_peers.h"

namespace perf_peers {

// What an index entry's fence index leads to: 12 bytes.
struct FenceRecord {
    gf_point centre;
    uint32_t radius_mm;
};

// The core's range for a fence (geofence.h): |lat| <= 85 degrees, a longitude in range, radius 1 m .. 50 km.
inline bool fence_in_range(gf_point centre, uint32_t radius_mm) {
    return centre.lat >= -GF_FENCE_LAT_MAX_E7 && centre.lat <= GF_FENCE_LAT_MAX_E7 && centre.lon >= -GF_LON_MAX_E7
        && centre.lon <= GF_LON_MAX_E7 && radius_mm >= GF_RADIUS_MIN_MM && radius_mm <= GF_RADIUS_MAX_MM;
}

// The exact test of one fix against the candidates a prefilter gives: counts the hits and, when asked, writes their
// fence indices. Allocates nothing.
class ExactTest {
public:
    ExactTest(const std::vector<FenceRecord> &fences, uint32_t margin_mm, gf_point fix, uint32_t *indices,
              size_t capacity)
        : fences_(fences), margin_mm_(margin_mm), fix_(fix), indices_(indices), capacity_(capacity) {}

    // Tests the fence at `index`. Returns false (and remembers it) when gf_distance refuses the fix.
    bool visit(uint32_t index) {
        const FenceRecord &fence = fences_[index];
        int64_t distance_mm;
        if (gf_distance(fix_, fence.centre, &distance_mm) != GF_OK) {
            failed_ = true;
            return false;
        }
        if (distance_mm - static_cast<int64_t>(fence.radius_mm) <= static_cast<int64_t>(margin_mm_)) {
            if (indices_ != nullptr && count_ < capacity_) indices_[count_] = index;
            count_ += 1;
        }
        return true;
    }

    size_t count() const { return count_; }
    bool failed() const { return failed_; }

    // The status of a one-fix query with an index buffer: PP_ERR_FIX, PP_ERR_TRUNCATED or PP_OK.
    pp_status query_status() const {
        if (failed_) return PP_ERR_FIX;
        return count_ > capacity_ ? PP_ERR_TRUNCATED : PP_OK;
    }

private:
    const std::vector<FenceRecord> &fences_;
    uint32_t margin_mm_;
    gf_point fix_;
    uint32_t *indices_;
    size_t capacity_;
    size_t count_ = 0;
    bool failed_ = false;
};

// Runs `body` (returning a pp_status) so that no exception crosses into C: an allocation failure becomes
// PP_ERR_NOMEM, anything else boost or S2 throws PP_ERR_LIBRARY.
template <typename Body> pp_status without_exceptions(Body body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        return PP_ERR_NOMEM;
    } catch (...) {
        return PP_ERR_LIBRARY;
    }
}

}  // namespace perf_peers

#endif  // PERF_CXX_FENCE_RECORDS_HPP
