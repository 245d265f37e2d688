/* bench/ubench/partition_flip.c — what a loop pays for lines the other
 * thread wrote last. Each repetition makes two update sweeps over one
 * array (a[i] = a[i] * 0.999 + 1): the first splits it in contiguous
 * slices, one a thread; the second either the same way ("same") or in
 * blocks dealt out in turn ("flipped": block b goes to thread b mod T, so
 * half of each thread's blocks lie in another thread's slice at two
 * threads). Both walk whole blocks of B elements in order, so the modes
 * differ only in which thread wrote a line last: NPB BT's Jacobian loops
 * rewrite arrays that the previous direction's loops wrote split another
 * way (bench/results/clone-tracking-2026-11-29-phases.txt). At one thread
 * the two modes walk the same addresses in the same order.
 * Usage: partition_flip N B REPS   (N doubles, blocks of B, REPS timed
 *        repetitions of each mode, alternated)
 * Prints: threads ns_same ns_flipped — per element of the two sweeps, wall
 * time of the team, the medians over the repetitions. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

static void update(double *a, long lo, long hi) {
  for (long i = lo; i < hi; ++i)
    a[i] = a[i] * 0.999 + 1.0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: partition_flip N B REPS\n");
    return 2;
  }
  long n = atol(argv[1]), blk = atol(argv[2]);
  int reps = atoi(argv[3]);
  if (n < 1 || blk < 1 || reps < 1 || blk > n) {
    fprintf(stderr, "partition_flip: N, B and REPS must be positive, B at most N\n");
    return 2;
  }
  long nb = n / blk; /* whole blocks only */
  double *a = malloc(nb * blk * sizeof *a);
  double *ts[2] = {malloc(reps * sizeof(double)), malloc(reps * sizeof(double))};
  if (!a || !ts[0] || !ts[1]) {
    fprintf(stderr, "partition_flip: out of memory\n");
    return 2;
  }
  int threads = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), T = omp_get_num_threads();
#pragma omp single
    threads = T;
    /* First touch as the first sweep splits it. */
    for (long b = t * nb / T; b < (t + 1) * nb / T; ++b)
      for (long i = b * blk; i < (b + 1) * blk; ++i)
        a[i] = 1.0;
  }
  for (int r = 0; r < reps; ++r)
    for (int mode = 0; mode < 2; ++mode) {
      double t0 = omp_get_wtime();
#pragma omp parallel
      {
        int t = omp_get_thread_num(), T = omp_get_num_threads();
        update(a, t * nb / T * blk, (t + 1) * nb / T * blk);
#pragma omp barrier
        if (mode == 0)
          update(a, t * nb / T * blk, (t + 1) * nb / T * blk);
        else
          for (long b = t; b < nb; b += T)
            update(a, b * blk, (b + 1) * blk);
      }
      ts[mode][r] = (omp_get_wtime() - t0) * 1e9 / (2.0 * nb * blk);
    }
  qsort(ts[0], reps, sizeof(double), cmp);
  qsort(ts[1], reps, sizeof(double), cmp);
  double check = 0;
  for (long i = 0; i < nb * blk; i += blk)
    check += a[i];
  printf("%d %.4f %.4f\n", threads, ts[0][reps / 2], ts[1][reps / 2]);
  /* Keeps the sweeps' results live. */
  if (check < 0)
    printf("%g\n", check);
  free(a);
  free(ts[0]);
  free(ts[1]);
  return 0;
}
