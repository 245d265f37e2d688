// Orphaned worksharing in another translation unit (as in the bundled bt):
// the region is in one object, the `omp for` loops in a function of another
// object that never forks. Its loops are sampled all the same. scale() is
// called on a, then on b: each call is one invocation of its phase, over one
// array, so its footprint is one array (781.25 KiB), not both.
// RUN: %clang -O2 -fopenmp %pp_plugin -DPART_MAIN -c %s -o %t.main.o 2>/dev/null
// RUN: %clang -O2 -fopenmp %pp_plugin -c %s -o %t.sweep.o 2>/dev/null
// RUN: %clang -O2 -fopenmp %t.main.o %t.sweep.o -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 27:10=781.25 --fp 33:12=781.25 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define N 100000
void sweep(double *a, double *b, int steps);
#ifdef PART_MAIN
int main(void) {
  double *a = calloc(N, sizeof(double)), *b = calloc(N, sizeof(double));
#pragma omp parallel
  sweep(a, b, 3);
  printf("%g %g\n", a[N - 1], b[N - 1]);
  return 0;
}
#else
static void scale(double *x, double f) {
#pragma omp for schedule(static)
  for (long i = 0; i < N; ++i)
    x[i] *= f;
}
void sweep(double *a, double *b, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp for schedule(static)
    for (long i = 0; i < N; ++i)
      a[i] += 1.0;
    scale(a, 0.5);
    scale(b, 2.0);
  }
}
#endif
// OUT: 0.875 0
// CHECK:      phase 18:1 kind=parallel invocations=1 iterations={{45000[0-9]}} streams=0
// CHECK-NEXT: phase 31:1 kind=for invocations=3 iterations={{15000[0-3]}} streams=1
// CHECK-NEXT: stream 33:12 op=load+store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 25:1 kind=for invocations=6 iterations={{30000[0-6]}} streams=1
// CHECK-NEXT: stream 27:10 op=load+store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: footprint 27:10 ok
// CHECK-NEXT: footprint 33:12 ok
