// Accesses per iteration in the manner of Rodinia's lud block update: per
// block, a loop copies 16 elements of the matrix to the stack (16 loads), a
// loop computes 64 iterations on stack arrays (nothing to sample: only the
// phase's iteration count knows it), and a loop adds 16 results back (a load
// and a store of one element each). The matrix stream: 32 loads, the most
// of its loads and its stores, in 96 iterations per block: 1/3. The
// lookup table read by the compute-free loop below is touched once per
// iteration of its phase: 1.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --tol 5 --rate 25:14=0.33333 --rate 36:12=1 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#define BLOCKS 100000
#define BS 16
int main(void) {
  double *a = malloc(sizeof(double) * BLOCKS * BS);
  double *lut = malloc(sizeof(double) * BLOCKS * BS);
  for (long i = 0; i < (long)BLOCKS * BS; ++i)
    a[i] = (double)(i % 7), lut[i] = 1;
#pragma omp parallel for schedule(static)
  for (long b = 0; b < BLOCKS; ++b) {
    double t[BS], s[BS];
    for (int j = 0; j < BS; ++j) {
      t[j] = a[b * BS + j];
      s[j] = 0;
    }
    for (int k = 0; k < 4 * BS; ++k)
      s[k % BS] += t[(k * 5) % BS] * 0.5;
    for (int j = 0; j < BS; ++j)
      a[b * BS + j] += s[j];
  }
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < (long)BLOCKS * BS; ++i)
    sum += lut[i] * a[i];
  printf("%.1f\n", sum);
  free(a);
  free(lut);
  return 0;
}
// OUT: {{[0-9]+}}
// CHECK: rate 25:14 ok
// CHECK: rate 36:12 ok
