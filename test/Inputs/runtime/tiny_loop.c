/* A small memory-bound parallel loop for tests that run a program several
 * times (bench/sampling/honesty.py): a few milliseconds a run. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 1 << 18 };
  double *a = calloc(N, sizeof(double)), s = 0;
  for (int rep = 0; rep < 10; ++rep) {
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; ++i)
      s += a[i] += 1.0;
  }
  printf("%g\n", s);
  free(a);
  return 0;
}
