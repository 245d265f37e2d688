// PHASEPROBE_VERBOSE=1 turns on phaseprobe's own stderr lines (start,
// registrations, the file written); without it stderr stays the program's.
// PHASEPROBE_CLOCK=monotonic keeps the probes on clock_gettime.
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json %t 2>&1 | count 0
// RUN: env PHASEPROBE_VERBOSE=1 PHASEPROBE_OUT=%t.json %t 2>&1 | FileCheck %s
// RUN: env PHASEPROBE_VERBOSE=1 PHASEPROBE_CLOCK=monotonic PHASEPROBE_OUT=%t.json %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MONO
// An unknown clock: one warning line (whatever PHASEPROBE_VERBOSE says), the
// default clock, the program as ever.
// RUN: env PHASEPROBE_CLOCK=rdtsc PHASEPROBE_OUT=%t.json %t 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: phaseprobe: warning: PHASEPROBE_CLOCK=rdtsc: expected monotonic or auto; using auto
// BAD-NOT: phaseprobe
// CHECK: phaseprobe: runtime started (ABI {{[0-9]+}}, pid {{[0-9]+}}, clock {{tsc|monotonic}})
// MONO: phaseprobe: runtime started (ABI {{[0-9]+}}, pid {{[0-9]+}}, clock monotonic)
// CHECK: phaseprobe: registered 1 constructs of {{.*}}Verbose_exec.c
// CHECK: phaseprobe: wrote {{.*}}.json (1 constructs registered)
int main(void) {
  int x = 0;
#pragma omp parallel reduction(+ : x)
  x = 1;
  return x == 0;
}
