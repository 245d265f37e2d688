// Second translation unit of MultiTU_orphan_exec.c: orphaned worksharing
// loops and a header region, called from the other unit's region.
#include "inline_kernel.h"

void scale(double *v, int n, double f) {
#pragma omp for schedule(static)
  for (int i = 0; i < n; i++)
    v[i] *= f;
}

// Serial helper with a loop: its iterations count for whichever construct
// calls it.
double serial_dot(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return s;
}

double tu2_header(const double *v, int n) { return header_sum(v, n); }
