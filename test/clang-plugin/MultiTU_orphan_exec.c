// Two translation units: orphaned `omp for` in the other unit is a phase whose
// parent is the region found at run time; a header inline region used by both
// units is one phase; loops of called serial functions count for the caller.
// RUN: %clang -O2 -fopenmp %pp_plugin -I%pp_inputs/clang-plugin -c %s -o %t.a.o
// RUN: %clang -O2 -fopenmp %pp_plugin -I%pp_inputs/clang-plugin -c %pp_inputs/clang-plugin/orphan_tu.c -o %t.b.o
// RUN: %clang -fopenmp %t.a.o %t.b.o -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
#include "inline_kernel.h"
#include <stdio.h>

void scale(double *v, int n, double f);
double serial_dot(const double *v, int n);
double tu2_header(const double *v, int n);

static double v[1000];

int main(void) {
  for (int i = 0; i < 1000; i++)
    v[i] = 1.0;
  double d = 0;
// The region: its body calls the orphaned loop three times and a serial
// function with 1000 iterations once per thread; the r loop itself is an
// innermost loop of the region body (3 more).
// CHECK-DAG: PHASE MultiTU_orphan_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2 iters=2503
#pragma omp parallel reduction(+ : d)
  {
    for (int r = 0; r < 3; r++)
      scale(v, 1000, 2.0);
    d += serial_dot(v, 1000);
  }
  double h = header_sum(v, 1000) + tu2_header(v, 1000);
  printf("%g %g\n", d, h);
  return 0;
}
// OUT: 128000 {{.*}}
// CHECK-DAG: PHASE inline_kernel.h:6:1 kind=parallel for parent=- inv=2 threads=2 iters=1000
// CHECK-DAG: PHASE orphan_tu.c:6:1 kind=for parent=MultiTU_orphan_exec.c:[[#]]:1 inv=3 threads=2 iters=1500
// CHECK: PHASES 3
