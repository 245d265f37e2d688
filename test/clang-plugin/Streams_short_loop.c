// A loop with a short constant trip count runs whole in its sampled clone
// (no burst hand-over back into it), so the original keeps one entry and a
// constant trip count: at -O2 it is fully unrolled as in the plain build
// (which vectorizes nothing here), not kept as a loop and vectorized on its
// own (what a hand-over into it caused). Inside another loop (rhs), a loop
// of at most 16 constant iterations is sampled with the loop around it,
// which hands over as usual (the 5-iteration loop stays whole in the outer
// clone); alone (init5) it is the sampling unit and runs whole. The long
// loop of axpy hands over as usual. All are sampled.
// RUN: %clang -O2 -fopenmp %s -c -o /dev/null -Rpass=loop-vectorize 2>&1 | FileCheck --check-prefix=REMARKS --allow-empty %s
// RUN: %clang -O2 -fopenmp %pp_plugin %s -c -o /dev/null -Rpass=loop-vectorize 2>&1 | FileCheck --check-prefix=REMARKS --allow-empty %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s
// REMARKS-NOT: Streams_short_loop.c:[[@LINE+20]]:{{[0-9]+}}: remark: vectorized loop
// REMARKS-NOT: Streams_short_loop.c:[[@LINE+31]]:{{[0-9]+}}: remark: vectorized loop
// IR-LABEL: define internal void @.omp_outlined..ppsampled(
// IR: call void @__phaseprobe_sample(
// IR: call void @__phaseprobe_burst_stop()
// IR: call i32 @__phaseprobe_burst_begin2(
// IR-LABEL: define internal void @.omp_outlined..1.ppsampled(
// IR: call void @__phaseprobe_sample(
// IR: call void @__phaseprobe_burst_stop()
// IR: call i32 @__phaseprobe_burst_begin2(
// IR-LABEL: define internal void @.omp_outlined..2.ppsampled(
// IR-NOT: __phaseprobe_burst_stop
// IR: call void @__phaseprobe_sample(
// IR-NOT: __phaseprobe_burst_stop
// IR: call i32 @__phaseprobe_burst_begin2(
// IR-NOT: __phaseprobe_burst_stop
// IR: {{^}}}
void rhs(int n, const double *u, double *out) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    for (int m = 0; m < 5; m++)
      out[i * 5 + m] = 0.1 * (u[(i + 1) * 5 + m] + u[(i - 1) * 5 + m] - 2.0 * u[i * 5 + m]);
}

void axpy(long n, const double *x, double *y) {
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    y[i] += 2.0 * x[i];
}

void init5(double *out) {
#pragma omp parallel
  for (int m = 0; m < 5; m++)
    out[m] = m;
}
