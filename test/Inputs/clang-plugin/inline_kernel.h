// Header with an inline function holding a parallel region: every
// translation unit that uses it gets a copy; it is still one phase.
#pragma once
static inline double header_sum(const double *v, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}
