// Without location tracking (no -Rpass=phaseprobe, no -g) clang's OpenMP
// idents carry no source location: one warning per object, and ids fall back
// to <file>:0:<n>, still unique and stable. With -g the debug locations are
// used instead.
// RUN: %clang -O2 -fopenmp -fplugin=%pp_bin/../lib/libphaseprobe.so %s -o %t %pp_rt 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// RUN: %clang -O2 -g -fopenmp -fplugin=%pp_bin/../lib/libphaseprobe.so %s -o %t.g %pp_rt 2>&1 | count 0
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.g.json %t.g
// RUN: %python %pp_inputs/runtime/phases.py %t.g.json | FileCheck --check-prefix=G %s
// WARN: phaseprobe: warning: {{.*}}Locations_fallback.c: clang did not record the source locations of OpenMP constructs
#include <stdio.h>

int main(void) {
  double s = 0;
// G: PHASE Locations_fallback.c:[[#@LINE+1]]:1 kind=parallel for
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 100; i++)
    s += i;
  printf("%g\n", s);
  return 0;
}
// The combined loop is not recognised without locations: region + loop.
// CHECK: PHASE Locations_fallback.c:0:{{[0-9]+}} kind=parallel parent=- inv=1 threads=2 iters=50
// CHECK: PHASE Locations_fallback.c:0:{{[0-9]+}} kind=for parent=Locations_fallback.c:0:{{[0-9]+}} inv=1 threads=2 iters=50
// CHECK: PHASES 2
