// Which loops are spin waits (clang-plugin/SyncLoops.h): a loop that stores
// no memory and no loop state and reads through `omp flush`, an atomic or a
// volatile load counts spin entries and waits, and no iterations (a function
// whose only loop is one never adds to __phaseprobe_iterations); one that
// gives its core away counts neither; a loop over volatile data (it stores
// its index and accumulator) is work.
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck %s
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

int flag[8];
atomic_int ready;
volatile int go;
volatile double data[100];

// CHECK-LABEL: define{{.*}} void @wait_flush(
// CHECK: @__phaseprobe_spin_entries
// CHECK: @__phaseprobe_spin_waits
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_flush(int i) {
  while (flag[i] == 0) {
#pragma omp flush(flag)
  }
}

// A C11 atomic load goes through a temporary: not loop state.
// CHECK-LABEL: define{{.*}} void @wait_atomic(
// CHECK: @__phaseprobe_spin_entries
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_atomic(void) {
  while (!atomic_load(&ready))
    ;
}

// CHECK-LABEL: define{{.*}} void @wait_volatile(
// CHECK: @__phaseprobe_spin_entries
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_volatile(void) {
  while (!go)
    ;
}

// A wait that pauses between polls holds its core: a spin. One that gives
// the core away is a wait too (an opaque call is a compiler barrier, so a
// plain flag is read anew), but no round to price: no counter at all.
// CHECK-LABEL: define{{.*}} void @wait_yield(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_yield(int i) {
  while (flag[i] == 0)
    sched_yield();
}

// CHECK-LABEL: define{{.*}} void @wait_sleep(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_sleep(void) {
  while (!go)
    usleep(10);
}

// CHECK-LABEL: define{{.*}} void @wait_pause(
// CHECK: @__phaseprobe_spin_entries
// CHECK-NOT: @__phaseprobe_iterations
// CHECK: ret void
void wait_pause(void) {
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    __builtin_ia32_pause();
}

// Yielding while doing work (a store, a counted loop) is not a wait.
// CHECK-LABEL: define{{.*}} void @yield_while_working(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK: ret void
void yield_while_working(int n) {
  for (int i = 0; i < n; i++) {
    flag[i & 7] = i;
    sched_yield();
  }
}

// CHECK-LABEL: define{{.*}} void @yield_n_times(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK: ret void
void yield_n_times(int n) {
  for (int i = 0; i < n; i++)
    sched_yield();
}

// CHECK-LABEL: define{{.*}} double @sum_volatile(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK: @__phaseprobe_iterations
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK: ret double
double sum_volatile(void) {
  double s = 0;
  for (int i = 0; i < 100; i++)
    s += data[i];
  return s;
}

// Waiting, then publishing: the loop stores to memory, so it is work.
// CHECK-LABEL: define{{.*}} void @pass_on(
// CHECK-NOT: @__phaseprobe_spin_entries
// CHECK: ret void
void pass_on(int n) {
  for (int i = 1; i < n; i++) {
    flag[i] = flag[i - 1];
#pragma omp flush(flag)
  }
}
