// Pragmas as real code writes them: split with '\', inside #ifdef, unbraced
// bodies, a `parallel for` as the unbraced body of an if, simd inside a
// parallel for, and a `target` construct compiled for the host.
// RUN: %clang -O1 -fopenmp -DWITH_EXTRA %pp_plugin %s -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t 1 | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
#include <stdio.h>

static int a[64];

int main(int argc, char **argv) {
  (void)argv;
// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=32
#pragma omp parallel \
    for schedule(static) \
    shared(a)
  for (int i = 0; i < 64; i++)
    a[i] = i;

#ifdef WITH_EXTRA
// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=32
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    a[i] += 1;
#endif
#ifdef NOT_DEFINED
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    a[i] = -1;
#endif

  int hits = 0;
// A parallel whose body is one unbraced statement: no loop, 1 per thread.
// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2 iters=1
#pragma omp parallel reduction(+ : hits)
  hits += 1;

  if (argc > 1)
// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=32
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
      a[i] *= 2;
  else
    a[0] = -100;

// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2
#pragma omp parallel
  {
// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=for parent=Pragma_forms_exec.c:[[#@LINE-2]]:1 inv=1 threads=2 iters=32
#pragma omp for simd
    for (int i = 0; i < 64; i++)
      a[i] += 3;
  }

// CHECK-DAG: PHASE Pragma_forms_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=32
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < 64; i++)
    a[i] -= 1;

  long sum = 0;
  for (int i = 0; i < 64; i++)
    sum += a[i];
  printf("hits=%d sum=%ld\n", hits, sum);
  return 0;
}
// OUT: hits=2 sum=4288
// CHECK: PHASES 7
