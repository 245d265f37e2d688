/* bench/ubench/barrier_loop.c — a plain OpenMP barrier loop, to set beside
 * the bar1p uB (barrier_loop.py). Each thread sums its half of a KIB-KiB
 * array of doubles, then crosses a barrier (BARRIER=1) or not (0), SWEEPS
 * times in one parallel region, REGIONS regions in a row; prints the wall
 * microseconds per sweep and the sum (so the loop is not optimized away).
 *
 *   barrier_loop KIB SWEEPS REGIONS BARRIER
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: barrier_loop KIB SWEEPS REGIONS BARRIER\n");
    return 2;
  }
  long n = atol(argv[1]) * 1024 / 8;
  int sweeps = atoi(argv[2]), regions = atoi(argv[3]), bar = atoi(argv[4]);
  if (n < 2 || sweeps < 1 || regions < 1) {
    fprintf(stderr, "barrier_loop: KIB, SWEEPS and REGIONS must be positive\n");
    return 2;
  }
  double *a = malloc(n * sizeof(double));
  if (!a) return 1;
  for (long i = 0; i < n; i++) a[i] = i * 1e-9;
  double sink = 0, t0 = omp_get_wtime();
  for (int g = 0; g < regions; g++) {
#pragma omp parallel reduction(+ : sink)
    {
      int t = omp_get_thread_num(), nt = omp_get_num_threads();
      long lo = n * t / nt, hi = n * (t + 1) / nt;
      double acc = 0;
      for (int s = 0; s < sweeps; s++) {
        for (long i = lo; i < hi; i++) acc += a[i];
        if (bar) {
#pragma omp barrier
        }
      }
      sink += acc;
    }
  }
  printf("%.4f %g\n", (omp_get_wtime() - t0) * 1e6 / ((double)sweeps * regions), sink);
  free(a);
  return 0;
}
