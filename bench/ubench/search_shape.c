/* bench/ubench/search_shape.c — does a search's cost depend on the shape of
 * its walk, not only on its mean jump? Two walks over one shared region of
 * 2^22 doubles (32 MiB), loop executions of 16 accesses each, the same
 * ~2.2-2.7K-element mean jump (XSBench's 21 KB searches):
 *   walk   what the uB kernel does (ubench_kernels.c): a uniform start,
 *          then uniform steps in [-2J, 2J], reflected at the ends;
 *   bisect a binary search: the middle of one of the region's aligned
 *          blocks of 2^B elements, then half, quarter, ... of the block
 *          either way, as a search for a random key walks a sorted table.
 * The bisection's first probes repeat (the top of each block's tree), so
 * they hit the cache, as a real binary search's do.
 * Usage: search_shape MODE J EXECS LOG2_BLOCK  (MODE walk|bisect)
 * Prints: MODE threads ns_per_access mean_jump_elements */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: search_shape walk|bisect J EXECS LOG2_BLOCK\n");
    return 2;
  }
  const long n = 1L << 22;
  int bisect = !strcmp(argv[1], "bisect");
  long J = atol(argv[2]), execs = atol(argv[3]);
  int lgb = atoi(argv[4]);
  double *a = malloc(n * sizeof(double));
  if (!a) return 1;
  for (long i = 0; i < n; i++) a[i] = (double)i * 0.5;
  double sum = 0, jumps = 0;
  long acc = 0, njumps = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : sum, acc, jumps, njumps)
  {
    uint64_t x = 0x9E3779B97F4A7C15ULL * (uint64_t)(omp_get_thread_num() + 1) * LCG_A + LCG_C;
    for (long e = 0; e < execs; e++) {
      long at, prev = -1, half = 0;
      if (bisect) {
        half = 1L << (lgb - 1);
        at = (((long)(x >> 42)) >> lgb << lgb) + half;
      } else {
        at = (long)(x >> 42);
      }
      x = x * LCG_A + LCG_C;
      for (int k = 0; k < 16; k++) {
        uint64_t v = x;
        x = v * LCG_A + LCG_C;
        if (k && bisect) {
          half /= 2;
          at += (v >> 63) ? half : -half;
        } else if (k) {
          long p = at + (long)(((v >> 32) * (uint64_t)(4 * J + 1)) >> 32) - 2 * J;
          if (p < 0) p = -p;
          else if (p >= n) p = 2 * n - 2 - p;
          at = p;
        }
        sum += a[at];
        if (prev >= 0) jumps += (double)labs(at - prev), njumps++;
        prev = at;
        acc++;
      }
    }
  }
  double t = omp_get_wtime() - t0;
  int th = omp_get_max_threads();
  printf("%s %d %.3f %.0f %g\n", bisect ? "bisect" : "walk", th, t / (double)acc * th * 1e9,
         njumps ? jumps / (double)njumps : 0.0, sum);
  free(a);
  return 0;
}
