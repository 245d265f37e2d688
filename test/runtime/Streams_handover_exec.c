// Hand-over: one matrix written by rows, then updated by columns, then read
// by rows, each a worksharing loop. At two threads the column sweep finds
// half of its lines last written by the other thread (the rows below or
// above its own), and so does the row sweep after it; the row sweep that
// writes comes after the one that reads, so each thread holds a copy of the
// lines it writes: none. The vector every row reads is written by serial
// code, no phase: no share. At one thread nothing is handed over.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 OMP_PROC_BIND=close PHASEPROBE_SAMPLE_PERIOD=50 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --handover | FileCheck %s
// RUN: env OMP_NUM_THREADS=1 PHASEPROBE_SAMPLE_PERIOD=50 PHASEPROBE_OUT=%t1.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t1.json --handover | FileCheck --check-prefix=ONE %s
#include <stdio.h>
#include <stdlib.h>
#define N 512
int main(void) {
  double *a = malloc(sizeof(double) * N * N), *v = malloc(sizeof(double) * N);
  for (int j = 0; j < N; ++j)
    v[j] = 1;
  double s = 0;
  for (int rep = 0; rep < 40; ++rep) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        a[(long)i * N + j] = v[j] + i;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        a[(long)i * N + j] *= 0.5;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        s += a[(long)i * N + j];
  }
  printf("sum %g\n", s);
  return 0;
}
// OUT: sum
// CHECK: phase 22:1
// CHECK: handover 25:{{[0-9]+}} share=0.0
// CHECK-NEXT: stream 25:{{[0-9]+}} op=load
// CHECK-NEXT: phase 26:1
// CHECK: handover 29:{{[0-9]+}} share=0.5
// CHECK: phase 30:1
// CHECK: handover 33:{{[0-9]+}} share=0.5
// ONE: handover 25:{{[0-9]+}} share=0.0
// ONE: handover 29:{{[0-9]+}} share=0.0
// ONE: handover 33:{{[0-9]+}} share=0.0
