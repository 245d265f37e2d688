// Sampling leaves the program's own code as the plain build optimizes it:
// the sampled loops live in copies of the functions (`.ppsampled`) that one
// invocation in PHASEPROBE_SAMPLE_INVOCATIONS enters, and the counters the
// instrumentation keeps in loops carry an alias tag of their own. Here the
// plain build inlines a small function with a 5-iteration loop, called twice
// per cell, and vectorizes both cell loops: the instrumented build must do
// the same. (Cloning the loops in place made `matvec` too costly to inline,
// cost 555 against 225, and left both loops scalar; so did NPB BT's
// matvec_sub, with 13% more instructions with sampling off.)
// RUN: %clang -O2 -fopenmp %s -c -o /dev/null -Rpass='inline|loop-vectorize' 2>&1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %pp_plugin %s -c -o /dev/null -Rpass='inline|loop-vectorize' 2>&1 | FileCheck %s
// CHECK-DAG: Streams_plain_code.c:[[@LINE+12]]:5: remark: 'matvec' inlined into '.omp_outlined.'
// CHECK-DAG: Streams_plain_code.c:[[@LINE+12]]:5: remark: 'matvec' inlined into '.omp_outlined.'
// CHECK-DAG: Streams_plain_code.c:[[@LINE+8]]:1: remark: vectorized loop
// CHECK-DAG: Streams_plain_code.c:[[@LINE+15]]:1: remark: vectorized loop
static void matvec(const double a[5][5], const double x[5], double y[5]) {
  for (int i = 0; i < 5; i++)
    y[i] -= a[i][0] * x[0] + a[i][1] * x[1];
}

void solve(int n, double (*a)[5][5], double (*b)[5][5], double (*x)[5], double (*y)[5]) {
#pragma omp parallel for
  for (int c = 0; c < n; c++) {
    matvec(a[c], x[c], y[c]);
    matvec(b[c], y[c], x[c]);
  }
}

void scale(int n, double (*restrict u)[5], const double *restrict s) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      u[i][m] *= s[i];
}
