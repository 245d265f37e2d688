// Serial code only one way of a tested branch on the thread count reaches,
// where the other way does no work (LULESH's `numthreads > 1` setup and the
// frees after its gather loops), is timed apart: program.guarded_serial
// gives its time per set of tests, less the regions forked inside it (the
// long region below would not fit in the program's serial time otherwise).
// A branch inside a loop is not timed (its probes would run every turn), a
// way out by return is closed like the others, and at a count where the
// test fails nothing is listed. The output is the same without the plugin.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: env PHASEPROBE_OUT=%t.2.json OMP_NUM_THREADS=2 %t > %t.out 2> %t.own
// RUN: env OMP_NUM_THREADS=2 %t.plain | diff - %t.out
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t > %t.1.out
// RUN: env OMP_NUM_THREADS=1 %t.plain | diff - %t.1.out
// RUN: %python %pp_inputs/clang-plugin/guarded_serial.py %t.2.json %t.own | FileCheck --check-prefix=TWO %s
// RUN: %python %pp_inputs/clang-plugin/guarded_serial.py %t.1.json | FileCheck --check-prefix=ONE %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s

// TWO: threads > 1: within the serial time, the program's own clock of its guarded work within a quarter
// ONE: none
// IR-COUNT-2: call void @__phaseprobe_serial_guard_begin(
// IR-DAG: declare extern_weak void @__phaseprobe_serial_guard_end(

#include <omp.h>
#include <stdio.h>

// What the program itself times of its guarded work, on stderr (stdout must
// not differ from the plain build's): the check compares the runtime's
// figure with it, both clocks of the same stretch, so a loaded machine that
// slows one slows the other.
static double Own;

static double work(long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += (double)(i % 7) * 1e-9;
  return s;
}

// The way out by return ends the stretch too.
static double setup(int nt) {
  double s = 0;
  if (nt > 1) {
    double t0 = omp_get_wtime();
    s = work(20000000);
    if (s > 1e9)
      return s;
    s += work(10000000);
    Own += omp_get_wtime() - t0;
  }
  return s;
}

int main(void) {
  int nt = omp_get_max_threads();
  double sum = setup(nt);
  if (nt > 1) {
    double t0 = omp_get_wtime();
    sum += work(10000000);
    Own += omp_get_wtime() - t0;
#pragma omp parallel for reduction(+ : sum)
    for (long i = 0; i < 200000000; ++i)
      sum += (double)(i % 5) * 1e-9;
  }
  for (int step = 0; step < 3; ++step)
    if (nt > 1) // in a loop: not timed
      sum += 1;
  sum += work(30000000);
#pragma omp parallel
  {
#pragma omp single
    sum += omp_get_num_threads();
  }
  printf("%.3f\n", sum);
  fprintf(stderr, "guarded work %.6f s\n", Own);
  return 0;
}
