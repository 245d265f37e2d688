// Accesses per loop execution: a sweep shaped like the example bt's y
// solve walks a plane at a time, 64 accesses STRIDE elements apart an
// execution, then the next line of the plane, while its stream spans every
// plane. The runtime reports 64 accesses an execution (within 10%) beside a
// footprint of all the planes (10 MiB; MiB printed), and the same for a unit-stride loop of 256
// accesses an execution. The sweep walks on from one execution to the next
// (the row loop too, where it has pairs of sampled executions: 2 a thread
// and invocation); a lookup shaped like RSBench's, 9 poles of 72 B from a
// random place of a 5 MiB table an execution, jumps (its jump share above
// 3/4, core's startsJump; the place a hash of the lookup, no pace in it).
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json; d = json.load(open('%t.json')); print(*sorted('%%s %%s %%s %%s' %% (s['stride_bytes'], round(s['footprint_kib'] / 1024), 'near' if abs(s.get('accesses_per_execution', 0) / {2560: 64, 8: 256, 72: 9}.get(s['stride_bytes'], 1) - 1) < 0.1 else s.get('accesses_per_execution'), 'jumps' if s.get('jump_share', 0) > 0.75 else 'walks-on' if 'jump_share' in s else 'no-share') for p in d['phases'] for s in p['streams'] if s['significant']), sep='\n')" | FileCheck %s
// OUT: checksum
// CHECK: 2560 10 near walks-on
// CHECK-NEXT: 72 5 near jumps
// CHECK-NEXT: 8 2 near {{(walks-on|no-share)}}
#include <stdio.h>
#include <stdlib.h>
#define N 64
#define STRIDE 320 /* elements: 5 x N, one row of a plane */
#define PLANES 64
#define POLES (5L * 1024 * 1024 / 72)
#define FIELDS 9 /* doubles a pole: 72 B */
#define WINDOW 9 /* poles a lookup reads */

int main(void) {
  long n = (long)PLANES * N * STRIDE;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * 262144);
  double *poles = malloc(sizeof(double) * POLES * FIELDS), *xs = malloc(sizeof(double) * 65536);
  for (long i = 0; i < POLES * FIELDS; ++i)
    poles[i] = (double)(i % 11);
  volatile int window_v = WINDOW; /* not unrolled whole, as RSBench's is not */
  int window = window_v;
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
    for (int l = 0; l < 65536; ++l) {
      unsigned long h = (unsigned long)l * 0x9E3779B97F4A7C15UL + (unsigned long)rep;
      h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9UL;
      h ^= h >> 29;
      long w = (long)(h % (POLES - WINDOW));
      double x = 0;
      for (int p = 0; p < window; ++p)
        x += poles[(w + p) * FIELDS];
      xs[l] = x;
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
  for (long i = 0; i < 65536; ++i)
    sum += xs[i];
  printf("checksum %g\n", sum);
  free(a), free(b), free(poles), free(xs);
  return 0;
}
