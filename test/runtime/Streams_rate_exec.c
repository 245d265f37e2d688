// Accesses per iteration in the manner of Rodinia's lud block update: per
// block, a loop copies 16 elements of the matrix to the stack (16 loads), a
// loop computes 64 iterations on stack arrays (nothing to sample: only the
// phase's count of iterations in sampling copies knows it), and a loop adds
// 16 results back (a load and a store of one element each). The matrix
// stream: 32 loads, the most of its loads and its stores, in 96 iterations
// per block: 1/3. The table read by the loop below is touched once per
// iteration of its phase: 1. The same block update as an orphaned `omp for`
// in a function that a region calls 40 times (a root inside a root: most of
// its invocations run plain inside the region's sampling copy): 1/3.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.json --tol 5 --rate 27:12=0.33333 --rate 53:12=1 | FileCheck %s
// RUN: %python -c "import json; d = json.load(open('%t.json')); print(*sorted('%%s %%.2f' %% (p['kind'], s['accesses_per_iteration']) for p in d['phases'] for s in p['streams']), sep='\n')" | FileCheck --check-prefix=RATES %s
// RATES: for 0.33
// RATES-NEXT: parallel for 0.33
// RATES-NEXT: parallel for 1.00
// RATES-NEXT: parallel for 1.00
#include <stdio.h>
#include <stdlib.h>
#define BLOCKS 100000
#define BS 16

static void update(double *a, long b) {
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

static void sweep(double *a, long nb) {
#pragma omp for schedule(static)
  for (long b = 0; b < nb; ++b)
    update(a, b);
}

int main(void) {
  double *a = malloc(sizeof(double) * BLOCKS * BS);
  double *lut = malloc(sizeof(double) * BLOCKS * BS);
  for (long i = 0; i < (long)BLOCKS * BS; ++i)
    a[i] = (double)(i % 7), lut[i] = 1;
#pragma omp parallel for schedule(static)
  for (long b = 0; b < BLOCKS; ++b)
    update(a, b);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < (long)BLOCKS * BS; ++i)
    sum += lut[i] * a[i];
#pragma omp parallel
  for (int step = 0; step < 40; ++step)
    sweep(a, BLOCKS / 20);
  for (long i = 0; i < (long)BLOCKS * BS; ++i)
    sum += a[i];
  printf("%.1f\n", sum);
  free(a);
  free(lut);
  return 0;
}
// OUT: {{[0-9]+}}
// CHECK: rate 27:12 ok
// CHECK: rate 53:12 ok
