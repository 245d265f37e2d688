// An object built for another ABI version of the runtime registers with its
// version number: one clear warning, its constructs are not measured, the
// program runs normally and objects of the right version are still measured.
// The "foreign" object is simulated by registering by hand.
// RUN: %clang -O1 -fopenmp %pp_plugin -I%pp_src/runtime/include %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %python %pp_inputs/runtime/phases.py %t.json | FileCheck %s
// ERR: phaseprobe: warning: foreign.c was instrumented for phaseprobe ABI 999 but this runtime implements ABI {{[0-9]+}}; its 2 constructs are not measured (rebuild it with the matching plugin)
// ERR-NOT: {{.}}
// OUT: index0=4294967295 index1=4294967295 sum=45
#include "phaseprobe/interface.h"
#include <stdio.h>

// A layout this runtime does not know: only the first field (the index) and
// the element size are shared by every ABI version.
struct foreign_construct {
  uint32_t index;
  char future[60];
};
static struct foreign_construct foreign[2];

int main(void) {
  __phaseprobe_register(999, "foreign.c", (__phaseprobe_construct *)foreign, 2,
                        sizeof(struct foreign_construct));
  int s = 0;
// CHECK: PHASE Abi_mismatch_exec.c:[[#@LINE+1]]:1 kind=parallel for
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 10; i++)
    s += i;
  printf("index0=%u index1=%u sum=%d\n", foreign[0].index, foreign[1].index, s);
  return 0;
}
// CHECK: PHASES 1
