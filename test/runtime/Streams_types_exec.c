// Element sizes and load/store: float stores, int and double loads, and an
// update in place whose load and store sites merge into one load+store
// stream. One invocation, static schedule: iterations are exact.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 19:10=390.625 --fp 19:19=390.625 --fp 19:33=781.25 --fp 22:10=3125 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define N 100000
int main(void) {
  float *f = malloc(sizeof(float) * N);
  int *x = malloc(sizeof(int) * N);
  double *d = malloc(sizeof(double) * N);
  long long *u = malloc(sizeof(long long) * N * 4);
  for (long i = 0; i < N; ++i) x[i] = (int)i, d[i] = 0.5;
  for (long i = 0; i < N * 4; ++i) u[i] = i;
#pragma omp parallel for
  for (long i = 0; i < N; ++i)
    f[i] = (float)x[i] + (float)d[i];
#pragma omp parallel for
  for (long i = 0; i < N * 4; ++i)
    u[i] += 3;
  printf("%g %lld\n", f[N - 1], u[N * 4 - 1]);
  return 0;
}
// OUT: 99999.5 400002
// CHECK:      phase 17:1 kind=parallel for invocations=1 iterations=50000 streams=3
// CHECK-NEXT: stream 19:33 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 19:10 op=store elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 19:19 op=load elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 20:1 kind=parallel for invocations=1 iterations=200000 streams=1
// CHECK-NEXT: stream 22:10 op=load+store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK:      footprint 19:10 ok
// CHECK-NEXT: footprint 19:19 ok
// CHECK-NEXT: footprint 19:33 ok
// CHECK-NEXT: footprint 22:10 ok
