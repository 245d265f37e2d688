/* gather.c - indirect reads s += a[idx[i]] with random indices over a table
 * larger than the caches: a strided index stream and a random one.
 * Usage: gather [N] [TABLE] [REPS]; prints the kernel time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1L << 22;
  long m = argc > 2 ? atol(argv[2]) : 1L << 22;
  int reps = argc > 3 ? atoi(argv[3]) : 10;
  int *idx = malloc(sizeof(int) * n);
  double *a = malloc(sizeof(double) * m), s = 0;
  unsigned x = 7;
  for (long i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    idx[i] = (int)((x >> 4) % (unsigned)m);
  }
  for (long i = 0; i < m; ++i)
    a[i] = 1.0;
  double t = omp_get_wtime();
  for (int r = 0; r < reps; ++r) {
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (long i = 0; i < n; ++i)
      s += a[idx[i]];
  }
  t = omp_get_wtime() - t;
  printf("kernel_s %.6f check %g\n", t, s);
  return 0;
}
