// Every construct carries the floating-point operations of its code, by
// kind (the phase's ops): those of its innermost loops and of the functions
// they call, a dependent-add reduction, nbody's force loop (its j loop: the
// i loop around it is not innermost), an orphaned `for` in another
// function, a helper called from a loop body, libm calls. A fused
// multiply-add (clang contracts `a * b + c` within an expression) counts
// once as an add and once as a multiply. Code outside the loops runs once
// per construct and is not counted; a construct without floating-point
// work has all zeros. The program prints what its plain build prints, at
// -O0 and -O2 the same ops (counted before any optimization).
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt -lm
// RUN: %clang -O2 -fopenmp %s -o %t.plain -lm
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t > %t.out
// RUN: env OMP_NUM_THREADS=2 %t.plain | diff - %t.out
// RUN: %python -c "import json,sys; [print(p['id'].split(':')[1], p['kind'], ' '.join('%%s=%%d' %% kv for kv in p['ops'].items())) for p in json.load(open(sys.argv[1]))['phases']]" %t.json | FileCheck %s
// RUN: %clang -O0 -fopenmp %pp_plugin %s -o %t.O0 %pp_rt -lm
// RUN: env PHASEPROBE_OUT=%t.O0.json OMP_NUM_THREADS=2 %t.O0 > /dev/null
// RUN: %python -c "import json,sys; ops=lambda f: [(p['id'], p['ops']) for p in json.load(open(f))['phases']]; assert ops(sys.argv[1]) == ops(sys.argv[2]); print('same ops')" %t.json %t.O0.json | FileCheck --check-prefix=LEVELS %s
// A runtime without the entry point (an older one) is not told: the entry
// is referenced weakly; all six constructs are told.
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s

// LEVELS: same ops
// IR: call void @__phaseprobe_op_mix({{.*}}, i32 6)
// IR: declare extern_weak void @__phaseprobe_op_mix(
#include <math.h>
#include <stdio.h>

static double sum(const double *a, int n) {
  double s = 0;
// CHECK-DAG: [[#@LINE+1]] parallel for add=1 mul=0 div=0 sqrt=0 math=0
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

struct body { double x, y, z, m; };

static void forces(const struct body *p, double *ax, int n) {
  const double eps2 = 1e-3;
// CHECK-DAG: [[#@LINE+1]] parallel for add=9 mul=10 div=1 sqrt=1 math=0
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    double fx = 0.0;
    for (int j = 0; j < n; j++) {
      double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + eps2;
      double inv = 1.0 / (r2 * sqrt(r2));
      fx += p[j].m * dx * inv;
      fx += p[j].m * dy * inv;
      fx += p[j].m * dz * inv;
    }
    ax[i] = fx;
  }
}

// Orphaned: its own phase, inside the region below.
static void grow(double *a, int n) {
// CHECK-DAG: [[#@LINE+1]] for add=0 mul=1 div=0 sqrt=0 math=1
#pragma omp for
  for (int i = 0; i < n; i++)
    a[i] = exp(a[i] * 0.001);
}

static void region(double *a, int n) {
  double scale = 2.0 / n; // outside any loop: not counted
// CHECK-DAG: [[#@LINE+1]] parallel add=0 mul=2 div=0 sqrt=0 math=1
#pragma omp parallel
  {
    grow(a, n);
    a[0] = a[0] * scale;
  }
}

static double half(double x) { return x / 2; }

static void helper(double *a, const double *b, int n) {
// CHECK-DAG: [[#@LINE+1]] parallel for add=2 mul=1 div=1 sqrt=0 math=0
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = half(a[i] * b[i] + 1.0) + b[i];
}

static void ints(int *k, int n) {
// CHECK-DAG: [[#@LINE+1]] parallel for add=0 mul=0 div=0 sqrt=0 math=0
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    k[i] = k[i] * 3 + i;
}

int main(void) {
  enum { N = 512 };
  static double a[N], b[N], ax[N];
  static struct body p[N];
  static int k[N];
  for (int i = 0; i < N; i++) {
    a[i] = b[i] = i % 7;
    p[i] = (struct body){i % 5, i % 3, i % 11, 1};
    k[i] = i;
  }
  double s = sum(a, N);
  forces(p, ax, N);
  region(a, N);
  helper(a, b, N);
  ints(k, N);
  printf("%.6g %.6g %.6g %d\n", s, ax[3], a[5], k[9]);
  return 0;
}
