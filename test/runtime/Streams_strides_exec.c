// Strided reads at 8, 64 and 4096 bytes: each stream's dominant stride and
// element size are exact, its footprint is (n-1)*stride+8 bytes although
// bursts see only 128 of each thread's 4096 iterations, and the iteration
// counts are the slowest thread's (3 invocations x 8192/2; the phase
// runtime currently adds the serial repetition loop's latch, up to 3 more)
// and the same with sampling off.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLING=off PHASEPROBE_OUT=%t.off.json %t
// RUN: %python %S/Streams_check.py %t.json --off %t.off.json --fp 33:12=64 --fp 38:12=511.9453125 --fp 43:12=32764.0078125 | FileCheck %s
// OUT: sum 0
// CHECK:      phase 31:1 kind=parallel for invocations=3 iterations=[[IT:1228[89]|1229[01]]] streams=1
// CHECK-NEXT: stream 33:12 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 36:1 kind=parallel for invocations=3 iterations=[[IT]] streams=1
// CHECK-NEXT: stream 38:12 op=load elem=8 stride=64 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 41:1 kind=parallel for invocations=3 iterations=[[IT]] streams=1
// CHECK-NEXT: stream 43:12 op=load elem=8 stride=4096 second=- access=private pattern=strided significant=true
// CHECK:      same iterations 31:1 yes
// CHECK-NEXT: same iterations 36:1 yes
// CHECK-NEXT: same iterations 41:1 yes
// CHECK-NEXT: no streams when off: yes
// CHECK-NEXT: footprint 33:12 ok
// CHECK-NEXT: footprint 38:12 ok
// CHECK-NEXT: footprint 43:12 ok
#include <stdio.h>
#include <stdlib.h>
#define N 8192
int main(void) {
  double *a = calloc((size_t)N * 512, sizeof(double)), s = 0;
  for (int r = 0; r < 3; ++r) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < N; ++i)
      s += a[i];
  }
  for (int r = 0; r < 3; ++r) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < N; ++i)
      s += a[i * 8];
  }
  for (int r = 0; r < 3; ++r) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < N; ++i)
      s += a[i * 512];
  }
  printf("sum %g\n", s);
  free(a);
  return 0;
}
