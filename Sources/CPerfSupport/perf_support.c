// perf_support.c: heap readings and an exact allocation counter for `swift run perf`. PERF ONLY: see
// include/perf_support.h for why it exists and why it must never be linked into anything but the perf executable.
//
// How the counter works. The functions below are defined in the perf executable itself. The dynamic linker looks a
// symbol up in the executable before any shared library, so every call to malloc & co. in the process, whether from
// this executable, from libc itself (strdup, fopen, ...), from the dynamic linker once libc is up, or from the Swift
// runtime, reaches these definitions (glibc supports replacing malloc this way: "Replacing malloc" in its manual).
// Each one bumps the counter and forwards to glibc's own implementation through the names glibc exports for exactly
// this purpose (__libc_malloc, __libc_calloc, __libc_realloc, __libc_memalign), so the heap, its statistics
// (mallinfo2) and free are glibc's, unchanged. free, malloc_usable_size and the rest are not redefined.
//
// glibc 2.36 (Debian 12) exports __libc_malloc, __libc_calloc, __libc_realloc, __libc_memalign, __libc_valloc and
// __libc_pvalloc, but no __libc_aligned_alloc or __libc_posix_memalign: there, aligned_alloc is an alias of
// __libc_memalign (same address), and posix_memalign is __libc_memalign behind an argument check, reproduced below.
//
// The wrappers must work from the first allocation of the process, before any constructor has run (the dynamic
// linker switches to them while loading): they keep no state but one zero-initialised atomic and call nothing but
// glibc, so they do.

#define _GNU_SOURCE
#include "perf_support.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdlib.h>

// glibc's own allocator entry points (exported by libc.so.6 since GLIBC_2.2.5; declared in no public header).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocation_calls;

static inline void count_call(void) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    count_call();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_call();
    return __libc_calloc(count, size);
}

void *realloc(void *block, size_t size) {
    count_call();
    return __libc_realloc(block, size);
}

void *memalign(size_t alignment, size_t size) {
    count_call();
    return __libc_memalign(alignment, size);
}

// glibc 2.36 makes aligned_alloc an alias of memalign (it accepts any alignment, rounding it up to a power of two).
void *aligned_alloc(size_t alignment, size_t size) {
    count_call();
    return __libc_memalign(alignment, size);
}

// glibc 2.36's posix_memalign: the alignment must be a power-of-two multiple of sizeof(void *), else EINVAL; then
// memalign, ENOMEM if that fails; *block is written only on success.
int posix_memalign(void **block, size_t alignment, size_t size) {
    count_call();
    if (alignment == 0 || alignment % sizeof(void *) != 0
        || ((alignment / sizeof(void *)) & (alignment / sizeof(void *) - 1)) != 0) {
        return EINVAL;
    }
    void *allocated = __libc_memalign(alignment, size);
    if (allocated == NULL) {
        return ENOMEM;
    }
    *block = allocated;
    return 0;
}

uint64_t perf_allocation_count(void) {
    return atomic_load_explicit(&allocation_calls, memory_order_relaxed);
}

size_t perf_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// The self test. Each counted function is fetched with dlsym(RTLD_DEFAULT), the lookup libc and the Swift runtime
// get too, and called once through that pointer (which also keeps the compiler from deleting an unused block).

enum counted_function { MALLOC, CALLOC, REALLOC, ALIGNED_ALLOC, POSIX_MEMALIGN, MEMALIGN, COUNTED_FUNCTIONS };

static const char *const counted_names[COUNTED_FUNCTIONS] = {
    "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "memalign",
};

static const char *const not_found[COUNTED_FUNCTIONS] = {
    "allocation counter: dlsym found no malloc",
    "allocation counter: dlsym found no calloc",
    "allocation counter: dlsym found no realloc",
    "allocation counter: dlsym found no aligned_alloc",
    "allocation counter: dlsym found no posix_memalign",
    "allocation counter: dlsym found no memalign",
};

static const char *const not_counted[COUNTED_FUNCTIONS] = {
    "allocation counter: a malloc call was not counted exactly once (is perf's malloc exported?)",
    "allocation counter: a calloc call was not counted exactly once (is perf's calloc exported?)",
    "allocation counter: a realloc call was not counted exactly once (is perf's realloc exported?)",
    "allocation counter: an aligned_alloc call was not counted exactly once (is perf's aligned_alloc exported?)",
    "allocation counter: a posix_memalign call was not counted exactly once (is perf's posix_memalign exported?)",
    "allocation counter: a memalign call was not counted exactly once (is perf's memalign exported?)",
};

static const char *const failed[COUNTED_FUNCTIONS] = {
    "allocation counter: malloc(4000) failed",
    "allocation counter: calloc(4000, 1) failed",
    "allocation counter: realloc to 8000 bytes failed",
    "allocation counter: aligned_alloc(64, 4000) failed",
    "allocation counter: posix_memalign(64, 4000) failed",
    "allocation counter: memalign(64, 4000) failed",
};

static void *call_counted(enum counted_function which, void *function, void *old_block) {
    switch (which) {
    case MALLOC:
        return ((void *(*)(size_t))function)(4000);
    case CALLOC:
        return ((void *(*)(size_t, size_t))function)(4000, 1);
    case REALLOC:
        return ((void *(*)(void *, size_t))function)(old_block, 8000);
    case ALIGNED_ALLOC:
        return ((void *(*)(size_t, size_t))function)(64, 4000);
    case POSIX_MEMALIGN: {
        void *block = NULL;
        return ((int (*)(void **, size_t, size_t))function)(&block, 64, 4000) == 0 ? block : NULL;
    }
    case MEMALIGN:
        return ((void *(*)(size_t, size_t))function)(64, 4000);
    case COUNTED_FUNCTIONS:
        break;
    }
    return NULL;
}

const char *perf_allocation_counter_check(void) {
    for (int which = 0; which < COUNTED_FUNCTIONS; which++) {
        void *function = dlsym(RTLD_DEFAULT, counted_names[which]);
        if (function == NULL) {
            return not_found[which];
        }
        void *old_block = which == REALLOC ? malloc(4000) : NULL;
        if (which == REALLOC && old_block == NULL) {
            return failed[MALLOC];
        }
        uint64_t before = perf_allocation_count();
        void *block = call_counted((enum counted_function)which, function, old_block);
        uint64_t after = perf_allocation_count();
        if (block == NULL) {
            free(old_block);  // realloc leaves the old block alone when it fails
            return failed[which];
        }
        free(block);
        if (after - before != 1) {
            return not_counted[which];
        }
    }
    return NULL;
}
