// Where the phase file goes: <program-name>.phases.json in the working
// directory, or $PHASEPROBE_OUT with %p replaced by the pid; node.label is
// $PHASEPROBE_NODE or the hostname; program name and argv are recorded.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t.prog %pp_rt
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d && env OMP_NUM_THREADS=2 %t.prog a b
// RUN: %python %pp_inputs/runtime/phases.py --program %t.d/Output_env_exec.c.tmp.prog.phases.json | FileCheck --check-prefix=DEFAULT %s
// RUN: cd %t.d && env PHASEPROBE_OUT=%t.d/run-%%p.json PHASEPROBE_NODE=bn OMP_NUM_THREADS=2 %t.prog > %t.d/pid.txt
// RUN: %python %pp_inputs/runtime/phases.py --program %t.d/run-$(cat %t.d/pid.txt).json | FileCheck --check-prefix=NAMED %s
// RUN: ls %t.d | FileCheck --check-prefix=LS %s
// DEFAULT: PROGRAM name=Output_env_exec.c.tmp.prog argc=3 threads=2
// NAMED: PROGRAM name=Output_env_exec.c.tmp.prog argc=1 threads=2
// NAMED-NEXT: NODE label=bn
// LS-NOT: tmp.
// LS: Output_env_exec.c.tmp.prog.phases.json
// LS-NEXT: pid.txt
// LS-NEXT: run-{{[0-9]+}}.json
// LS-NOT: tmp.
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  (void)argv;
  int x = 0;
#pragma omp parallel reduction(+ : x)
  x += argc;
  if (argc == 1)
    printf("%d\n", (int)getpid());
  return x == 0;
}
