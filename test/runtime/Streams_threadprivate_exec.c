// A threadprivate array is program memory like any other: NPB EP streams
// through its 1 MB threadprivate x[] in its one heavy phase, and while the
// pass left every thread-local global out (not only phaseprobe's counters)
// that phase had no stream and stayed unmatched. Here each thread sums its
// own 512 KiB copy: one private stream of 512 KiB per thread (1024 KiB for
// the team of two), stride 8.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 28:14=1024 | FileCheck %s
#include <stdio.h>
#define N 65536
static double x[N];
#pragma omp threadprivate(x)

int main(void) {
  double s = 0;
#pragma omp parallel
  for (int i = 0; i < N; ++i)
    x[i] = 1;
  for (int rep = 0; rep < 8; ++rep) {
#pragma omp parallel reduction(+ : s)
    {
      // A call the loop cannot see through keeps the optimizer from
      // folding the sums of this constant array away.
      double t = 0;
      __asm__ volatile("" ::: "memory");
      for (int i = 0; i < N; ++i)
        t += x[i];
      s += t;
    }
  }
  printf("sum %g\n", s);
  return 0;
}
// OUT: sum 1.04858e+06
// CHECK: phase 17:1 kind=parallel invocations=1 iterations=65536 streams=1
// CHECK-NEXT: stream 19:10 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 21:1 kind=parallel invocations=8 iterations=524288 streams=1
// CHECK-NEXT: stream 28:14 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: footprint 28:14 ok
