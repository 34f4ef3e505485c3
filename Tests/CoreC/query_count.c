/*
 * query_count.c -- the query workload whose instructions scripts/cross-check.sh counts with callgrind:
 *
 *   valgrind --tool=callgrind --toggle-collect=run_queries build/<target>/query_count [margin_mm [fences [fixes]]]
 *
 * 10^5 fences (or `fences`) uniform over a country-sized area inland of Brisbane (lat -35..-25, lon 145..155), radii
 * 20 m .. 2 km log-uniform (the `uniform` dataset of `swift run perf`), and 10^4 fixes of a vehicle driving through
 * it at 1 Hz, 10-30 m apart (its `drive` workload), each asked with gf_query; `fixes` "tracked" asks them with
 * gf_query_tracked and one cursor, "random" asks 10^4 fixes uniform over the area instead (its `random` workload).
 * Only run_queries is counted, so building the table does not show. An instruction count is deterministic where a
 * time is not, and cheap to compare across commits.
 */
#include "geofence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FENCES = 100000, FIXES = 10000, HITS = 256 };

static const double south = -35, north = -25, west = 145, east = 155;
static const double pi = 3.14159265358979323846;  /* M_PI is POSIX, not C11 */

static uint64_t rng_state = 0x6765666F6E6365ULL;  /* "gefonce": any non-zero seed */

static double uniform(double lo, double hi) {  /* xorshift64*, top 53 bits */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return lo + (hi - lo) * (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static gf_point point(double lat, double lon) {
    gf_point p = {0, 0};
    if (gf_point_from_degrees(lat, lon, &p) != GF_OK) abort();
    return p;
}

/* A vehicle whose heading and speed wander, bouncing off the edges of the area. */
static void drive(gf_point *fixes) {
    const double metres_per_degree = 6371008.8 * pi / 180;
    double lat = uniform(south, north), lon = uniform(west, east);
    double heading = uniform(0, 2 * pi), speed = uniform(10, 30);
    for (int i = 0; i < FIXES; i++) {
        double next_lat = lat + speed * cos(heading) / metres_per_degree;
        double next_lon = lon + speed * sin(heading) / (metres_per_degree * cos(lat * pi / 180));
        if (next_lat < south || next_lat > north) heading = pi - heading;
        if (next_lon < west || next_lon > east) heading = -heading;
        lat += speed * cos(heading) / metres_per_degree;
        lon += speed * sin(heading) / (metres_per_degree * cos(lat * pi / 180));
        heading += uniform(-0.08, 0.08);
        speed = fmin(fmax(speed + uniform(-1.5, 1.5), 10), 30);
        fixes[i] = point(lat, lon);
    }
}

/* The counted part: every fix queried once, with one cursor when tracked. noinline and external, so that callgrind
 * can find it by name. */
__attribute__((noinline)) size_t run_queries(const gf_table *table, const gf_point *fixes, uint32_t margin_mm,
                                             int tracked) {
    static gf_hit hits[HITS];
    gf_cursor cursor = {0};
    size_t total = 0;
    for (int i = 0; i < FIXES; i++) {
        size_t count = 0;
        gf_status status = tracked ? gf_query_tracked(table, &cursor, fixes[i], margin_mm, hits, HITS, &count)
                                   : gf_query(table, fixes[i], margin_mm, hits, HITS, &count);
        if (status != GF_OK) abort();
        total += count;
    }
    return total;
}

int main(int argc, char **argv) {
    uint32_t margin_mm = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 0;
    unsigned long fences = argc > 2 ? strtoul(argv[2], NULL, 10) : FENCES;
    const char *workload = argc > 3 ? argv[3] : "drive";
    int tracked = strcmp(workload, "tracked") == 0, random_fixes = strcmp(workload, "random") == 0;
    if (fences == 0 || fences > GF_CAPACITY_MAX || !(tracked || random_fixes || strcmp(workload, "drive") == 0)) {
        fprintf(stderr, "usage: query_count [margin_mm [fences (1..%u) [drive|tracked|random]]]\n", GF_CAPACITY_MAX);
        return 2;
    }
    gf_table *table = NULL;
    static gf_point fixes[FIXES];
    if (gf_table_create((uint32_t)fences, &table) != GF_OK) return 1;
    for (unsigned long i = 0; i < fences; i++) {
        gf_point centre = point(uniform(south, north), uniform(west, east));
        uint32_t radius_mm = (uint32_t)lround(20000 * pow(100, uniform(0, 1)));
        gf_handle handle;
        if (gf_fence_add(table, centre, radius_mm, &handle) != GF_OK) return 1;
    }
    if (random_fixes)
        for (int i = 0; i < FIXES; i++) fixes[i] = point(uniform(south, north), uniform(west, east));
    else
        drive(fixes);
    size_t hits = run_queries(table, fixes, margin_mm, tracked);
    printf("query_count: %lu fences, %d %s fixes, margin %lu mm: %lu hits, table %lu bytes\n", fences, FIXES, workload,
           (unsigned long)margin_mm, (unsigned long)hits, (unsigned long)gf_table_memory(table));
    gf_table_destroy(table);
    return 0;
}
