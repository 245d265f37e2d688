/* bt.c - a multi-phase solver shaped like NAS BT.
 *
 * Phases, as a user of NAS BT sees them:
 *  - an initialization `parallel for` (its own region);
 *  - ONE `parallel` region around the whole time-step loop whose body calls
 *    the sweeps of bt_solve.c (orphaned `omp for` loops in another
 *    translation unit: compute_rhs, x/y/z_solve, add) plus a `single` that
 *    does the per-step bookkeeping;
 *  - an error-norm `parallel for` with a reduction (its own region);
 *  - serial work between them (setup and a serial verification pass).
 * Usage: bt [n] [steps]   (grid n^3, default 32 and 10); prints a checksum. */
#include "bt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 32;
  int steps = argc > 2 ? atoi(argv[2]) : 10;
  if (n < 3 || n > 1024 || steps <= 0) {
    fprintf(stderr, "bt: n must be in [3, 1024] and steps positive\n");
    return 2;
  }
  long total = (long)n * n * n * BT_NC;
  double *u = malloc(sizeof(double) * total);
  double *rhs = malloc(sizeof(double) * total);
  if (!u || !rhs) {
    fprintf(stderr, "bt: out of memory for n=%d\n", n);
    return 1;
  }

#pragma omp parallel for schedule(static)
  for (long p = 0; p < total; p++) {
    u[p] = 1.0 + 0.001 * (double)(p % 97);
    rhs[p] = 0.0;
  }

  int done = 0;
#pragma omp parallel shared(done)
  {
    for (int step = 0; step < steps; step++) {
      bt_compute_rhs(n, u, rhs);
      bt_x_solve(n, rhs);
      bt_y_solve(n, rhs);
      bt_z_solve(n, rhs);
      bt_add(n, u, rhs);
#pragma omp barrier
#pragma omp single
      done++;
    }
  }

  double norm = 0.0;
#pragma omp parallel for reduction(+ : norm) schedule(static)
  for (long p = 0; p < total; p++)
    norm += (u[p] - 1.0) * (u[p] - 1.0);

  /* Serial verification: a second, independent pass over the solution. */
  double serial = 0.0;
  for (long p = 0; p < total; p++)
    serial += u[p] * (double)((p % 5) + 1);

  printf("bt n=%d steps=%d done=%d norm %.6e checksum %.6e\n", n, steps, done, sqrt(norm), serial);
  free(u);
  free(rhs);
  return 0;
}
