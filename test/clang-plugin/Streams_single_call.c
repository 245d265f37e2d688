// A static function called once is inlined at any size (the inliner's bonus
// for the last call to an internal function). The sampling copy of its
// caller must call a copy of it too, even when it has no loop to sample:
// calling the original gave it a second call site, and the program's own
// code called it out of line (LULESH's per-element helpers such as
// CalcElemVolumeDerivative: +6.5% -> +5.0% instructions with sampling off,
// bench/results/overhead-2026-11-24-lulesh-single-call-off.txt).
// RUN: %clang -O2 -fopenmp %s -c -o /dev/null -Rpass=inline 2>&1 | FileCheck %s
// RUN: %clang -O2 -fopenmp %pp_plugin %s -c -o /dev/null -Rpass=inline 2>&1 | FileCheck %s
// CHECK: Streams_single_call.c:[[@LINE+17]]:5: remark: 'volume' inlined into '.omp_outlined.'
static void volume(const double *x, const double *y, const double *z, double *v) {
#define T(a, b, c) (x[a] * (y[b] - z[c]) + y[a] * (z[b] - x[c]) + z[a] * (x[b] - y[c]))
  v[0] = T(1, 2, 3) + T(4, 5, 6) - T(7, 0, 2);
  v[1] = T(2, 3, 4) + T(5, 6, 7) - T(0, 1, 3);
  v[2] = T(3, 4, 5) + T(6, 7, 0) - T(1, 2, 4);
  v[3] = T(4, 5, 6) + T(7, 0, 1) - T(2, 3, 5);
  v[4] = T(5, 6, 7) + T(0, 1, 2) - T(3, 4, 6);
  v[5] = T(6, 7, 0) + T(1, 2, 3) - T(4, 5, 7);
  v[6] = T(7, 0, 1) + T(2, 3, 4) - T(5, 6, 0);
  v[7] = T(0, 1, 2) + T(3, 4, 5) - T(6, 7, 1);
}

void volumes(int n, const double (*x)[8], const double (*y)[8], const double (*z)[8],
             double (*v)[8], double *s) {
#pragma omp parallel for
  for (int e = 0; e < n; e++) {
    volume(x[e], y[e], z[e], v[e]);
    s[e] = v[e][0]; // a stream in the loop itself: the caller's copy is kept
  }
}
