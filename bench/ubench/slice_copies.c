/* bench/ubench/slice_copies.c — does a strided clone find its slice in the
 * cache from one sweep to the next where its program does not? Each thread
 * updates its private slice (KIB / threads) in blocks of SPAN rows, column
 * by column (the uB kernels' +c<SPAN> walk), and sweep s walks copy
 * s mod COPIES of the slice: one copy is the kernels' walk (the same slice
 * sweep after sweep), more copies put that many slices between two walks
 * of one, as a program walking other arrays between two sweeps does.
 * With WORK/EVERY, WORK padding steps (the uB kernels' four multiply-add
 * chains) per EVERY accesses, spread evenly, as a padded clone
 * (+wWORK/EVERY) computes between its accesses.
 * Usage: slice_copies KIB STRIDE_BYTES SPAN COPIES [WORK/EVERY]
 * Prints: threads kib copies ns_per_access_per_thread (median of 7
 * repetitions of 6 sweeps) and a flag read from the data, so that the
 * compiler keeps the updates and the padding. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: slice_copies KIB STRIDE_BYTES SPAN COPIES [WORK/EVERY]\n");
    return 2;
  }
  long work = 0, every = 1;
  if (argc == 6 && (sscanf(argv[5], "%ld/%ld", &work, &every) != 2 || work < 0 || every < 1)) {
    fprintf(stderr, "slice_copies: WORK/EVERY: expected two whole numbers, EVERY above 0\n");
    return 2;
  }
  long kib = atol(argv[1]), step = atol(argv[2]) / 8, span = atol(argv[3]);
  int copies = atoi(argv[4]), T = omp_get_max_threads();
  if (kib <= 0 || step <= 0 || span <= 0 || copies <= 0 || T > 64) {
    fprintf(stderr, "slice_copies: KIB, STRIDE_BYTES (>= 8), SPAN and COPIES must be positive\n");
    return 2;
  }
  long n = kib * 1024 / 8 / T / step * step, rows = n / step;
  double *a[64], ts[7], pad[64] = {0};
#pragma omp parallel
  {
    int t = omp_get_thread_num();
    a[t] = malloc(sizeof(double) * (size_t)n * (size_t)copies);
    for (long i = 0; i < n * copies; i++) a[t][i] = (double)(i & 7);
  }
  for (int rep = 0; rep < 7; rep++) {
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
      double d0 = 0, d1 = 0, d2 = 0, d3 = 0;
      long pc = 0;
      for (int sw = 0; sw < 6; sw++) {
        double *A = a[omp_get_thread_num()] + (long)(sw % copies) * n;
        for (long b0 = 0; b0 < rows; b0 += span) {
          long b1 = b0 + span < rows ? b0 + span : rows;
          for (long c = 0; c < step; c++)
            for (long r = b0; r < b1; r++) {
              A[r * step + c] = A[r * step + c] * 3 + 1;
              for (pc += work; pc >= every; pc -= every) {
                d0 = d0 * 0.5 + 1.0; d1 = d1 * 0.5 + 2.0;
                d2 = d2 * 0.5 + 3.0; d3 = d3 * 0.5 + 4.0;
              }
            }
        }
      }
      pad[omp_get_thread_num()] = d0 + d1 + d2 + d3;
    }
    ts[rep] = (omp_get_wtime() - t0) / (6.0 * (double)n) * 1e9;
  }
  qsort(ts, 7, sizeof ts[0], cmp);
  double sink = 0;
  for (int t = 0; t < T; t++) sink += a[t][n / 2] + pad[t];
  printf("%d %ld %d %.3f %g\n", T, kib, copies, ts[3], sink > 0 ? 0.0 : 1.0);
  return 0;
}
