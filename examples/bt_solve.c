/* bt_solve.c - the sweeps of the bt example, in their own translation unit.
 *
 * Each function holds an orphaned `omp for`: it is a phase whose parent is
 * the region of bt.c that calls it, as in NAS BT's x_solve/y_solve/z_solve.
 * The solves run a tridiagonal (Thomas) recurrence along one grid direction
 * for every line of the other two, so the x sweep walks memory with stride
 * 5 doubles, the y sweep with stride 5n and the z sweep with stride 5n^2. */
#include "bt.h"

void bt_compute_rhs(int n, const double *u, double *rhs) {
#pragma omp for schedule(static)
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++)
        for (int m = 0; m < BT_NC; m++)
          rhs[BT_IDX(n, i, j, k, m)] =
              0.1 * (u[BT_IDX(n, i + 1, j, k, m)] + u[BT_IDX(n, i - 1, j, k, m)] +
                     u[BT_IDX(n, i, j + 1, k, m)] + u[BT_IDX(n, i, j - 1, k, m)] +
                     u[BT_IDX(n, i, j, k + 1, m)] + u[BT_IDX(n, i, j, k - 1, m)] -
                     6.0 * u[BT_IDX(n, i, j, k, m)]);
}

/* One Thomas sweep over a line of n points with element stride s. */
static void line_solve(double *x, long s, int n) {
  const double a = -0.25, b = 1.5, c = -0.25;
  double cp[1024];
  int len = n < 1024 ? n : 1024;
  cp[0] = c / b;
  x[0] = x[0] / b;
  for (int i = 1; i < len; i++) {
    double den = b - a * cp[i - 1];
    cp[i] = c / den;
    x[i * s] = (x[i * s] - a * x[(i - 1) * s]) / den;
  }
  for (int i = len - 2; i >= 0; i--)
    x[i * s] -= cp[i] * x[(i + 1) * s];
}

void bt_x_solve(int n, double *rhs) {
#pragma omp for schedule(static) collapse(2)
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int m = 0; m < BT_NC; m++)
        line_solve(&rhs[BT_IDX(n, 0, j, k, m)], BT_NC, n);
}

void bt_y_solve(int n, double *rhs) {
#pragma omp for schedule(static) collapse(2)
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int m = 0; m < BT_NC; m++)
        line_solve(&rhs[BT_IDX(n, i, 0, k, m)], (long)BT_NC * n, n);
}

void bt_z_solve(int n, double *rhs) {
#pragma omp for schedule(dynamic, 4)
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      for (int m = 0; m < BT_NC; m++)
        line_solve(&rhs[BT_IDX(n, i, j, 0, m)], (long)BT_NC * n * n, n);
}

void bt_add(int n, double *u, const double *rhs) {
#pragma omp for schedule(static) nowait
  for (long p = 0; p < (long)n * n * n * BT_NC; p++)
    u[p] += rhs[p];
}
