/* How long one dependent load takes at each footprint: a pointer chase over
 * a random cyclic permutation of the footprint's cache lines, one line per
 * load, so that neither the prefetchers nor the out-of-order window can
 * overlap two misses. It reads the levels a node's caches really give one
 * thread: the AMD EPYC VM of 2026-12-01 reported a 32 MiB L3 and took 131
 * ns a dependent load at 8 MiB and 154-174 ns from 16 MiB up, DRAM
 * latency, while its prefetched streams (the uBs' walks) ran as before
 * (bench/results/load-latency-2026-12-01-epyc.txt). load_latency.py runs
 * it alone and on several CPUs at once.
 *
 * Usage: load_latency LOADS KIB [KIB ...]
 * Prints one line per footprint: "ok <KiB> <ns per load> <0|1>" (the last
 * field the chase's end, so that it is not optimized away); exit 2 on bad
 * usage, 1 when memory cannot be had. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { LINE = 64 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift64*: the permutation must not follow any pattern a prefetcher
 * could learn, and rand()'s 31 bits are too few for large footprints. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static int chase(long loads, long kib) {
  size_t lines = (size_t)kib * 1024 / LINE;
  if (lines < 2) lines = 2;
  /* One pointer at the start of each line; the rest of the line unused. */
  uintptr_t *mem = aligned_alloc(LINE, lines * LINE);
  size_t *order = malloc(lines * sizeof *order);
  if (!mem || !order) {
    fprintf(stderr, "load_latency: cannot allocate %ld KiB\n", kib);
    free(mem);
    free(order);
    return 1;
  }
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)lines;
  for (size_t i = lines - 1; i > 0; --i) {
    size_t j = next_random(&seed) % (i + 1);
    size_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const size_t step = LINE / sizeof(uintptr_t);
  for (size_t i = 0; i < lines; ++i)
    mem[order[i] * step] = (uintptr_t)&mem[order[(i + 1) % lines] * step];
  free(order);
  /* One lap first: the pages are touched and the caches hold what they can. */
  uintptr_t *p = (uintptr_t *)mem[0];
  for (size_t i = 0; i < lines; ++i) p = (uintptr_t *)*p;
  double t0 = now();
  for (long i = 0; i < loads; ++i) p = (uintptr_t *)*p;
  double t1 = now();
  printf("ok %ld %.3f %d\n", kib, (t1 - t0) / loads * 1e9, (int)((uintptr_t)p & 1));
  fflush(stdout);
  free(mem);
  return 0;
}

int main(int argc, char **argv) {
  long loads = argc > 2 ? atol(argv[1]) : 0;
  if (argc < 3 || loads < 1) {
    fprintf(stderr, "usage: load_latency LOADS KIB [KIB ...]\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    long kib = atol(argv[i]);
    if (kib < 1) {
      fprintf(stderr, "load_latency: footprint '%s' is not a positive KiB count\n", argv[i]);
      return 2;
    }
    int rc = chase(loads, kib);
    if (rc) return rc;
  }
  return 0;
}
