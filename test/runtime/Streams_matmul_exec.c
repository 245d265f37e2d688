// Matrix multiply, rows split between threads: the column stream b[k][j]
// has stride n*8 and is shared, the row stream a[i][k] has stride 8 and is
// private; both span the whole n x n matrix (312.5 KiB for n = 200). The
// sum stays in a register and c[i][j] is written outside the innermost
// loop, so neither is a stream.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 31:13=312.5 --fp 31:28=312.5 | FileCheck %s
// The same streams at -O0 and -O3 (sampling happens before optimization):
// RUN: %clang -O0 -fopenmp %pp_plugin %s -o %t.O0 %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.O0.json %t.O0 | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.O0.json --fp 31:13=312.5 --fp 31:28=312.5 | FileCheck %s
// RUN: %clang -O3 -fopenmp %pp_plugin %s -o %t.O3 %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.O3.json %t.O3 | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.O3.json --fp 31:13=312.5 --fp 31:28=312.5 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define N 200
int main(void) {
  double *a = malloc(sizeof(double) * N * N);
  double *b = malloc(sizeof(double) * N * N);
  double *c = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; ++i)
    a[i] = 1, b[i] = 2;
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < N; ++k)
        s +=
            a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
  printf("%g\n", c[N * N - 1]);
  return 0;
}
// OUT: 400
// CHECK:      phase 25:1 kind=parallel for invocations=1 iterations=4000000 streams=2
// CHECK-DAG:  stream 31:28 op=load elem=8 stride=1600 second=- access=shared pattern=strided significant=true
// CHECK-DAG:  stream 31:13 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK:      footprint 31:13 ok
// CHECK-NEXT: footprint 31:28 ok
