// C++ loops whose bodies call functions that may throw. Inside an OpenMP
// region clang gives each such call an unwind edge to a landing pad that
// calls std::terminate (no exception may leave the region), so these loops
// were left unsampled: LULESH's element loops, which reach every array
// through accessors like Domain::x below, had no streams. They are sampled
// now (the clone unwinds to the same pad). A loop whose calls unwind to a
// handler that continues (try/catch in the loop body) is still left alone,
// and the program's output is the plain build's.
// RUN: %clangxx -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: %clangxx -O2 -fopenmp %s -o %t.plain
// RUN: env OMP_NUM_THREADS=2 %t.plain > %t.plain.out
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t > %t.out
// RUN: diff %t.plain.out %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: %python %S/Streams_check.py %t.json --fp 40:14=512 --fp 40:24=512 | FileCheck %s
// OUT: sum 589824 caught 0
// CHECK:      phase 38:1 kind=parallel for invocations=4 iterations=131072 streams=2
// CHECK-NEXT: stream 40:14 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: stream 40:24 op=load elem=8 stride=8 second=- access=private pattern=strided significant=true
// CHECK-NEXT: phase 43:1 kind=parallel for invocations=4 iterations=131072 streams=0
// CHECK-NEXT: footprint 40:14 ok
// CHECK-NEXT: footprint 40:24 ok
#include <cstdio>
#include <stdexcept>
#include <vector>

struct Domain {
  std::vector<double> m_x, m_y;
  double &x(long i) { return m_x.at(i); } // .at() may throw
  double &y(long i) { return m_y.at(i); }
};

int main() {
  const long n = 1 << 16;
  Domain d{std::vector<double>(n, 1.0), std::vector<double>(n, 0.0)};
  long caught = 0;
  for (int r = 0; r < 4; ++r) {
#pragma omp parallel for
    for (long i = 0; i < n; ++i)
      d.y(i) = 2.0 * d.x(i) + r;
  }
  for (int r = 0; r < 4; ++r) {
#pragma omp parallel for reduction(+ : caught)
    for (long i = 0; i < n; ++i)
      try {
        d.y(i) += d.x(i);
      } catch (const std::out_of_range &) {
        ++caught;
      }
  }
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += d.y(i);
  std::printf("sum %g caught %ld\n", s, caught);
  return 0;
}
