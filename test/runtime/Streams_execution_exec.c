// Accesses per loop execution: a sweep shaped like the example bt's y
// solve walks a plane at a time, 64 accesses STRIDE elements apart an
// execution, then the next line of the plane, while its stream spans every
// plane. The runtime reports 64 accesses an execution (within 10%) beside a
// footprint of all the planes (10 MiB; MiB printed), and the same for a unit-stride loop of 256
// accesses an execution.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json; d = json.load(open('%t.json')); print(*sorted('%%s %%s %%s' %% (s['stride_bytes'], round(s['footprint_kib'] / 1024), 'near' if abs(s.get('accesses_per_execution', 0) / {2560: 64, 8: 256}.get(s['stride_bytes'], 1) - 1) < 0.1 else s.get('accesses_per_execution')) for p in d['phases'] for s in p['streams'] if s['significant']), sep='\n')" | FileCheck %s
// OUT: checksum
// CHECK: 2560 10 near
// CHECK-NEXT: 8 2 near
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define STRIDE 320 /* elements: 5 x N, one row of a plane */
#define PLANES 64

int main(void) {
  long n = (long)PLANES * N * STRIDE;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * 262144);
  for (long i = 0; i < n; ++i)
    a[i] = (double)(i % 7);
  for (long i = 0; i < 262144; ++i)
    b[i] = (double)(i % 5);
  for (int rep = 0; rep < 4; ++rep) {
#pragma omp parallel for schedule(static)
    for (int k = 0; k < PLANES; ++k)
      for (int i = 0; i < STRIDE; ++i)
        for (int j = 1; j < N + 1; ++j) {
          long p = ((long)k * N + (j - 1)) * STRIDE + i;
          a[p] = a[p] * 0.5 + 1.0;
        }
#pragma omp parallel for schedule(static)
    for (int r = 0; r < 1024; ++r)
      for (int j = 0; j < 256; ++j)
        b[(long)r * 256 + j] += 1.0;
  }
  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += a[i];
  for (long i = 0; i < 262144; ++i)
    sum += b[i];
  printf("checksum %g\n", sum);
  free(a), free(b);
  return 0;
}
