// Counts heap allocations for the benchmark by wrapping glibc's allocator entry points.
#define _GNU_SOURCE
#include "AllocationCounter.h"
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t counter = 0;

void *malloc(size_t size) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12; // ENOMEM
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return __libc_memalign(alignment, size);
}

uint64_t allocation_count(void) {
    return atomic_load_explicit(&counter, memory_order_relaxed);
}

uint64_t allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks;
}
