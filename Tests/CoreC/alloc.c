/*
 * alloc.c -- allocation hooks, so that the tests can make the core's allocations fail (the only way to reach
 * GF_ERR_NOMEM through the API) and see that nothing leaks.
 *
 * With GNU ld, `-Wl,--wrap=malloc` sends every call to malloc from the test and from libgeofence.a to
 * __wrap_malloc, and __real_malloc is the C library's. The Makefile links that way and defines
 * CORE_TEST_WRAPPED_ALLOC; a build without it still runs every other test.
 */
#include "core_test.h"

#include <stdlib.h>

#if defined(CORE_TEST_WRAPPED_ALLOC) && CORE_TEST_WRAPPED_ALLOC

static long countdown = -1;  /* allocations to let through before one fails; -1: none fails */
static long live_blocks;

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
void __real_free(void *block);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *block, size_t size);
void __wrap_free(void *block);

static int should_fail(void) {
    if (countdown < 0) return 0;
    return countdown-- == 0;
}

void *__wrap_malloc(size_t size) {
    void *block = should_fail() ? NULL : __real_malloc(size);
    live_blocks += block != NULL;
    return block;
}

void *__wrap_calloc(size_t count, size_t size) {
    void *block = should_fail() ? NULL : __real_calloc(count, size);
    live_blocks += block != NULL;
    return block;
}

void *__wrap_realloc(void *block, size_t size) {
    void *moved = should_fail() ? NULL : __real_realloc(block, size);
    live_blocks += block == NULL && moved != NULL;
    return moved;
}

void __wrap_free(void *block) {
    live_blocks -= block != NULL;
    __real_free(block);
}

int ct_alloc_hooked(void) { return 1; }
void ct_alloc_fail_after(long n) { countdown = n; }
long ct_alloc_live(void) { return live_blocks; }

#else

int ct_alloc_hooked(void) { return 0; }
void ct_alloc_fail_after(long n) { (void)n; }
long ct_alloc_live(void) { return 0; }

#endif
