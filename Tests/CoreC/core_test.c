/*
 * core_test.c -- the C test program of the core: runs every test, prints the digest of all computed results and a
 * final "N passed, M failed" line; exits non-zero on any failure.
 *
 *   core_test [accuracy_vectors.csv]      (the fixture path; without it the accuracy test counts as one failure)
 *
 * Runs unchanged under qemu-user (make check CROSS=...): the fixture path is read from the host file system.
 */
#include "core_test.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static unsigned long passed, failed;
static uint64_t digest = 0xcbf29ce484222325ULL;  /* FNV-1a offset basis */

enum { FAILURES_SHOWN = 25 };  /* enough to see a pattern, few enough not to bury it */

int ct_check(int ok, const char *file, int line, const char *format, ...) {
    if (ok) {
        passed++;
        return 1;
    }
    if (++failed <= FAILURES_SHOWN) {
        va_list args;
        va_start(args, format);
        fprintf(stdout, "FAIL %s:%d: ", file, line);
        vfprintf(stdout, format, args);
        fputc('\n', stdout);
        va_end(args);
    }
    return 0;
}

int ct_status(gf_status got, gf_status want, const char *what, const char *file, int line) {
    return ct_check(got == want, file, line, "%s: got %s, want %s", what, gf_status_name(got), gf_status_name(want));
}

void ct_digest(int64_t value) {
    uint64_t bits = (uint64_t)value;
    for (int i = 0; i < 8; i++) {
        digest ^= (bits >> (8 * i)) & 0xFF;
        digest *= 0x100000001b3ULL;  /* FNV prime */
    }
}

void ct_digest_hits(const gf_hit *hits, size_t count) {
    ct_digest((int64_t)count);
    for (size_t i = 0; i < count; i++) {
        ct_digest(hits[i].handle);
        ct_digest(hits[i].distance_mm);
    }
}

ct_rng ct_rng_seeded(uint64_t seed) {
    ct_rng rng = {seed != 0 ? seed : 0x9E3779B97F4A7C15ULL};
    return rng;
}

uint64_t ct_next(ct_rng *rng) {
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

int64_t ct_range(ct_rng *rng, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return span == 0 ? (int64_t)ct_next(rng) : lo + (int64_t)(ct_next(rng) % span);
}

static void run(const char *name, void (*test)(void)) {
    unsigned long failed_before = failed;
    test();
    if (failed != failed_before) printf("%s: %lu failed\n", name, failed - failed_before);
}

int main(int argc, char **argv) {
    printf("core_test: %s\n", argc > 1 ? argv[1] : "(no fixture given)");
    run("errors", test_errors);
    run("conversion", test_conversion);
    run("isqrt", test_isqrt);
    run("geodesy sweep", test_geodesy_sweep);
    if (argc > 1) {
        unsigned long failed_before = failed;
        test_accuracy(argv[1]);
        if (failed != failed_before) printf("accuracy: %lu failed\n", failed - failed_before);
    } else {
        CT_CHECK(0, "no accuracy fixture: pass Tests/CGeofenceTests/Fixtures/accuracy_vectors.csv");
    }
    if (argc > 2) {
        for (int i = 2; i < argc; i++) {
            unsigned long failed_before = failed;
            test_polygon_fixture(argv[i]);
            if (failed != failed_before) printf("polygon fixture %s: %lu failed\n", argv[i], failed - failed_before);
        }
    } else {
        CT_CHECK(0, "no polygon fixture: pass Tests/CGeofenceTests/Fixtures/polygon_vectors.txt");
    }
    run("index", test_index);
    run("churn", test_churn);
    run("piles", test_piles);
    run("tracked", test_tracked);
    run("shapes", test_shapes);
    run("fence distance", test_fence_distance);
    run("shape validity", test_shape_validity);
    run("out of memory", test_out_of_memory);

    printf("digest: %016" PRIx64 "\n", digest);
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
