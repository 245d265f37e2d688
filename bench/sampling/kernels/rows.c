/* rows.c - row sweeps over a matrix with short rows (COLS doubles): many
 * short innermost-loop executions, where the countdown decides which are
 * sampled. b[r][c] += a[r][c] * v[c].
 * Usage: rows [ROWS] [COLS] [REPS]; prints the kernel time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long rows = argc > 1 ? atol(argv[1]) : 32768;
  long cols = argc > 2 ? atol(argv[2]) : 256;
  int reps = argc > 3 ? atoi(argv[3]) : 20;
  double *a = malloc(sizeof(double) * rows * cols),
         *b = malloc(sizeof(double) * rows * cols), *v = malloc(sizeof(double) * cols);
  for (long i = 0; i < cols; ++i)
    v[i] = 1.0 / (double)(i + 1);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < rows * cols; ++i)
    a[i] = (double)(i % 13), b[i] = 0;
  double t = omp_get_wtime();
  for (int r = 0; r < reps; ++r) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j)
        b[i * cols + j] += a[i * cols + j] * v[j];
  }
  t = omp_get_wtime() - t;
  printf("kernel_s %.6f check %g\n", t, b[rows * cols / 2]);
  return 0;
}
