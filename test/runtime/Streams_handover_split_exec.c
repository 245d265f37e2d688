// Hand-over under one static split: one worksharing loop, called on two
// vectors in turn, each thread updating its own block of both. Nothing is
// handed over, though bursts sample the start of each thread's block and
// thread 1's block starts in a page thread 0 wrote the first lines of (the
// split is not page-aligned): its reads there are its own lines (HPCCG's
// waxpby read 0.25 before the runtime knew where the blocks meet).
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 OMP_PROC_BIND=close PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --handover | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define N (32768 + 100)
static void update(double *w, double b) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++)
    w[i] = w[i] + b * w[i];
}
int main(void) {
  double *p = malloc(sizeof(double) * N), *r = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++)
    p[i] = r[i] = i;
  for (int k = 0; k < 150; k++) {
    update(p, 0.5);
    update(r, -0.25);
  }
  printf("sum %g\n", p[N / 2] + r[N / 3]);
  return 0;
}
// OUT: sum
// CHECK: phase 14:1
// CHECK: handover {{.*}} share=0.0
// CHECK-NOT: share=0.{{[1-9]}}
