// A unit-stride float loop that -O3 vectorizes still reports element 4 and
// stride 4: the sampled clone is instrumented before vectorization and is
// itself never vectorized, while the original loop still is, at the same
// width as without phaseprobe (4 floats in 128-bit vectors: the clone's
// iteration count must not flow into the original loop's counter).
// RUN: %clang -O3 -fopenmp %pp_plugin -Rpass=loop-vectorize -Rpass-missed=loop-vectorize %s -o %t %pp_rt 2>&1 | FileCheck --check-prefix=VEC %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 20:10=4096 --fp 20:12=4096 | FileCheck %s
// VEC-DAG: 18:1: remark: vectorized loop (vectorization width: 4,
// VEC-DAG: 18:1: remark: loop not vectorized: vectorization is explicitly disabled
#include <stdio.h>
#include <stdlib.h>
#define N (1 << 20)
int main(void) {
  float *a = malloc(sizeof(float) * N), *b = malloc(sizeof(float) * N);
  for (long i = 0; i < N; ++i)
    b[i] = (float)i;
#pragma omp parallel for
  for (long i = 0; i < N; ++i)
    a[i] = b[i] * 0.5f;
  printf("%g\n", a[N - 2]);
  return 0;
}
// OUT: 524287
// CHECK:      phase 18:1 kind=parallel for invocations=1 iterations=524288 streams=2
// CHECK-NEXT: stream 20:{{10|12}} op={{load|store}} elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 20:{{10|12}} op={{load|store}} elem=4 stride=4 second=- access=private pattern=strided significant=true
// CHECK:      footprint 20:10 ok
// CHECK-NEXT: footprint 20:12 ok
