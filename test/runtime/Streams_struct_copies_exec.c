// Structs copied by value are streams: clang copies a struct with a memcpy
// (a memset to clear one), and the fields the loop then reads are loads of
// a local copy. Each copy is one access of its first word: 72-byte structs
// of doubles walk a stride of 72 in 8-byte elements, 12-byte structs of
// floats a stride of 12 in 4-byte ones; a copy's destination in program
// memory is a store. Copies longer than 256 bytes are bulk copies, not
// sampled (their first word would not describe them).
// RUN: %clang -O2 -fopenmp -Rpass=phaseprobe %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --fp 41:14=4218.75 --fp 46:12=5625 --fp 49:5=5625 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N 60000
typedef struct {
  double a, b, c, d, e, f, g, h;
  short l;
} Pole; // 72 bytes
typedef struct {
  float x, y, z;
} Vec; // 12 bytes
typedef struct {
  double v[40];
} Big; // 320 bytes
int main(void) {
  Pole *p = malloc(sizeof(Pole) * N);
  Vec *u = malloc(sizeof(Vec) * N * 8), *w = malloc(sizeof(Vec) * N * 8);
  Big *big = malloc(sizeof(Big) * 64);
  if (!p || !u || !w || !big)
    return 1;
  for (long i = 0; i < N; ++i) {
    Pole q = {i, 1, 2, 3, 4, 5, 6, 7, (short)(i % 4)};
    p[i] = q;
  }
  for (long i = 0; i < N * 8; ++i)
    u[i].x = u[i].y = u[i].z = (float)(i % 7);
  memset(big, 0, sizeof(Big) * 64);
  double s = 0, t = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < N; ++i) {
    Pole q = p[i];
    s += q.a * q.b + q.h * q.l;
  }
#pragma omp parallel for
  for (long i = 0; i < N * 8; ++i)
    w[i] = u[i];
#pragma omp parallel for
  for (long i = 0; i < N * 8; ++i)
    memset(&u[i], 0, sizeof(Vec));
#pragma omp parallel for reduction(+ : t)
  for (long i = 0; i < 64 * 1000; ++i) {
    Big b = big[i % 64];
    t += b.v[i % 40];
  }
  printf("%g %g %g %g\n", s, (double)w[N * 8 - 1].z, (double)u[0].x, t);
  return 0;
}
// OUT: 1.8006e+09 2 0 0
// CHECK:      phase 39:1 kind=parallel for invocations=1 iterations=30000 streams=1
// CHECK-NEXT: stream 41:14 op=load elem=8 stride=72 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 44:1 kind=parallel for invocations=1 iterations=240000 streams=2
// CHECK-NEXT: stream 46:12 op=load elem=4 stride=12 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 46:12 op=store elem=4 stride=12 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 47:1 kind=parallel for invocations=1 iterations=240000 streams=1
// CHECK-NEXT: stream 49:5 op=store elem=4 stride=12 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 50:1 kind=parallel for invocations=1 iterations=32000 streams=0
// CHECK:      footprint 41:14 ok
// CHECK:      footprint 46:12 ok
// CHECK:      footprint 49:5 ok
