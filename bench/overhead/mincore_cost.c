/* What the runtime's guarded-block check costs per block: mincore(2) over a
 * block's pages, called before and after each counted fork of a top-level
 * region while memory allocated only under a test of the thread count is
 * tracked (runtime/src/guards.cpp, resident). Half the block is resident,
 * as after a fork that touched part of it.
 *
 * Usage: mincore_cost PAGES CALLS. Prints: "ok <pages> <us per call>". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long pages = argc > 1 ? atol(argv[1]) : 433, calls = argc > 2 ? atol(argv[2]) : 10000;
  long page = sysconf(_SC_PAGESIZE);
  size_t bytes = (size_t)pages * (size_t)page;
  char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *vec = malloc((size_t)pages);
  if (p == MAP_FAILED || !vec || pages < 1 || calls < 1)
    return 1;
  memset(p, 1, bytes / 2);
  long sink = 0;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < calls; ++i) {
    if (mincore(p, bytes, vec) != 0)
      return 1;
    sink += vec[i % pages] & 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double us = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)calls / 1e3;
  printf("ok %ld %.4f %ld\n", pages, us, sink);
  return 0;
}
