// The iteration counter's step: a loop whose trip count the optimizer can
// compute folds its counter into the exit value and keeps no step at all;
// one whose bound is reloaded in every iteration (a call may change it)
// keeps the counter, and after the vectorizer its step becomes a load of
// the module's __phaseprobe.one (1, externally initialized), so that the back end's loop
// strength reduction cannot rebuild the loop's addresses on the counter
// (CounterStep.h; LULESH's element loops, one add per address). A loop
// without another index for it to build on (a binary search's bounds)
// keeps the constant step, which needs no register. The vectorizer's
// choice is the plain build's.
// RUN: %clang -O2 -fopenmp %s -S -o /dev/null -Rpass=loop-vectorize 2>&1 | FileCheck --check-prefix=VEC %s
// RUN: %clang -O2 -fopenmp %pp_plugin %s -S -o /dev/null -Rpass=loop-vectorize 2>&1 | FileCheck --check-prefix=VEC %s
// RUN: %clang -O2 -fopenmp %pp_plugin %s -S -emit-llvm -o - | FileCheck %s
// VEC: Counters_step_ir.c:[[@LINE+12]]:3: remark: vectorized loop (vectorization width: 2, interleaved count: 2)
// CHECK-LABEL: define {{.*}}void @scale(
// CHECK-NOT: @__phaseprobe.one
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @until(
// CHECK: %[[STEP:[0-9]+]] = load i64, i64* @__phaseprobe.one, align 8, {{.*}}!tbaa !{{[0-9]+}}, !invariant.load
// CHECK: add i64 %{{[0-9]+}}, %[[STEP]]
// CHECK-LABEL: define {{.*}}i64 @search(
// CHECK-NOT: @__phaseprobe.one
// CHECK: ret i64
extern double work(double);
void scale(long lo, long n, double *a) {
  for (long i = lo; i < n; i++)
    a[i] *= 2;
}

void until(double *a, long lo, long *n) {
  for (long i = lo; i < *n; i++)
    a[i] = work(a[i]);
}

long search(const double *x, long n, double v) {
  long lo = 0;
  while (n > 1) {
    long half = n / 2;
    if (x[lo + half] <= v)
      lo += half;
    n -= half;
  }
  return lo;
}
