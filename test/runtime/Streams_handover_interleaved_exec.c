// Hand-over of a store that walks several arrays an execution: the loop
// over m inside the split i loop writes a[m][i] for every m, so each
// thread's range of one invocation spans from its first row of a[0] to
// its last of a[M-1], the other thread's rows of a[1..M-2] inside it. A
// second loop rewrites the arrays split the same way: nothing is handed
// over. Marking the spans as written had read about 0.4 handed over
// (bench/results/short-loop-handover-2026-11-30-xeon-nloop.txt); the
// interleaved spans now mark only their sampled pages.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 OMP_PROC_BIND=close PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --handover | FileCheck %s
#include <stdio.h>
#define M 5
#define N 4096
static double a[M][N][16];
int main(void) {
#pragma omp parallel
  for (int s = 0; s < 40; s++) {
    for (int k = 0; k < 16; k++) {
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++)
        for (int m = 0; m < M; m++)
          a[m][i][k] = 0.5 * i + m + k;
    }
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++)
      for (int m = 0; m < M; m++)
        for (int k = 0; k < 16; k++)
          a[m][i][k] = a[m][i][k] * 0.999 + 0.001;
  }
  printf("sum %g\n", a[1][N / 2][3] + a[3][N / 3][5]);
  return 0;
}
// OUT: sum
// CHECK: phase 20:1
// CHECK-NOT: share=0.{{[1-9]}}
// CHECK: phase 25:1
// CHECK-NOT: share=0.{{[1-9]}}
