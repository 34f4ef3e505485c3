// cxx_heap_probe.cpp: one block through operator new and delete, for perf's self test (perf_cxx_peers.h): the heap
// readings and the allocation counter must see what the C++ peers allocate.

#include <new>

#include "perf_cxx_peers.h"

extern "C" void *pp_cxx_new_block(size_t bytes) {
    // The new-expression of an array of char, as std::vector and the rtree's nodes allocate: operator new[] ->
    // operator new -> malloc in libstdc++. Written to, so that it is a real allocation the optimiser keeps.
    char *block = new (std::nothrow) char[bytes];
    if (block != nullptr && bytes > 0) block[0] = 1;
    return block;
}

extern "C" void pp_cxx_delete_block(void *block) {
    delete[] static_cast<char *>(block);
}
