// Page faults a region's forks take (phase file "page_faults", regions
// only): a region that writes a 4 MiB temporary mapped and unmapped around
// it every step (what glibc's malloc does for large blocks it does not
// keep) faults on each of its 1024 pages every step; a region over memory
// that stays mapped faults on its first touch only. The estimator prices
// them with the pf1p uB. The program's own count (program "page_faults")
// holds the regions' and the serial code's: here a serial 4 MiB temporary
// a step, 10240 faults beyond the regions' (checked against 9000: a region
// that stops counting extrapolates its first forks' faults).
// RUN: %clang -O1 -fopenmp %pp_plugin %s -o %t %pp_rt
// RUN: env PHASEPROBE_OUT=%t.json OMP_NUM_THREADS=2 %t | FileCheck --check-prefix=OUT %s
// RUN: %python %s.py %t.json | FileCheck %s
// RUN: env PHASEPROBE_OUT=%t.1.json OMP_NUM_THREADS=1 %t > /dev/null
// RUN: %python %s.py %t.1.json | FileCheck %s
// OUT: sum=4194304
#include <stdio.h>
#include <sys/mman.h>

enum { N = 4 << 20, Steps = 10 };
static char kept[N];

int main(void) {
  long sum = 0;
  for (int step = 0; step < Steps; step++) {
    char *tmp = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
      return 1;
    madvise(tmp, N, MADV_NOHUGEPAGE); // small pages wherever huge ones are the default
// CHECK-DAG: PageFaults_exec.c:[[#@LINE+1]]:1 faults per fork >= 1000
#pragma omp parallel for
    for (int i = 0; i < N; i += 64)
      tmp[i] = (char)step;
    munmap(tmp, N);
// CHECK-DAG: serial faults >= 9000
    char *ser = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ser == MAP_FAILED)
      return 1;
    madvise(ser, N, MADV_NOHUGEPAGE);
    for (int i = 0; i < N; i += 4096)
      ser[i] = (char)step;
    munmap(ser, N);
// CHECK-DAG: PageFaults_exec.c:[[#@LINE+1]]:1 faults per fork < 1000
#pragma omp parallel for
    for (int i = 0; i < N; i += 64)
      kept[i] = (char)step;
  }
  for (int i = 0; i < N; i++)
    sum += kept[i] == Steps - 1 ? 64 : 0;
  printf("sum=%ld\n", sum);
  return 0;
}
