/* bench/ubench/dealt_blocks.c — what a walk dealt out in blocks costs at
 * two threads, with and without lines changing hands: the choice behind
 * the hand-over uBs ho1p and hk1p (ubench_kernels.c, flip and keep).
 * Every sweep updates a[i] = a[i] * 3 + 1 over the whole array, in blocks
 * of B doubles, a barrier after each:
 *   contiguous  thread t takes the t-th contiguous part of the blocks;
 *   keep        block b goes to thread b mod T in every sweep;
 *   flip        block b goes to thread (b + g) mod T in sweep g: every
 *               line was written by another thread in the sweep before.
 * keep and flip walk the same blocks in the same order; contiguous walks
 * no block boundary between threads but one.
 * Usage: dealt_blocks N B SWEEPS   (N doubles)
 * Prints: threads ns_contiguous ns_keep ns_flip — per element of a
 * thread's share of one sweep, wall time of the team, the median of 5
 * runs of SWEEPS sweeps each. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

static double run(double *a, long n, long bl, int mode, int sweeps) {
  long nb = n / bl;
  double t0 = 0, t1 = 0;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int g = -2; g < sweeps; ++g) { /* two sweeps to warm up */
      if (g == 0) {
#pragma omp barrier
#pragma omp master
        t0 = omp_get_wtime();
      }
      long b0, b1, bs;
      if (mode == 0)
        b0 = t * nb / nt, b1 = (t + 1) * nb / nt, bs = 1;
      else
        b0 = (t + nt - (mode == 2 ? (g + 2) % nt : 0)) % nt, b1 = nb, bs = nt;
      for (long b = b0; b < b1; b += bs)
        for (long i = b * bl; i < (b + 1) * bl; ++i)
          a[i] = a[i] * 3 + 1;
#pragma omp barrier
    }
#pragma omp master
    t1 = omp_get_wtime();
  }
  return (t1 - t0) * 1e9 / sweeps / ((double)n / omp_get_max_threads());
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: dealt_blocks N B SWEEPS\n");
    return 2;
  }
  long n = atol(argv[1]), bl = atol(argv[2]);
  int sweeps = atoi(argv[3]);
  if (n < 1 || bl < 1 || bl > n || sweeps < 1) {
    fprintf(stderr, "dealt_blocks: N, B and SWEEPS must be positive, B at most N\n");
    return 2;
  }
  double *a = malloc(sizeof(double) * n);
  if (!a) {
    fprintf(stderr, "dealt_blocks: out of memory\n");
    return 2;
  }
  for (long i = 0; i < n; ++i)
    a[i] = 0;
  printf("%d", omp_get_max_threads());
  for (int mode = 0; mode < 3; ++mode) {
    double ns[5];
    for (int k = 0; k < 5; ++k)
      ns[k] = run(a, n, bl, mode, sweeps);
    qsort(ns, 5, sizeof ns[0], cmp);
    printf(" %.4f", ns[2]);
  }
  printf("\n");
  free(a);
  return 0;
}
