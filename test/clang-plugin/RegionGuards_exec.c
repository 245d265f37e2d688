// A region that only one way of a tested branch on the thread count reaches
// (LULESH's gather loops under `if (numthreads > 1)`) carries the tests
// that must hold for it to run, as the phase's runs_if: the estimate leaves
// it out where one fails. A region after the branch, one whose branch has
// other work on its other way, one under a branch on something else than
// the count itself, one in a function also called outside the branch, and
// one in a function reached through a pointer carry none; one in a
// function only the guarded code calls carries the call site's tests. The
// program's output is the same with and without the plugin. A branch that
// only decides whether regions run (one way forks them and does nothing
// else, the other does no work) is left out of program.thread_branches once
// the regions carry its test: the estimate models it, there is no other
// code to warn of. The five other branches are listed (SITES).
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: %clang -O2 -fopenmp %s -o %t.plain
// RUN: env PHASEPROBE_OUT=%t.2.json OMP_NUM_THREADS=2 %t > %t.out
// RUN: env OMP_NUM_THREADS=2 %t.plain | diff - %t.out
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t > %t.1.out
// RUN: env OMP_NUM_THREADS=1 %t.plain | diff - %t.1.out
// RUN: %python -c "import json,sys; ps=[p for p in json.load(open(sys.argv[1]))['phases'] if p['parent'] is None]; [print(p['id'], 'runs_if ' + ', '.join(p['runs_if']) if 'runs_if' in p else 'always') for p in ps]; print('regions:', len(ps))" %t.2.json | FileCheck --check-prefix=TWO %s
// RUN: %python -c "import json,sys; ps=[p for p in json.load(open(sys.argv[1]))['phases'] if p['parent'] is None]; [print(p['id'], 'runs_if ' + ', '.join(p['runs_if']) if 'runs_if' in p else 'always') for p in ps]; print('regions:', len(ps))" %t.1.json | FileCheck --check-prefix=ONE %s
// RUN: %python -c "import json,sys; s=json.load(open(sys.argv[1]))['program']['thread_branches']; print('\n'.join(s)); print('sites:', len(s))" %t.2.json | FileCheck --check-prefix=SITES %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=IR %s

// IR: @__phaseprobe.guarded_regions = private constant [6 x %struct.__phaseprobe_construct*]
// IR: call void @__phaseprobe_thread_branches(
// IR: br i1 icmp ne ({{.*}}@__phaseprobe_region_guards, {{.*}}null)
// IR: call void @__phaseprobe_region_guards({{.*}}, i32 6)
// IR: declare extern_weak void @__phaseprobe_region_guards(

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

// Only guarded code calls it: its region runs under its call site's test.
static double gather(double *b, int n) {
  double s = 0;
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} runs_if threads > 1{{$}}
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += b[i];
  return s;
}

// Called with two different tests: `on` is neither, so its region has none.
static void twice(int on, double *b, int n) {
// SITES-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if (on) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 0;
  }
}

// Called under the test and outside it: its region runs at every count.
static void scale(double *b, int n) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+2]]:{{[0-9]+}} always{{$}}
// ONE-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    b[i] *= 1;
}

// Only through a pointer: its callers are not known.
static void shift(double *b, int n) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    b[i] += 0;
}
void (*volatile Shift)(double *, int) = shift;

static void release(double **p) {
  free(*p);
  *p = 0;
}

int main(void) {
  int n = 4096;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    a[i] = i;
  int numthreads = omp_get_max_threads();
  double s = 0;
// SITES-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads > 1){{$}}
  if (numthreads > 1) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} runs_if threads > 1{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] = 2 * a[i];
    if (numthreads < 8) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} runs_if threads < 8, threads > 1{{$}}
#pragma omp parallel for
      for (int i = 0; i < n; ++i)
        b[i] += 1;
    }
    s += gather(b, n);
    scale(b, n);
    Shift(b, n);
    b[0] = numthreads; // no work of its own: the regions above stay guarded
  }
  scale(b, n);
  twice(numthreads > 1, b, n);
  twice(numthreads > 2, b, n);
  // A region with an alternative on the other way (a region, a serial loop)
  // is not guarded: at the other count its cost stands in for the
  // alternative's, which no base run saw.
// SITES-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads == 1){{$}}
  if (numthreads == 1) {
// ONE-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] + a[i];
  } else {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] * 2;
  }
// SITES-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} (threads > 1){{$}}
  if (numthreads > 1) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] -= 1;
  } else {
    for (int i = 0; i < n; ++i)
      b[i] -= 1;
  }
  if (numthreads <= 1) {
    printf("one thread\n"); // printing is no work of its own
  } else {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} runs_if threads > 1{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 1;
  }
  if (numthreads != 4) {
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+2]]:{{[0-9]+}} runs_if threads != 4{{$}}
// ONE-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} runs_if threads != 4{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 0;
    double *t = malloc(sizeof(double));
    release(&t); // a function that only frees: no work of its own
  }
// SITES-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}}{{$}}
  if ((numthreads + 1) % 2 == 1) { // arithmetic on the count: no test
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 0;
  }
// TWO-DAG: RegionGuards_exec.c:[[#@LINE+2]]:{{[0-9]+}} always{{$}}
// ONE-DAG: RegionGuards_exec.c:[[#@LINE+1]]:{{[0-9]+}} always{{$}}
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += b[i];
  printf("%.1f\n", s);
  free(a);
  free(b);
  return 0;
}

// SITES: sites: 5

// Twelve regions ran at two threads, four at one; no others.
// TWO: regions: 12
// ONE: regions: 4
