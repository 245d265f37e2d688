// A child created by fork() does not write the phase file: the parent's file
// is the only one, written by the parent's pid, whatever the child does.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env PHASEPROBE_OUT=%t.d/out-%%p.json OMP_NUM_THREADS=2 %t > %t.d/pid.txt
// RUN: ls %t.d | FileCheck --check-prefix=LS %s
// RUN: test -f %t.d/out-$(cat %t.d/pid.txt).json
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t > %t.pid
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// LS: out-{{[0-9]+}}.json
// LS-NEXT: pid.txt
// LS-NOT: {{.}}
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int s = 0;
// CHECK: PHASE Fork_child_exec.c:[[#@LINE+1]]:1 kind=parallel for parent=- inv=1 threads=2 iters=5
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 10; i++)
    s += i;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0)
    exit(0); // runs the atexit hooks in the child
  int status;
  waitpid(child, &status, 0);
  printf("%d\n", (int)getpid());
  return s == 45 ? 0 : 1;
}
// CHECK: PHASES 1
