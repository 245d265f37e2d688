// The same program built at -O0..-O3: the same phase ids, kinds, parents,
// invocations and iteration counts at every level. bt has a dynamic schedule,
// so its slowest thread's share is only deterministic with one thread.
// RUN: for O in 0 1 2 3; do \
// RUN:   %clang -O$O -fopenmp %pp_plugin %pp_src/examples/bt.c %pp_src/examples/bt_solve.c -o %t.O$O -lm %pp_rt && \
// RUN:   env OMP_NUM_THREADS=1 PHASEPROBE_OUT=%t.O$O.json %t.O$O 10 3 > %t.O$O.out && \
// RUN:   %python %pp_inputs/runtime/phases.py %t.O$O.json > %t.O$O.phases || exit 1; \
// RUN: done
// RUN: diff %t.O0.phases %t.O1.phases
// RUN: diff %t.O0.phases %t.O2.phases
// RUN: diff %t.O0.phases %t.O3.phases
// RUN: diff %t.O0.out %t.O3.out
// RUN: FileCheck %s < %t.O2.phases
// This file's own constructs (a countable loop with a call-free body that the
// vectorizer transforms at -O2/-O3) must count the same too.
// RUN: for O in 0 1 2 3; do \
// RUN:   %clang -O$O -fopenmp %pp_plugin %s -o %t.v$O %pp_rt && \
// RUN:   env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.v$O.json %t.v$O > /dev/null && \
// RUN:   %python %pp_inputs/runtime/phases.py %t.v$O.json > %t.v$O.phases || exit 1; \
// RUN: done
// RUN: diff %t.v0.phases %t.v2.phases
// RUN: diff %t.v0.phases %t.v3.phases
// RUN: FileCheck --check-prefix=VEC %s < %t.v3.phases
#include <stdio.h>

float x[4096], y[4096];

int main(void) {
// VEC: PHASE OptLevels_identical_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=2048
#pragma omp parallel for
  for (int i = 0; i < 4096; i++)
    y[i] = 2.0f * x[i] + y[i];
  // VEC: PHASE OptLevels_identical_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2 iters=1003
#pragma omp parallel
  {
    for (int r = 0; r < 1003; r++) // a non-multiple of any vector width
      x[r] += 1.0f;
  }
  printf("%f\n", y[7] + x[9]);
  return 0;
}
// CHECK: PHASE bt.c:{{[0-9]+}}:1 kind=parallel parent=- inv=1 threads=1 iters=108183
// CHECK: PHASE bt_solve.c:{{[0-9]+}}:1 kind=for parent=bt.c:{{[0-9]+}}:1 inv=3 threads=1
// CHECK: PHASES 9
