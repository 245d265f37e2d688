// Reuse windows: a matrix product re-reads a row of A (a window of N
// accesses) in N consecutive executions of its inner loop, one per column
// of B, whose column moves every execution (no window). The runtime reports
// the row's window and its walks (within 25% of N: the repeats come from
// pairs of sampled executions 129 apart), and nothing for the column.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json; d = json.load(open('%t.json')); print(*sorted('%%s %%s %%s' %% (s['stride_bytes'], s.get('window_accesses'), 'near' if abs(s.get('window_repeats', 0) - 800) < 200 else s.get('window_repeats')) for p in d['phases'] for s in p['streams'] if s['significant']), sep='\n')" | FileCheck %s
// OUT: checksum
// CHECK: 6400 None None
// CHECK-NEXT: 8 800 near
#include <stdio.h>
#include <stdlib.h>
#define N 800

int main(void) {
  double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
  double *c = malloc(sizeof(double) * N * N);
  for (long i = 0; i < (long)N * N; ++i)
    a[i] = (double)(i % 7), b[i] = (double)(i % 5);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < N; ++k)
        s += a[(long)i * N + k] * b[(long)k * N + j];
      c[(long)i * N + j] = s;
    }
  double sum = 0;
  for (long i = 0; i < (long)N * N; ++i)
    sum += c[i];
  printf("checksum %g\n", sum);
  free(a), free(b), free(c);
  return 0;
}
