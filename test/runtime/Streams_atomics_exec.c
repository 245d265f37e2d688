// Atomic updates are streams, and the loop around them is the work: an
// atomic add on a double is a compare-and-swap retry loop in clang's IR,
// which left the loop around it without counted iterations (1 for the
// phase), without streams and without its add; an atomic add on an integer
// is an atomicrmw, which was no sampled access. Both histograms are a load
// and a store of their element (one load+store stream, shared: every
// thread updates the whole array).
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLING=off PHASEPROBE_OUT=%t.off.json %t > /dev/null
// RUN: %python %S/Streams_check.py %t.json --off %t.off.json --fp 26:5=781.25 --fp 31:5=781.25 | FileCheck %s
// RUN: %python -c "import json; [print('ops', p['line'], p['ops']['add']) for p in json.load(open('%t.json'))['phases']]" | FileCheck --check-prefix=OPS %s
#include <stdio.h>
#include <stdlib.h>
#define N 2000000
#define M 100000
int main(void) {
  double *h = calloc(M, sizeof(double)), *v = malloc(N * sizeof(double));
  long *c = calloc(M, sizeof(long));
  int *idx = malloc(N * sizeof(int));
  for (long i = 0; i < N; ++i)
    idx[i] = (int)((i * 7919) % M), v[i] = 1.0;
#pragma omp parallel for
  for (long i = 0; i < N; ++i) {
#pragma omp atomic
    h[idx[i]] += v[i];
  }
#pragma omp parallel for
  for (long i = 0; i < N; ++i) {
#pragma omp atomic
    c[idx[i]] += 1;
  }
  double s = 0;
  long t = 0;
  for (long i = 0; i < M; ++i)
    s += h[i], t += c[i];
  printf("%g %ld\n", s, t);
  return 0;
}
// OUT: 2e+06 2000000
// CHECK:      phase 23:1 kind=parallel for invocations=1 iterations=1000000 streams=3
// CHECK-NEXT: stream 26:18 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 26:7 op=load elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 26:5 op=load+store elem=8 stride=63352 second=736648 access=shared pattern=strided significant=true
// CHECK-NEXT: phase 28:1 kind=parallel for invocations=1 iterations=1000000 streams=2
// CHECK-NEXT: stream 31:7 op=load elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 31:5 op=load+store elem=8 stride=63352 second=736648 access=shared pattern=strided significant=true
// CHECK:      same iterations 23:1 yes
// CHECK:      same iterations 28:1 yes
// CHECK:      footprint 26:5 ok
// CHECK-NEXT: footprint 31:5 ok
// OPS: ops 23 1
// OPS: ops 28 0
