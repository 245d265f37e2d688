/* How much arithmetic each thread of a node configuration gets: every
 * OpenMP thread (the configuration's OMP_NUM_THREADS, OMP_PLACES,
 * OMP_PROC_BIND from the environment) runs four dependent sqrt chains, the
 * loop of the csqrt uB, and the slowest thread's time per iteration is
 * reported. On cores of their own two threads take one thread's time; on
 * one core, or on two vCPUs the host runs on one hardware thread, twice.
 * Run hk's characterization met the second case and its measured runs the
 * first (bench/results/accuracy-2026-11-28-quiet-hk-*): the handoff probe,
 * which sees where the vCPUs are and not what runs beside them, did not
 * tell. throughput_probe.py compares the probe's configuration-to-base
 * ratios while the uBs were measured, in the NPPDB and while the programs
 * ran.
 *
 * Usage: throughput ITERATIONS BURSTS
 * Prints one line per burst: "ok <ns per iteration of the slowest thread>";
 * exit 2 on bad usage. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n;
  int bursts;
  if (argc != 3 || (n = atol(argv[1])) < 1 || (bursts = atoi(argv[2])) < 1) {
    fprintf(stderr, "usage: throughput ITERATIONS BURSTS\n");
    return 2;
  }
  double sink = 0;
  // One extra burst first, unreported: the threads start and settle.
  for (int b = 0; b <= bursts; ++b) {
    double slowest = 0, sum = 0;
#pragma omp parallel reduction(max : slowest) reduction(+ : sum)
    {
      double x = 1.0 + omp_get_thread_num() * 1e-3;
      double c0 = 1.0, c1 = 2.0, c2 = 3.0, c3 = 4.0;
#pragma omp barrier
      double t0 = omp_get_wtime();
      for (long i = 0; i < n; ++i) {
        c0 = sqrt(c0 + x);
        c1 = sqrt(c1 + x);
        c2 = sqrt(c2 + x);
        c3 = sqrt(c3 + x);
      }
      slowest = omp_get_wtime() - t0;
      sum = c0 + c1 + c2 + c3;
    }
    sink += sum;
    if (b > 0)
      printf("ok %.3f\n", slowest * 1e9 / (double)n);
  }
  // Keeps the chains alive; never true (every chain converges near 1.6).
  if (sink < 0)
    printf("%g\n", sink);
  return 0;
}
