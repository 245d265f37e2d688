// The sampling knobs: PHASEPROBE_SAMPLING=off writes no streams and keeps
// the counts; PHASEPROBE_SAMPLE_BURST sets the instrumented iterations per
// burst (one burst per thread here: 2 x 16 samples per site); a malformed
// value is one warning line and the default, and the program's own output
// is unchanged throughout.
// RUN: %clang -O2 -fopenmp %pp_plugin %s -o %t %pp_rt 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_OUT=%t.on.json %t | FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLING=off PHASEPROBE_OUT=%t.off.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.on.json --off %t.off.json --samples | FileCheck --check-prefix=ON %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLE_BURST=16 PHASEPROBE_OUT=%t.b.json %t | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Streams_check.py %t.b.json --samples | FileCheck --check-prefix=BURST %s
// RUN: env OMP_NUM_THREADS=2 PHASEPROBE_SAMPLE_PERIOD=abc PHASEPROBE_OUT=%t.w.json %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %python %S/Streams_check.py %t.w.json --samples | FileCheck --check-prefix=DEF %s
#include <stdio.h>
#include <stdlib.h>
#define N 100000
int main(void) {
  double *a = malloc(sizeof(double) * N);
#pragma omp parallel for
  for (long i = 0; i < N; ++i)
    a[i] = 2.0 * (double)i;
  printf("%g\n", a[N - 1]);
  return 0;
}
// OUT: 199998
// ON:      phase 20:1 kind=parallel for invocations=1 iterations=50000 streams=1
// ON-NEXT: stream 22:10 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true samples=256
// ON:      same iterations 20:1 yes
// ON-NEXT: no streams when off: yes
// BURST:      phase 20:1 kind=parallel for invocations=1 iterations=50000 streams=1
// BURST-NEXT: stream 22:10 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true samples=32
// DEF:      phase 20:1 kind=parallel for invocations=1 iterations=50000 streams=1
// DEF-NEXT: stream 22:10 op=store elem=8 stride=8 second=- access=private pattern=strided significant=true samples=256
// WARN: phaseprobe: warning: PHASEPROBE_SAMPLE_PERIOD='abc' is not an integer in [1, 2^40]; using 1000
// WARN-NOT: warning
