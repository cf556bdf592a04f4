/* Latency of dependent random loads over a buffer of the given size in MiB, on huge pages
 * where the kernel allows: the cost of a transposition-table probe that misses the caches.
 *   cc -O2 -o /tmp/memory-latency scripts/memory-latency.c && /tmp/memory-latency 64   */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
    size_t n = mib * 1024 * 1024 / sizeof(size_t);
    size_t *next = mmap(0, n * sizeof(size_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED || n < 2) return 1;
    madvise(next, n * sizeof(size_t), MADV_HUGEPAGE);
    /* One random cycle through every slot (Sattolo's shuffle), so each load depends on the last. */
    for (size_t i = 0; i < n; i++) next[i] = i;
    srand(1);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = ((size_t)rand() * RAND_MAX + (size_t)rand()) % i;
        size_t t = next[i]; next[i] = next[j]; next[j] = t;
    }
    struct timespec start, end;
    size_t p = 0, loads = 10000000;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (size_t i = 0; i < loads; i++) p = next[p];
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ns = (end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec);
    printf("%zu MiB: %.1f ns per dependent load (%zu)\n", mib, ns / loads, p);
    return 0;
}
