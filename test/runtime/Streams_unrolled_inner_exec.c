// A loop over elements around a 4-iteration loop whose loads do not move
// with it (LULESH's hourglass loop, lulesh.cc:782): the 4-iteration loop is
// unrolled whole by the optimizer, so the element loop is sampled with it.
// Each x8n[8*i+k] is one stream site of stride 64 over the whole array,
// sampled once per element (the unrolled loop loads it once), and the
// element loop's store out[i] is a stream too; sampled alone, the
// 4-iteration loop showed only the 256-byte table gam. The element loop
// calls a function whose own loop reads a 64-element row of b: it samples
// while the element loop, past its burst, waits for its end.
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 46:14=2048 --fp 48:14=256 --fp 30:10=16384 | FileCheck %s
// OUT: sum 2.09715e+06
// CHECK:      phase 42:1 kind=parallel for invocations=3 iterations=3342336 streams=4
// CHECK-NEXT: stream 30:10 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 46:14,47:14 op=load elem=8 stride=64 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 48:14 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 46:27,47:31 op=load elem=8 stride=64 second=192 access=shared pattern=strided significant=false
// CHECK-NEXT: footprint 46:14 ok
// CHECK-NEXT: footprint 48:14 ok
// CHECK-NEXT: footprint 30:10 ok
#include <stdio.h>
#include <stdlib.h>
#define N 32768
static double gam[4][8];

static double sum_row(const double *r) {
  double s = 0;
  for (int j = 0; j < 64; ++j)
    s += r[j];
  return s;
}

int main(void) {
  double *x8n = malloc(sizeof(double) * N * 8), *b = malloc(sizeof(double) * N * 64);
  double *out = malloc(sizeof(double) * N), sum = 0;
  for (long i = 0; i < (long)N * 8; ++i) x8n[i] = 1;
  for (long i = 0; i < (long)N * 64; ++i) b[i] = 1;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 8; ++j) gam[k][j] = (k + j) % 2 ? 1 : -1;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel for
    for (long i = 0; i < N; ++i) {
      double h = 0;
      for (int k = 0; k < 4; ++k)
        h += x8n[8 * i] * gam[k][0] +
             x8n[8 * i + 1] * gam[k][1];
      out[i] = h + sum_row(b + 64 * i);
    }
  }
  for (long i = 0; i < N; ++i)
    sum += out[i];
  printf("sum %g\n", sum);
  return 0;
}
