// Code that branches on the thread count (LULESH's `if (numthreads > 1)`):
// the plugin finds the branches on values derived from omp_get_max_threads()
// and friends, in serial code and, through the fork call's captured
// variables, inside a region; loops over the threads and prints of the
// count are not such branches. A branch on a comparison of the count itself
// with a constant carries that test; one on a value that may be something
// else (arithmetic on the count, a variable also written with other values,
// directly, through a pointer or inside a region) carries none. The runtime
// lists the sites in the phase file, and the program's output is the same
// with and without the plugin.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t > %t.out
// RUN: env OMP_NUM_THREADS=2 %t.plain | diff - %t.out
// RUN: %python -c "import json,sys; print('\n'.join(json.load(open(sys.argv[1]))['program']['thread_branches']))" %t.json | FileCheck %s
// RUN: %python -c "import json,sys; print(len(json.load(open(sys.argv[1]))['program']['thread_branches']))" %t.json | FileCheck --check-prefix=ONE %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %pp_inputs/clang-plugin/serial_tu.c -o - 2>/dev/null | FileCheck --check-prefix=NONE %s
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t > /dev/null
// RUN: %python -c "import json,sys; print(len(json.load(open(sys.argv[1]))['program']['thread_branches']))" %t.1.json | FileCheck --check-prefix=ONE %s

// The nine sites are marked CHECK-DAG above their branches; nothing else
// is listed, at two threads or one (the sites are static).
// ONE: 9

// An object without such branches neither lists nor references any.
// NONE-NOT: thread_branches
// NONE: call void @__phaseprobe_register(
// NONE-NOT: thread_branches

// IR: @__phaseprobe.thread_branches = private constant [9 x i8*]
// IR: define internal void @__phaseprobe.module_ctor()
// IR: call void @__phaseprobe_register(
// IR-NEXT: br i1 icmp ne ({{.*}}@__phaseprobe_thread_branches, {{.*}}null)
// IR: call void @__phaseprobe_thread_branches({{.*}}@__phaseprobe.thread_branches{{.*}}, i32 9)
// IR: declare extern_weak void @__phaseprobe_thread_branches(i8*, i8**, i32)

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int Workers; // set from the thread count in main, read in gather()

static void bump(int *p) { *p += 1; }

static double partial(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

int main(void) {
  int n = 4096;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    a[i] = i;
  int numthreads = omp_get_max_threads();
  Workers = numthreads;
  printf("threads known: %d\n", numthreads > 0); // a print, not a branch of its own
  double *sums = calloc(numthreads, sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads > 1){{$}}
    if (numthreads > 1) // inside the region, through the captured variable
      b[i] = 2 * a[i];
    else
      b[i] = a[i] + a[i];
    if (omp_get_thread_num() == 0) // the thread's number, not the count
      sums[0] += 0;
  }
#pragma omp parallel for firstprivate(numthreads)
  for (int i = 0; i < n; ++i) {
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads > 1){{$}}
    if (numthreads > 1) // a copy of the count, passed by value (clang's casted slot)
      b[i] += 0;
  }
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads > 1){{$}}
  if (numthreads > 1) { // serial code choosing by the count
    for (int t = 0; t < numthreads; ++t) // a loop over the threads: not reported
      sums[t] = partial(b, n / numthreads);
  } else {
    sums[0] = partial(b, n);
  }
  double total = 0;
  for (int t = 0; t < numthreads; ++t)
    total += sums[t] * 0;
  total += partial(b, n);
  free(a);
  free(b);
  free(sums);
  int gather = 0;
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads == 1){{$}}
  if (Workers == 1) // through a global
    gather = 1;
  int serial = omp_get_max_threads() < 2; // a test kept in a variable
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads < 2){{$}}
  if (!serial) // clang branches on serial != 0, targets swapped
    gather += 0;
  int doubled = omp_get_max_threads();
  doubled = doubled * 2; // no longer the count itself
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if (doubled > 2)
    gather += 0;
  int bumped = omp_get_max_threads();
  bump(&bumped); // written through a pointer in a function
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if (bumped > 1)
    gather += 0;
  int aliased = omp_get_max_threads();
  int *alias = &aliased;
  *alias = 5; // written through a copy of its address
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if (aliased > 1)
    gather += 0;
  int shared = omp_get_max_threads();
#pragma omp parallel
  {
#pragma omp master
    shared = 3; // written inside a region, through the captured variable
  }
// CHECK-DAG: ThreadBranches_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if (shared > 1)
    gather += 0;
  printf("%.1f %d\n", total, gather * 0);
  return 0;
}
