/* What one read of each clock the runtime may time its probes with costs
 * (runtime/src/clock.h): clock_gettime(CLOCK_MONOTONIC), through the vDSO,
 * and the time-stamp counter (RDTSC), each read READS times in a loop that
 * keeps every value.
 *
 * Usage: clock_cost READS. Prints: "ok <ns per clock_gettime> <ns per rdtsc>"
 * (the rdtsc figure is 0 where the machine has no time-stamp counter). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  long reads = argc > 1 ? atol(argv[1]) : 10000000;
  if (reads < 1)
    return 2;
  volatile uint64_t sink = 0;
  double t0 = seconds();
  for (long i = 0; i < reads; ++i) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    sink += (uint64_t)t.tv_nsec;
  }
  double t1 = seconds(), tsc = 0;
#if defined(__x86_64__)
  for (long i = 0; i < reads; ++i)
    sink += __rdtsc();
  tsc = (seconds() - t1) / (double)reads * 1e9;
#endif
  printf("ok %.2f %.2f\n", (t1 - t0) / (double)reads * 1e9, tsc);
  return 0;
}
