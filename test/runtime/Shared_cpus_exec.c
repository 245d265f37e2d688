// program.threads_share_cpus: whether the threads that ran region bodies had
// fewer CPUs in their affinity masks (read after the fork bound them) than
// the largest team had threads. The estimator reads a region's time beyond
// its slowest thread's as forks and joins only where they did not.
// program.threads_float: else, whether two of them had overlapping masks
// (the scheduler, not the placement, decided where they ran); match and
// estimate warn of it.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// Two threads bound to one CPU share it:
// RUN: env PHASEPROBE_OUT=%t.one.json OMP_NUM_THREADS=2 OMP_PLACES='{0}' OMP_PROC_BIND=close %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.one.json | FileCheck --check-prefix=SHARED %s
// One thread never does:
// RUN: env PHASEPROBE_OUT=%t.1t.json OMP_NUM_THREADS=1 OMP_PLACES='{0}' OMP_PROC_BIND=close %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.1t.json | FileCheck --check-prefix=OWN %s
// Unbound, they share only where the process has fewer CPUs than threads,
// and float where it has enough:
// RUN: env PHASEPROBE_OUT=%t.free.json OMP_NUM_THREADS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.free.json --expect-by-affinity | FileCheck --check-prefix=FREE %s
// One place of two CPUs floats, one place per CPU does not (where the
// process may use CPUs 0 and 1; else the team shares, as above):
// RUN: env PHASEPROBE_OUT=%t.span.json OMP_NUM_THREADS=2 OMP_PLACES='{0,1}' OMP_PROC_BIND=close %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.span.json --expect-by-affinity | FileCheck --check-prefix=FREE %s
// RUN: env PHASEPROBE_OUT=%t.pinned.json OMP_NUM_THREADS=2 OMP_PLACES='{0},{1}' OMP_PROC_BIND=close %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.pinned.json --expect-pinned | FileCheck --check-prefix=PINNED %s
// OUT: sum=4950
// SHARED: threads_share_cpus=true threads_float=false threads=2
// OWN: threads_share_cpus=false threads_float=false threads=1
// FREE: as the process's CPUs say
// PINNED: pinned, as the process's CPUs allow
#include <stdio.h>

int main(void) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  printf("sum=%g\n", sum);
  return 0;
}
