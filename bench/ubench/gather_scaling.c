/* bench/ubench/gather_scaling.c — does a CSR gather loop scale from two
 * cores to one as NPB CG's does, where the dependent sum uB (mbw1p) it is
 * matched to does not? Two loops over the same arrays, alternated:
 *   gather  s += a[i] * x[idx[i]]   (CG's SpMV: 8 + 4 bytes a streamed
 *           element, x gathered at random from a small shared vector)
 *   sum     s += a[i]               (mbw1p's loop)
 *   rows    the gather in CSR rows of N/NX elements, each row summed on
 *           its own into q[row] (CG's loop nest as written: one row's
 *           sum does not wait for the previous row's)
 * Each thread reduces its contiguous slice of a and idx; x is shared.
 * Usage: gather_scaling N NX REPS   (N elements of a and idx, NX of x)
 * Prints: threads ns_per_element_per_thread(gather) (sum) (rows), the medians of
 * REPS timed repetitions of each. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: gather_scaling N NX REPS\n");
    return 2;
  }
  long n = atol(argv[1]), nx = atol(argv[2]);
  int reps = atoi(argv[3]);
  if (n < 1 || nx < 1 || reps < 1) {
    fprintf(stderr, "gather_scaling: N, NX and REPS must be positive\n");
    return 2;
  }
  double *a = malloc(n * sizeof *a), *x = malloc(nx * sizeof *x);
  int *idx = malloc(n * sizeof *idx);
  double *q = malloc(nx * sizeof *q);
  double *ts[3] = {malloc(reps * sizeof(double)), malloc(reps * sizeof(double)),
                   malloc(reps * sizeof(double))};
  if (!a || !x || !idx || !q || !ts[0] || !ts[1] || !ts[2]) {
    fprintf(stderr, "gather_scaling: out of memory\n");
    return 2;
  }
  unsigned s = 1;
  /* First touch by the threads that read each slice, as CG's arrays are. */
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = 1.0 / (double)(i + 1);
  for (long i = 0; i < n; ++i) {
    s = s * 1103515245u + 12345u;
    idx[i] = (int)((s >> 8) % (unsigned)nx);
  }
  for (long i = 0; i < nx; ++i)
    x[i] = (double)i;
  double total = 0;
  for (int r = 0; r < reps; ++r)
    for (int k = 0; k < 3; ++k) {
      double t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : total)
      {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        long lo = n * t / nt, hi = n * (t + 1) / nt;
        double acc = 0;
        if (k == 0)
          for (long i = lo; i < hi; ++i)
            acc += a[i] * x[idx[i]];
        else if (k == 1)
          for (long i = lo; i < hi; ++i)
            acc += a[i];
        else {
          /* Row j holds elements [n*j/nx, n*(j+1)/nx); a thread takes its
           * rows as CG's static omp for does. */
          long rlo = nx * t / nt, rhi = nx * (t + 1) / nt;
          for (long j = rlo; j < rhi; ++j) {
            double sum = 0;
            for (long i = n * j / nx; i < n * (j + 1) / nx; ++i)
              sum += a[i] * x[idx[i]];
            q[j] = sum;
          }
          acc = q[rlo];
        }
        total += acc;
      }
      ts[k][r] = omp_get_wtime() - t0;
    }
  int th = omp_get_max_threads();
  qsort(ts[0], reps, sizeof(double), cmp);
  qsort(ts[1], reps, sizeof(double), cmp);
  qsort(ts[2], reps, sizeof(double), cmp);
  printf("%d %.4f %.4f %.4f %g\n", th, ts[0][reps / 2] * 1e9 / n * th, ts[1][reps / 2] * 1e9 / n * th,
         ts[2][reps / 2] * 1e9 / n * th, total);
  return 0;
}
