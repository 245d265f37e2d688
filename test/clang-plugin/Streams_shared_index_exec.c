// Threads that share a loop index: NPB CG's residual norm leaves `k` shared
// in a `parallel default(shared)` region, a race the plain build survives
// because the optimizer keeps k in a register. The sampling copies must keep
// it there too: when the runtime's entry points looked like writes to any
// shared memory, the copy reloaded k where a loop handed over to its clone,
// read the other thread's k, and NPB CG class S printed another ||r|| in 5
// runs of 6. Here every invocation runs in the sampling copy and the
// instrumented build must print what the plain one prints.
// RUN: %clang -O2 -fopenmp %s -o %t.plain -lm
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t.instr -lm %pp_rt
// RUN: env OMP_NUM_THREADS=2 %t.plain > %t.plain.out
// RUN: for i in 1 2 3 4 5; do \
// RUN:   env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLE_INVOCATIONS=1 PHASEPROBE_OUT=%t.json %t.instr > %t.instr.out && \
// RUN:   diff %t.plain.out %t.instr.out || exit 1; \
// RUN: done
// RUN: FileCheck %s < %t.instr.out
// CHECK: residual {{[0-9]}}
#include <math.h>
#include <stdio.h>

#define N 2000
#define PER_ROW 12

static int rowstr[N + 1], colidx[N * PER_ROW];
static double a[N * PER_ROW], z[N], r[N];

static double residual(void) {
  int j, k; // k is shared below, as in NPB CG's conj_grad
  double sum = 0.0;
#pragma omp parallel default(shared) private(j) shared(sum)
  {
#pragma omp for
    for (j = 0; j < N; j++) {
      double d = 0.0;
      for (k = rowstr[j]; k < rowstr[j + 1]; k++)
        d = d + a[k] * z[colidx[k]];
      r[j] = d;
    }
#pragma omp for reduction(+ : sum)
    for (j = 0; j < N; j++)
      sum = sum + (z[j] - r[j]) * (z[j] - r[j]);
  }
  return sqrt(sum);
}

int main(void) {
  for (int j = 0; j <= N; j++)
    rowstr[j] = j * PER_ROW;
  for (int k = 0; k < N * PER_ROW; k++) {
    colidx[k] = (k * 7919) % N;
    a[k] = 1.0 / (1 + k % 13);
  }
  for (int j = 0; j < N; j++)
    z[j] = 1.0 + (j % 5) * 0.25;
  double total = 0.0;
  for (int it = 0; it < 200; it++)
    total += residual();
  printf("residual %.17g\n", total);
  return 0;
}
