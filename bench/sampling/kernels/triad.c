/* triad.c - STREAM triad a = b + s*c: one huge loop per thread and
 * invocation (sampled at the head of every execution).
 * Usage: triad [N] [REPS]; prints the kernel time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1L << 23;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n),
         *c = malloc(sizeof(double) * n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = 0, b[i] = (double)i, c[i] = 1.0;
  double t = omp_get_wtime();
  for (int r = 0; r < reps; ++r) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + 3.0 * c[i];
  }
  t = omp_get_wtime() - t;
  printf("kernel_s %.6f check %g\n", t, a[n / 2]);
  return 0;
}
