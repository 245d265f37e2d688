// exit() called by a worker thread inside a region still writes the phase
// file (the atexit hook runs once, on whichever thread exits), with the
// phases that completed before it; the exit code is the program's.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t; test $? -eq 5
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

static double a[100];

int main(void) {
// CHECK: PHASE Exit_thread_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=50
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    a[i] = i;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 1)
      exit(5);
    sleep(5); // the master would otherwise finish first
  }
  return 0;
}
// CHECK: PHASES 1
