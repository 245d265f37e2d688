// A phase file that cannot be written: one warning line on stderr naming the
// path and the reason; the program's output and exit code are unchanged.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.no/such/dir/out.json OMP_NUM_THREADS=2 %t > %t.out 2> %t.err; echo "rc=$?" >> %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: test ! -e %t.no
// OUT: done
// OUT: rc=7
// ERR: phaseprobe: warning: cannot write the phase file {{.*}}.no/such/dir/out.json: No such file or directory
// ERR-NOT: {{.}}
#include <stdio.h>

int main(void) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 10; i++)
    s += i;
  printf("done\n");
  return s == 45 ? 7 : 1;
}
