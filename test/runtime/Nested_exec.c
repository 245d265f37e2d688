// Nested parallel regions (decided: the inner region is its own phase, child
// of the outer one; its time is also inside the outer region's time; its
// invocations count every fork, one per outer thread that forks it; its time
// is the largest fork-to-join sum of one forking thread).
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py --nested %t.json | FileCheck %s
// Inactive nesting (the default: one active level) still makes the inner
// region a phase, with a team of one.
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=1 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py --nested %t.1.json | FileCheck --check-prefix=INACTIVE %s
// OUT: total=720
#include <stdio.h>

int main(void) {
  long total = 0;
// CHECK: PHASE Nested_exec.c:[[#OUTER:@LINE+2]]:1 kind=parallel parent=- inv=1 threads=2
// INACTIVE: PHASE Nested_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2
#pragma omp parallel reduction(+ : total) num_threads(2)
  {
// CHECK: PHASE Nested_exec.c:[[#@LINE+2]]:1 kind=parallel for parent=Nested_exec.c:[[#OUTER]]:1 inv=2 threads=2 iters=20
// INACTIVE: PHASE Nested_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=Nested_exec.c:{{[0-9]+}}:1 inv=2 threads=1 iters=40
#pragma omp parallel for reduction(+ : total) num_threads(2)
    for (int i = 0; i < 40; i++)
      total += i % 10;
// The outer threads fork this one in turn, so the OpenMP runtime lends the
// first fork's worker to the second: the time is one forker's, and so are
// the iterations (20 per member per fork, not that worker's 40).
// CHECK: PHASE Nested_exec.c:[[#@LINE+3]]:1 kind=parallel for parent=Nested_exec.c:[[#OUTER]]:1 inv=2 threads=2 iters=20
// INACTIVE: PHASE Nested_exec.c:[[#@LINE+2]]:1 kind=parallel for parent=Nested_exec.c:{{[0-9]+}}:1 inv=2 threads=1 iters=40
#pragma omp critical
#pragma omp parallel for reduction(+ : total) num_threads(2)
    for (int i = 0; i < 40; i++)
      total += i % 10;
  }
  printf("total=%ld\n", total);
  return 0;
}
// CHECK: PHASES 3
