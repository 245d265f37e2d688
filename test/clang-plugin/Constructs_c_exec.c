// Every construct kind of C, found, classified, parented and counted.
// With 2 threads and static schedules the slowest thread's iterations are
// exact; dynamic/guided/runtime loops run with 1 thread for exact counts.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t > %t.out
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// RUN: env OMP_NUM_THREADS=1 PHASEPROBE_OUT=%t.1.json %t
// RUN: %python %pp_inputs/runtime/phases.py %t.1.json | FileCheck --check-prefix=ONE %s
#include <stdio.h>

static double a[200], b[200];

int main(void) {
  double s = 0;
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=100
#pragma omp parallel for
  for (int i = 0; i < 200; i++)
    a[i] = i;

// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=100
#pragma omp parallel for simd reduction(+ : s)
  for (int i = 0; i < 200; i++)
    s += a[i];

// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=parallel sections parent=- inv=1 threads=2
#pragma omp parallel sections
  {
#pragma omp section
    b[0] = 1;
#pragma omp section
    b[1] = 2;
  }

// CHECK: PHASE Constructs_c_exec.c:[[#REGION:]]:1 kind=parallel parent=- inv=1 threads=2
#pragma omp parallel
  {
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=for parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2 iters=200
#pragma omp for collapse(2)
    for (int i = 0; i < 20; i++)
      for (int j = 0; j < 20; j++)
        b[i * 10 + j / 2] += 1;
// ONE: PHASE Constructs_c_exec.c:[[#@LINE+2]]:1 kind=for parent={{.*}} inv=1 threads=1 iters=90
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=for parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2
#pragma omp for schedule(dynamic, 3) nowait
    for (int i = 0; i < 90; i++)
      a[i] += 1;
// ONE: PHASE Constructs_c_exec.c:[[#@LINE+2]]:1 kind=for parent={{.*}} inv=1 threads=1 iters=90
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=for parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2
#pragma omp for schedule(guided)
    for (int i = 0; i < 90; i++)
      a[i] += 1;
// ONE: PHASE Constructs_c_exec.c:[[#@LINE+2]]:1 kind=for parent={{.*}} inv=1 threads=1 iters=90
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=for parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2
#pragma omp for schedule(runtime)
    for (int i = 0; i < 90; i++)
      a[i] += 1;
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=sections parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2
#pragma omp sections
    {
#pragma omp section
      b[2] = 3;
#pragma omp section
      b[3] = 4;
    }
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=single parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2 iters=1
#pragma omp single
    b[4] = 5;
// CHECK: PHASE Constructs_c_exec.c:[[#@LINE+1]]:1 kind=master parent=Constructs_c_exec.c:[[#REGION]]:1 inv=1 threads=2 iters=50
#pragma omp master
    for (int i = 0; i < 50; i++)
      b[5] += i;
  }
  printf("%g %g %g\n", s, a[7], b[5]);
  return 0;
}
// CHECK: PHASES 11
