// C++: regions in templates (two instances = one phase), lambdas, member
// functions, and a region in a constructor run before main.
// RUN: %clangxx -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
#include <cstdio>
#include <vector>

template <typename T> T total(const std::vector<T> &v) {
  T s = 0;
// CHECK-DAG: PHASE Constructs_cxx_exec.cpp:[[#@LINE+1]]:1 kind=parallel for parent=- inv=2 threads=2 iters=150
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < (long)v.size(); i++)
    s += v[i];
  return s;
}

struct Grid {
  std::vector<double> cells;
  explicit Grid(int n) : cells(n) {
// CHECK-DAG: PHASE Constructs_cxx_exec.cpp:[[#@LINE+1]]:1 kind=parallel for parent=- inv=2 threads=2 iters=48
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      cells[i] = i;
  }
  void relax() {
// CHECK-DAG: PHASE Constructs_cxx_exec.cpp:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2
#pragma omp parallel
    {
// CHECK-DAG: PHASE Constructs_cxx_exec.cpp:[[#@LINE+1]]:1 kind=for parent=Constructs_cxx_exec.cpp:[[#@LINE-2]]:1 inv=1 threads=2 iters=16
#pragma omp for
      for (size_t i = 0; i < cells.size(); i++)
        cells[i] *= 0.5;
    }
  }
};

static Grid Early(64); // constructed before main: the 2nd invocation of Grid()

int main() {
  std::vector<int> a(100, 1);
  std::vector<double> b(200, 0.5);
  auto bump = [&](int k) {
// CHECK-DAG: PHASE Constructs_cxx_exec.cpp:[[#@LINE+1]]:1 kind=parallel for parent=- inv=3 threads=2 iters=30
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 20; i++)
      a[i] += k;
  };
  bump(1);
  bump(2);
  bump(3);
  Grid g(32);
  g.relax();
  std::printf("%d %g %g\n", total(a), total(b), Early.cells[10] + g.cells[3]);
  return 0;
}
// OUT: 220 100 11.5
// CHECK: PHASES 5
