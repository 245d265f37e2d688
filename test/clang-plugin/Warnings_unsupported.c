// Constructs phaseprobe does not time as phases get one warning each, at the
// construct; the build still succeeds. -fplugin-arg-phaseprobe-no-warn
// silences them; an unknown plugin argument is an error.
// RUN: %clang -fopenmp %pp_plugin -fsyntax-only -Xclang -verify %s
// RUN: %clang -fopenmp %pp_plugin -fplugin-arg-phaseprobe-no-warn -fsyntax-only %s 2>&1 | count 0
// RUN: not %clang -fopenmp %pp_plugin -fplugin-arg-phaseprobe-bogus -fsyntax-only %s 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: %clang -O2 -fopenmp %pp_plugin -fplugin-arg-phaseprobe-no-warn %s -o %t %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck --check-prefix=PH %s
// BAD: error: phaseprobe: unknown plugin argument 'bogus' (known: no-warn)
#include <stdio.h>

int main(void) {
  int n = 0;
// PH: PHASE Warnings_unsupported.c:[[#@LINE+1]]:1 kind=parallel parent=- inv=1 threads=2
#pragma omp parallel
  {
// PH: PHASE Warnings_unsupported.c:[[#@LINE+1]]:1 kind=single parent=Warnings_unsupported.c:[[#@LINE-2]]:1 inv=1
#pragma omp single
    {
#pragma omp task shared(n) // expected-warning {{phaseprobe: 'task' is not instrumented as a phase; its work is counted in the phase of the thread that executes it}}
      {
#pragma omp atomic
        n += 1;
      }
#pragma omp taskloop // expected-warning {{phaseprobe: 'taskloop' is not instrumented as a phase}}
      for (int i = 0; i < 10; i++) {
#pragma omp atomic
        n += 1;
      }
    }
  }
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=11
// PH: PHASES 2
