/* What the runtime's page-fault count costs per read: getrusage(RUSAGE_SELF)
 * called by thread 0 of a team of OMP_NUM_THREADS while the others wait at
 * the team's barrier (the forking thread reads it at every counted fork and
 * join of a region; runtime/src/runtime.cpp, minorFaults). RUSAGE_SELF sums
 * over the process's threads, so the team's size matters.
 *
 * Usage: fault_count CALLS. Prints: "ok <threads> <ns per call>". */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 200000;
  double ns = 0;
  long sink = 0;
  int threads = 1;
#pragma omp parallel
  {
#pragma omp master
    {
      struct rusage u;
      threads = omp_get_num_threads();
      double t0 = omp_get_wtime();
      for (long i = 0; i < calls; ++i) {
        getrusage(RUSAGE_SELF, &u);
        sink += u.ru_minflt;
      }
      ns = (omp_get_wtime() - t0) / (double)calls * 1e9;
    }
#pragma omp barrier
  }
  printf("ok %d %.1f %d\n", threads, ns, sink > 0);
  return 0;
}
