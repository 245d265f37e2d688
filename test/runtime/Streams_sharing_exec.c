// Shared vs private: a region where every thread reads the whole matrix
// (shared), and a worksharing loop over rows (the matrix is private, each
// thread's rows are its own) that also reads one vector in every row
// (shared, 8 KiB, not significant). Footprints within 3%.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 20:12=2048 --fp 24:14=2048 --fp 24:35=8 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define R 256
#define C 1024
int main(void) {
  double *m = malloc(sizeof(double) * R * C), *v = malloc(sizeof(double) * C);
  double s = 0;
  for (long i = 0; i < (long)R * C; ++i) m[i] = 1;
  for (int i = 0; i < C; ++i) v[i] = 2;
  for (int rep = 0; rep < 4; ++rep) {
#pragma omp parallel reduction(+ : s)
    for (long i = 0; i < (long)R * C; ++i)
      s += m[i];
#pragma omp parallel for reduction(+ : s)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c)
        s += m[(long)r * C + c] * v[c];
  }
  printf("sum %g\n", s);
  return 0;
}
// OUT: sum 4.1943e+06
// CHECK:      phase 18:1 kind=parallel invocations=4 iterations={{10485(7[6-9]|80)}} streams=1
// CHECK-NEXT: stream 20:12 op=load elem=8 stride=8 second=- access=shared pattern=strided significant=true
// CHECK-NEXT: phase 21:1 kind=parallel for invocations=4 iterations={{5242(8[89]|9[0-2])}} streams=2
// CHECK-NEXT: stream 24:14 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 24:35 op=load elem=8 stride=8 second=- access=shared pattern=strided significant=false
// CHECK-NEXT: footprint 20:12 ok
// CHECK-NEXT: footprint 24:14 ok
// CHECK-NEXT: footprint 24:35 ok
// On one thread the worksharing loop's halves stand for two threads'
// shares: the matrix rows private, the vector shared, as on two. The
// region that does not split its work cannot tell: private.
// RUN: env OMP_NUM_THREADS=1 PHASEPROBE_OUT=%t1.json %t | FileCheck --check-prefix=ONE-OUT %s
// RUN: %python %S/Streams_check.py %t1.json --fp 20:12=2048 --fp 24:14=2048 --fp 24:35=8 | FileCheck --check-prefix=ONE %s
// ONE-OUT: sum 3.14573e+06
// ONE:      stream 20:12 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// ONE:      stream 24:14 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// ONE-NEXT: stream 24:35 op=load elem=8 stride=8 second=- access=shared pattern=strided significant=false
// ONE-NEXT: footprint 20:12 ok
// ONE-NEXT: footprint 24:14 ok
// ONE-NEXT: footprint 24:35 ok
