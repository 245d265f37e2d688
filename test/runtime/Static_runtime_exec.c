// The static runtime (libphaseprobe_rt.a) gives the same phases as the shared
// one, linked by the C driver (the runtime needs nothing from libstdc++).
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt_static
// RUN: ldd %t | not grep phaseprobe_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// OUT: 9900
#include <stdio.h>

int main(void) {
  long s = 0;
// CHECK: PHASE Static_runtime_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=50
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 100; i++)
    s += 2 * i;
  printf("%ld\n", s);
  return 0;
}
// CHECK: PHASES 1
