/* bench/ubench/invocation_loop.c — what one invocation of a short `omp for`
 * costs beyond its iterations, to set beside NPB SP W's lhs loops (463,556
 * invocations of 0.4-0.5 us each, run hv's NOTE.md). Inside one parallel
 * region, INVOCATIONS times: an `omp for` over TRIP iterations, each adding
 * WORK doubles of a row (the team shares the rows, as SP's j lines), then a
 * barrier (BARRIER=1, as SP's loops end) or none (0, `nowait`). Prints the
 * wall microseconds per invocation and the sum (so nothing is optimized
 * away). Swept over TRIP at one and two threads, the intercept is the
 * invocation's fixed cost at that thread count and the slope its work.
 *
 *   clang-14 -O2 -fopenmp bench/ubench/invocation_loop.c -o /tmp/invocation_loop
 *   OMP_NUM_THREADS=2 OMP_PLACES='{0},{1}' OMP_PROC_BIND=spread \
 *       /tmp/invocation_loop TRIP WORK INVOCATIONS BARRIER
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: invocation_loop TRIP WORK INVOCATIONS BARRIER\n");
    return 2;
  }
  long trip = atol(argv[1]), work = atol(argv[2]), inv = atol(argv[3]);
  int bar = atoi(argv[4]);
  if (trip < 1 || work < 1 || inv < 1) {
    fprintf(stderr, "invocation_loop: TRIP, WORK and INVOCATIONS must be positive\n");
    return 2;
  }
  double *a = malloc(trip * work * sizeof(double));
  if (!a)
    return 1;
  for (long i = 0; i < trip * work; i++)
    a[i] = i * 1e-9;
  double sink = 0, t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : sink)
  {
    double acc = 0;
    for (long n = 0; n < inv; n++) {
      if (bar) {
#pragma omp for
        for (long j = 0; j < trip; j++)
          for (long k = 0; k < work; k++)
            acc += a[j * work + k];
      } else {
#pragma omp for nowait
        for (long j = 0; j < trip; j++)
          for (long k = 0; k < work; k++)
            acc += a[j * work + k];
      }
    }
    sink += acc;
  }
  printf("%.4f %g\n", (omp_get_wtime() - t0) * 1e6 / (double)inv, sink);
  free(a);
  return 0;
}
