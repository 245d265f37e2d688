// Threads that spin on flags: NPB LU's pipelined wavefront, where each
// thread of an `omp for nowait` waits for its left neighbour's row and for
// its right neighbour to have taken the previous one, spinning on
// `#pragma omp flush(flag)`. The spin loops are synchronization: their turns
// are not iterations (the `for` phase counts exactly its 39 x 32 x 200
// inner iterations per thread, however long it waited), and every plane is
// one spin-wait round of the region whether or not a thread had to wait on
// this run (on idle cores that depends on timing; on a shared core every
// round waits). The program prints what its plain build prints.
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t.instr %pp_rt
// RUN: env OMP_NUM_THREADS=2 %t.plain > %t.plain.out
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.2.json %t.instr > %t.instr.out
// RUN: diff %t.plain.out %t.instr.out
// RUN: FileCheck %s --check-prefix=TWO < %t.2.json
// RUN: env OMP_NUM_THREADS=1 PHASEPROBE_OUT=%t.1.json %t.instr > %t.instr1.out
// RUN: diff %t.plain.out %t.instr1.out
// RUN: FileCheck %s --check-prefix=ONE < %t.1.json
// The same pipeline waiting with a pause hint on volatile reads holds its
// core as the flush does (on one shared core, 400 planes: 3.2 s, as the
// flush; a plain build, by hand), and with sched_yield() (an opaque call:
// the flag is read again after it) gives it away (0.02 s): its turns are
// not iterations either, but it has no rounds to price.
// RUN: %clang -O2 -fopenmp %pp_plugin -DWAIT_YIELD %s -o %t.yield %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.y.json %t.yield > %t.yield.out
// RUN: diff %t.plain.out %t.yield.out
// RUN: FileCheck %s --check-prefix=YIELD < %t.y.json
// RUN: not grep -q spin_rounds %t.y.json
// RUN: %clang -O2 -fopenmp %pp_plugin -DWAIT_PAUSE %s -o %t.pause %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.p.json %t.pause > %t.pause.out
// RUN: diff %t.plain.out %t.pause.out
// RUN: FileCheck %s --check-prefix=TWO < %t.p.json
// A program without spin loops has no spin_rounds at all.
// RUN: %clang -O2 -fopenmp %pp_plugin -DNO_SPIN %s -o %t.nospin %pp_rt
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.n.json %t.nospin > /dev/null
// RUN: FileCheck %s --check-prefix=NOSPIN < %t.n.json
// NOSPIN-NOT: spin_rounds
// NOSPIN: "phases"
// NOSPIN-NOT: spin_rounds
#include <sched.h>
#include <stdio.h>

#if defined(WAIT_YIELD)
#define FLAG(i) flag[i]
#define WAIT() sched_yield()
#elif defined(WAIT_PAUSE)
#define FLAG(i) ((volatile int *)flag)[i]
#define WAIT() __builtin_ia32_pause()
#else
#define FLAG(i) flag[i]
#define WAIT() _Pragma("omp flush(flag)")
#endif

#define NI 64
#define NJ 200
#define NK 40
static double v[NK][NI][NJ];
static int flag[NI];
static volatile double vol[1000];

static void plane(int k) {
  int i, j;
// TWO-DAG: "id": "SpinWaits_exec.c:[[#@LINE+3]]:1", {{.*}}"kind": "for", {{.*}}"iterations": 249600,
// YIELD: "id": "SpinWaits_exec.c:[[#@LINE+2]]:1", {{.*}}"kind": "for", {{.*}}"iterations": 249600,
// ONE-DAG: "id": "SpinWaits_exec.c:[[#@LINE+1]]:1", {{.*}}"kind": "for", {{.*}}"iterations": 499200,
#pragma omp for nowait schedule(static)
  for (i = 0; i < NI; i++) {
#ifndef NO_SPIN
    if (i != 0) {
      while (FLAG(i - 1) == 0) {
        WAIT();
      }
    }
    if (i != NI - 1) {
      while (FLAG(i) == 1) {
        WAIT();
      }
    }
#endif
    for (j = 0; j < NJ; j++)
      v[k][i][j] = 0.5 * v[k - 1][i][j] + (i ? 0.25 * v[k][i - 1][j] : 1.0);
#ifndef NO_SPIN
#pragma omp flush(flag)
    if (i != 0)
      flag[i - 1] = 0;
    if (i != NI - 1)
      flag[i] = 1;
#pragma omp flush(flag)
#endif
  }
}

int main(void) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      v[0][i][j] = i + j;
// TWO-DAG: "id": "SpinWaits_exec.c:[[#@LINE+2]]:1", {{.*}}"kind": "parallel", {{.*}}"spin_rounds": 39, "threads": 2,
// ONE-DAG: "id": "SpinWaits_exec.c:[[#@LINE+1]]:1", {{.*}}"kind": "parallel", {{.*}}"spin_rounds": 39, "threads": 1,
#pragma omp parallel
  {
    for (int k = 1; k < NK; k++)
      plane(k);
  }
  double s = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      s += v[NK - 1][i][j];
  printf("sum %.6f\n", s);
  // A loop over volatile data writes its index and accumulator: work, not a
  // wait; its iterations count and it has no rounds.
  for (int i = 0; i < 1000; i++)
    vol[i] = i;
  double t = 0;
// TWO-DAG: "id": "SpinWaits_exec.c:[[#@LINE+2]]:1", {{.*}}"kind": "parallel for", "parent": null, "invocations": 1, "barriers": 1, "threads": 2, {{.*}}"iterations": 500,
// ONE-DAG: "id": "SpinWaits_exec.c:[[#@LINE+1]]:1", {{.*}}"kind": "parallel for", "parent": null, "invocations": 1, "barriers": 1, "threads": 1, {{.*}}"iterations": 1000,
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < 1000; i++)
    t += vol[i];
  printf("volatile sum %.1f\n", t);
  return 0;
}
