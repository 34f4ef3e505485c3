/*
 * isqrt.c -- the integer square root every distance goes through (CSources/gf_geodesy.c), against the bit-by-bit
 * root it replaced. The one internal function tested directly: a table seed and a Newton step are easy to get wrong
 * by one at a few inputs that no distance test would happen to hit, and "exact floor" is what the digests and every
 * distance bound rest on.
 *
 * Covered here (under a second): every v below 2^20; around 2^20 perfect squares r^2 (r below 2^16 all, then random
 * r up to 2^32 - 1) the three inputs where a root changes or is about to (r^2 - 1, r^2, r^2 + 2r); a million random v
 * of every magnitude; the largest v. Run once, not here (minutes): r^2 - 1, r^2 and r^2 + 2r for every r below 2^32,
 * when the two-step Newton root went in and again when its interpolated seed made one step enough.
 */
#include "core_test.h"

uint64_t gf__isqrt(uint64_t v);  /* CSources/gf_internal.h */

/* floor(sqrt(v)), one bit of the root per round: slow but evidently right. */
static uint64_t reference_isqrt(uint64_t v) {
    uint64_t root = 0, bit = (uint64_t)1 << 62;
    while (bit > v) bit >>= 2;
    for (; bit != 0; bit >>= 2) {
        if (v >= root + bit) {
            v -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
    }
    return root;
}

static int same_root(uint64_t v) {
    uint64_t got = gf__isqrt(v), want = reference_isqrt(v);
    return CT_CHECK(got == want, "isqrt(%llu) = %llu, want %llu", (unsigned long long)v, (unsigned long long)got,
                    (unsigned long long)want);
}

static void around_square(uint64_t root) {
    uint64_t square = root * root;
    if (root > 0) same_root(square - 1);
    same_root(square);
    same_root(square + 2 * root);  /* (root + 1)^2 - 1: the last input whose root is still `root` */
}

void test_isqrt(void) {
    for (uint64_t v = 0; v < ((uint64_t)1 << 20); v++) same_root(v);
    for (uint64_t root = 0; root < ((uint64_t)1 << 16); root++) around_square(root);
    ct_rng rng = ct_rng_seeded(0x6973717274ULL);  /* "isqrt" */
    for (int i = 0; i < 1000000; i++) around_square((uint64_t)ct_range(&rng, 1 << 16, 0xFFFFFFFFLL));
    for (int i = 0; i < 1000000; i++) {
        uint64_t bits = ct_next(&rng);
        unsigned drop = (unsigned)(ct_next(&rng) & 63);  /* a separate draw: every magnitude equally often */
        same_root(bits >> drop);
    }
    same_root(UINT64_MAX);
    same_root(UINT64_MAX - 1);
}
