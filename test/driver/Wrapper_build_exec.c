// A separate compile and link through the wrappers give an instrumented program
// whose output is unchanged and which writes its phase file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pp_bin/phaseprobe-cc -O2 -fopenmp -c %s -o %t/a.o
// RUN: %pp_bin/phaseprobe-cc -fopenmp %t/a.o -o %t/app
// RUN: %clang -O2 -fopenmp %s -o %t/plain
// RUN: cd %t && env OMP_NUM_THREADS=2 ./app > %t/out.txt
// RUN: env OMP_NUM_THREADS=2 %t/plain > %t/plain.txt
// RUN: diff %t/out.txt %t/plain.txt
// RUN: FileCheck %s < %t/app.phases.json
// CHECK: "schema": "phaseprobe.phases/1"
// CHECK: "id": "{{.*}}Wrapper_build_exec.c:[[@LINE+6]]:{{[0-9]+}}"
#include <stdio.h>
int main(void) {
  static double a[100000];
  double s = 0;
  for (int i = 0; i < 100000; i++) a[i] = i;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 100000; i++) s += a[i];
  printf("%.1f\n", s);
  return 0;
}
