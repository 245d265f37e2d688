// The instrumented program's stdout, stderr and exit code are those of the
// plain build; phaseprobe's own stderr lines are off by default.
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t.inst %pp_rt
// RUN: cd %T && env OMP_NUM_THREADS=2 %t.plain 5 > %t.plain.out 2> %t.plain.err; echo "rc=$?" >> %t.plain.out
// RUN: cd %T && env OMP_NUM_THREADS=2 %t.inst 5 > %t.inst.out 2> %t.inst.err; echo "rc=$?" >> %t.inst.out
// RUN: diff %t.plain.out %t.inst.out
// RUN: diff %t.plain.err %t.inst.err
// RUN: FileCheck %s < %t.inst.out
// RUN: test -f %T/Output_identical_exec.c.tmp.inst.phases.json
// CHECK: sum=15
// CHECK: rc=3
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1, sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 1; i <= n; i++)
    sum += i;
  printf("sum=%d\n", sum);
  fprintf(stderr, "a line on stderr\n");
  return 3;
}
