// Memory the program allocates only under a tested branch on the thread
// count (LULESH's per-element force arrays under `if (numthreads > 1)`)
// faults on its first touches only where the test holds: the runtime
// charges those faults of a top-level region to the test
// (guarded_page_faults), directly allocated or through a function of the
// module that returns what it allocates (whose own allocation, in a function
// only the branch calls, is under the test too). Memory allocated on both
// ways of the branch, at every count, or by a function also called outside
// the branch that returns something else than what it allocated is not
// charged. The program's output is the same
// with and without the plugin.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: env PHASEPROBE_OUT=%t.2.json OMP_NUM_THREADS=2 %t > %t.out
// RUN: env OMP_NUM_THREADS=2 %t.plain | diff - %t.out
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t > %t.1.out
// RUN: env OMP_NUM_THREADS=1 %t.plain | diff - %t.1.out
// RUN: %python %pp_inputs/clang-plugin/guarded_faults.py %t.2.json | FileCheck --check-prefix=TWO %s
// RUN: %python %pp_inputs/clang-plugin/guarded_faults.py %t.1.json | FileCheck --check-prefix=ONE %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s

// IR: call void @__phaseprobe_alloc_note(
// IR: call void @__phaseprobe_guarded_alloc(
// IR-DAG: declare extern_weak void @__phaseprobe_alloc_note(
// IR-DAG: declare extern_weak void @__phaseprobe_guarded_alloc(

// ONE-NOT: guarded
// ONE: regions: 3

#include <malloc.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 19) /* doubles: 4 MiB, 1024 pages of 4 KiB */
#define STEPS 3

static double *allocate(size_t n) { return (double *)malloc(sizeof(double) * n); }

// Returns memory inside the block, not the block: not taken for it where
// the block is not guarded itself (this is also called outside the branch).
static double *allocateAfterHeader(size_t n) {
  double *p = (double *)malloc(sizeof(double) * (n + 8));
  return p + 8;
}

int main(void) {
  // Every block of 4 MiB mapped afresh, so that each of its pages faults
  // (glibc would otherwise serve later ones from the heap it already has).
  mallopt(M_MMAP_THRESHOLD, 1 << 17);
  int numthreads = omp_get_max_threads();
  double sum = 0;
  for (int step = 0; step < STEPS; ++step) {
    double *a = 0, *b = 0, *c = (double *)malloc(sizeof(double) * N);
    if (numthreads > 1) {
      a = allocate(N);
      b = (double *)calloc(N, sizeof(double));
    }
// TWO: GuardedAllocs_exec.c:[[#@LINE+1]]:{{[0-9]+}} threads > 1: ok{{$}}
#pragma omp parallel for
    for (int i = 0; i < N; ++i) {
      c[i] = i;
      if (numthreads > 1) {
        a[i] = 2.0 * i;
        b[i] += 1.0;
      }
    }
    for (int i = 0; i < N; i += 512)
      sum += c[i] + (a ? a[i] + b[i] : 0);
    free(c);
    if (numthreads > 1) {
      free(a);
      free(b);
    }

    // Allocated on both ways: faults at every count.
    double *d;
    if (numthreads > 1)
      d = (double *)malloc(sizeof(double) * N);
    else
      d = (double *)malloc(sizeof(double) * N);
    double *e = 0, *f = allocateAfterHeader(16);
    if (numthreads > 1)
      e = allocateAfterHeader(N);
// TWO: GuardedAllocs_exec.c:[[#@LINE+1]]:{{[0-9]+}} none
#pragma omp parallel for
    for (int i = 0; i < N; ++i) {
      d[i] = i;
      if (e)
        e[i] = 1;
    }
    f[0] = step;
    sum += d[N / 2] + (e ? e[N / 3] : 0) + f[0];
    free(f - 8);
    free(d);
    if (e)
      free(e - 8);
  }
// TWO: GuardedAllocs_exec.c:[[#@LINE+1]]:{{[0-9]+}} none
#pragma omp parallel
  {
#pragma omp single
    sum += omp_get_num_threads();
  }
  printf("%.1f\n", sum);
  return 0;
}
// TWO: regions: 3
