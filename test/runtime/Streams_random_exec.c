// An indirect (gather) access a[idx[i]] with random indices: the index
// stream keeps its stride (4 bytes, int), the gathered stream is random and
// its footprint, from sampled extremes, is close to the whole table.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 22:12=1024 --fp 22:10=512 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define N (1 << 18)
#define M (1 << 16)
int main(void) {
  int *idx = malloc(sizeof(int) * N);
  double *a = malloc(sizeof(double) * M), s = 0;
  unsigned x = 12345;
  for (long i = 0; i < N; ++i) {
    x = x * 1103515245u + 12345u;
    idx[i] = (int)((x >> 8) % M);
  }
  for (long i = 0; i < M; ++i) a[i] = 1;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < N; ++i)
    s += a[idx[i]];
  printf("%g\n", s);
  return 0;
}
// OUT: 262144
// CHECK:      phase 20:1 kind=parallel for invocations=1 iterations={{13107[23]}} streams=2
// CHECK-NEXT: stream 22:12 op=load elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 22:10 op=load elem=8 stride={{[0-9]+}} second=- access=shared pattern=random significant=true
// CHECK:      footprint 22:12 ok
// CHECK-NEXT: footprint 22:10 ok
