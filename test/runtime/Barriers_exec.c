// Barriers a region crosses (phase file "barriers", regions only): the
// implicit barrier of every worksharing construct without nowait (here or in
// a function the region calls), every explicit barrier, and the join; nowait
// constructs and master add none; a reduction without nowait adds its own.
// The estimator prices them apart from work.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// One thread: the same barriers are crossed.
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.1.json | FileCheck %s
// OUT: sum=35350
#include <stdio.h>

static double a[100];

static void orphaned(void) {
#pragma omp for
  for (int i = 0; i < 100; i++)
    a[i] += 1;
}

int main(void) {
  double sum = 0;
  for (int rep = 0; rep < 5; rep++) {
// Per invocation: for, single, barrier, orphaned for, join = 5.
// CHECK: PHASE Barriers_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=5 threads={{[12]}} iters={{[0-9]+}} barriers=25
#pragma omp parallel
    {
#pragma omp for
      for (int i = 0; i < 100; i++)
        a[i] = i;
#pragma omp for nowait
      for (int i = 0; i < 100; i++)
        a[i] += 0;
#pragma omp single
      a[0] += 0;
#pragma omp barrier
#pragma omp master
      a[1] += 0;
      orphaned();
    }
  }
  for (int rep = 0; rep < 3; rep++) {
// CHECK: PHASE Barriers_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=3 threads={{[12]}} iters={{[0-9]+}} barriers=3
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 100; i++)
      sum += a[i];
  }
  for (int rep = 0; rep < 4; rep++) {
// A reduction without nowait: its own barrier and the loop's = 2.
// CHECK: PHASE Barriers_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=4 threads={{[12]}} iters={{[0-9]+}} barriers=12
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum)
      for (int i = 0; i < 100; i++)
        sum += a[i];
    }
  }
  printf("sum=%g\n", sum);
  return 0;
}
