#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H
#include <stdint.h>
/// Number of malloc/calloc/realloc/aligned allocations since the process started.
uint64_t allocation_count(void);
/// Bytes currently allocated and not freed, as glibc reports them.
uint64_t allocated_bytes(void);
#endif
