// An object compiled with the plugin but without -fopenmp has no constructs;
// the loops of its functions still count for the phase that calls them (here
// 10 * 11 / 2 = 55 inner iterations per call, one call per thread).
// RUN: %clang -O2 %pp_plugin -c %pp_inputs/clang-plugin/serial_tu.c -o %t.serial.o
// RUN: %clang -O2 -fopenmp %pp_plugin %s %t.serial.o -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// OUT: 990
#include <stdio.h>

long triangle(int n);

int main(void) {
  long s = 0;
// CHECK: PHASE Plugin_serial_tu_exec.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2 iters=55
#pragma omp parallel reduction(+ : s)
  s += triangle(10);
  printf("%ld\n", s * 3);
  return 0;
}
// CHECK: PHASES 1
